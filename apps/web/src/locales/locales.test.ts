import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LOCALE_CODES } from '@mirror/contract';

type Tree = { [key: string]: string | Tree };

const here = dirname(fileURLToPath(import.meta.url));
const load = (code: string): Tree => JSON.parse(readFileSync(join(here, `${code}.json`), 'utf8'));

const PLURAL_CATEGORIES = new Set(['zero', 'one', 'two', 'few', 'many', 'other']);

/** A count's forms (`{ one, other }`, keyed by Intl.PluralRules categories): one key per language. */
const isPlural = (tree: Tree) =>
  Object.keys(tree).length > 0 && Object.keys(tree).every((key) => PLURAL_CATEGORIES.has(key));

/** Keys to their text; a count's forms under the count's key, with English's `other` form. */
function flatten(tree: Tree, prefix = '', plurals = new Map<string, Tree>()): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else if (isPlural(value)) {
      plurals.set(path, value);
      out.set(path, typeof value.other === 'string' ? value.other : '');
    } else for (const [k, v] of flatten(value, path, plurals)) out.set(k, v);
  }
  return out;
}

/**
 * The forms a language needs for the whole numbers a count shows (0 to 1,000), and `other`, which
 * the app falls back to (`lib/fidelity.ts`).
 */
function formsFor(code: string): string[] {
  const rules = new Intl.PluralRules(code);
  const forms = Array.from({ length: 1001 }, (_, n) => rules.select(n));
  return [...new Set([...forms, 'other'])].sort();
}

/** Names stay the same in every language, so they do not count as words to translate. */
const PROPER_NAMES = /\b(Mirror Pro|Mirror Agency|Mirror|Reflection|SSL|DNS|AI|URL)\b/g;
const placeholders = (text: string) => (text.match(/\{\w+\}/g) ?? []).sort();
/** Words a translator would translate: no placeholders, names, numbers or punctuation. */
const wordCount = (text: string) =>
  text
    .replace(/\{\w+\}/g, ' ')
    .replace(PROPER_NAMES, ' ')
    .split(/\s+/)
    .filter((word) => /\p{L}/u.test(word)).length;

const englishPlurals = new Map<string, Tree>();
const english = flatten(load('en'), '', englishPlurals);
const others = LOCALE_CODES.filter((code) => code !== 'en');

describe('locale files', () => {
  it('exist for every language and nothing else', () => {
    const files = readdirSync(here)
      .filter((f) => f.endsWith('.json'))
      .map((f) => f.replace(/\.json$/, ''))
      .sort();
    expect(files).toEqual([...LOCALE_CODES].sort());
  });

  it('gives English every form of its counts', () => {
    for (const [key, forms] of englishPlurals) {
      expect({ key, forms: Object.keys(forms).sort() }).toEqual({ key, forms: formsFor('en') });
    }
  });

  describe.each(others)('%s', (code) => {
    const plurals = new Map<string, Tree>();
    const messages = flatten(load(code), '', plurals);

    it('has every form its plural rules ask for, and no other, for each count', () => {
      const wrong = [...englishPlurals.keys()].flatMap((key) => {
        const forms = Object.keys(plurals.get(key) ?? {}).sort();
        return forms.join() === formsFor(code).join() ? [] : [{ key, forms }];
      });
      expect(wrong).toEqual([]);
    });

    it('has every key of English', () => {
      const missing = [...english.keys()].filter((key) => !messages.has(key));
      expect(missing).toEqual([]);
    });

    it('has no key English lacks', () => {
      const extra = [...messages.keys()].filter((key) => !english.has(key));
      expect(extra).toEqual([]);
    });

    it('translates every sentence', () => {
      const untranslated = [...messages].filter(([key, value]) => {
        const source = english.get(key);
        return source !== undefined && value === source && wordCount(source) > 3;
      });
      expect(untranslated.map(([key]) => key)).toEqual([]);
    });

    it('keeps every {placeholder}', () => {
      const broken = [...messages].filter(([key, value]) => {
        const source = english.get(key);
        return source !== undefined && placeholders(value).join() !== placeholders(source).join();
      });
      expect(broken.map(([key]) => key)).toEqual([]);
    });

    it('keeps every {placeholder} in each form of a count ({count} may be written as a word)', () => {
      const broken = [...plurals].flatMap(([key, forms]) =>
        Object.entries(forms).flatMap(([form, text]) => {
          const source = placeholders(english.get(key) ?? '').filter((p) => p !== '{count}');
          const own = placeholders(String(text)).filter((p) => p !== '{count}');
          return own.join() === source.join() ? [] : [`${key}.${form}`];
        }),
      );
      expect(broken).toEqual([]);
    });
  });
});
