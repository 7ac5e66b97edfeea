import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LOCALE_CODES } from '@mirror/contract';

type Tree = { [key: string]: string | Tree };

const here = dirname(fileURLToPath(import.meta.url));
const load = (code: string): Tree => JSON.parse(readFileSync(join(here, `${code}.json`), 'utf8'));

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
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

const english = flatten(load('en'));
const others = LOCALE_CODES.filter((code) => code !== 'en');

describe('locale files', () => {
  it('exist for every language and nothing else', () => {
    const files = readdirSync(here)
      .filter((f) => f.endsWith('.json'))
      .map((f) => f.replace(/\.json$/, ''))
      .sort();
    expect(files).toEqual([...LOCALE_CODES].sort());
  });

  describe.each(others)('%s', (code) => {
    const messages = flatten(load(code));

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
  });
});
