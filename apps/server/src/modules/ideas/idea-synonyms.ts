import { z } from 'zod';
import { fieldOf, parseEntries } from './catalogue-data.js';
import synonyms from './idea-synonyms.json' with { type: 'json' };
import { normalizeText, tokenize } from './idea-terms.js';

/**
 * Common idea words in the eight UI languages (English, Spanish, Russian, Chinese, Arabic, Hindi,
 * Thai, Indonesian), plus cheap extras in German, French, Italian, Portuguese and Japanese, mapped
 * to the English words the catalogue is indexed with. A concept matches when one of its words does:
 *
 * - Latin and Cyrillic words match a whole token, or the start of one when six letters or longer
 *   ("ресторан" matches "ресторана", "restaurante" matches "restaurantes"); a phrase with spaces
 *   matches those tokens in a row.
 * - Chinese, Japanese, Thai, Arabic and Devanagari words match anywhere in the text, since those
 *   scripts do not separate words with spaces (or glue articles and prepositions to them), so very
 *   short words that hide inside longer ones are left out ("รถ" is inside "สามารถ").
 */
interface Concept {
  /** English words added to the query: category keywords and tags of the catalogue. */
  terms: string;
  words: readonly string[];
}

/** One concept of the JSON file. */
export const ConceptEntry = z
  .object({
    terms: z.string().trim().min(1),
    words: z.array(z.string().trim().min(1)).min(1),
  })
  .strict();

/** The concepts, checked: throws naming the first bad one. */
export function parseConcepts(data: unknown): Concept[] {
  return parseEntries('idea-synonyms.json', ConceptEntry, data, fieldOf('terms'));
}

const CONCEPTS: readonly Concept[] = parseConcepts(synonyms);

const UNSEGMENTED_SCRIPT =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Arabic}\p{Script=Devanagari}]/u;

interface Matcher {
  matches(text: string, tokens: readonly string[], joined: string): boolean;
}

function compileWord(raw: string): Matcher {
  const word = normalizeText(raw);
  if (UNSEGMENTED_SCRIPT.test(word)) return { matches: (text) => text.includes(word) };
  const parts = tokenize(word);
  if (parts.length > 1) {
    const phrase = ` ${parts.join(' ')} `;
    return { matches: (_text, _tokens, joined) => joined.includes(phrase) };
  }
  const single = parts[0] ?? word;
  const prefix = single.length >= 6;
  return {
    matches: (_text, tokens) =>
      tokens.some((token) => token === single || (prefix && token.startsWith(single))),
  };
}

const COMPILED = CONCEPTS.map((concept) => ({
  terms: concept.terms.split(' '),
  matchers: concept.words.map(compileWord),
}));

/** English catalogue words for the concepts an idea mentions, in any of the languages above. */
export function expandIdea(idea: string): string[] {
  const text = normalizeText(idea);
  const tokens = tokenize(idea);
  const joined = ` ${tokens.join(' ')} `;
  const terms = new Set<string>();
  for (const concept of COMPILED) {
    if (concept.matchers.some((m) => m.matches(text, tokens, joined))) {
      for (const term of concept.terms) terms.add(term);
    }
  }
  return [...terms];
}
