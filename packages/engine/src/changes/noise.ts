/**
 * What changes on a page without the site changing: the rules that keep it out of a change report.
 * Text is compared after `maskVolatile` (dates, times, relative times, counters, copyright years
 * become placeholders); links after `normalizeLink` (tracking parameters gone, query sorted, no
 * fragment); attributes are not compared at all (nonces, hashes, CSRF tokens live there).
 */

const MONTHS =
  'jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?';
const WEEKDAYS =
  'mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:r(?:s(?:day)?)?)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?';
const UNITS = 'seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?';
const COUNTED =
  'views?|visitors?|visits|online|comments?|likes?|followers?|subscribers?|downloads?|reads?|people|users|shares?|votes?|reviews?|ratings?|watching|viewing|sold|in stock|left|remaining';

/** Each rule: a pattern and the placeholder its matches become. Order matters (longest first). */
const RULES: [RegExp, string][] = [
  // 2026-11-28, 2026-11-28T10:48:20Z, 2026-11-28 10:48:20+01:00
  [
    /\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?\b/gi,
    '⟨date⟩',
  ],
  // Saturday, November 28, 2026 · Nov 28th 2026 · 28 November 2026 · November 2026
  [
    new RegExp(
      `\\b(?:(?:${WEEKDAYS}),?\\s+)?(?:(?:${MONTHS})\\.?\\s+\\d{1,2}(?:st|nd|rd|th)?,?(?:\\s+\\d{4})?|\\d{1,2}(?:st|nd|rd|th)?\\.?\\s+(?:${MONTHS})\\.?,?(?:\\s+\\d{4})?|(?:${MONTHS})\\.?\\s+\\d{4})\\b`,
      'gi',
    ),
    '⟨date⟩',
  ],
  // 28/11/2026, 11.28.26, 28-11-2026
  [/\b\d{1,2}[./-]\d{1,2}[./-](?:\d{4}|\d{2})\b/g, '⟨date⟩'],
  // 10:48, 10:48:20, 10:48 pm, 9 am
  [/\b\d{1,2}:\d{2}(?::\d{2})?(?:\s*[ap]\.?m\.?)?(?![\w:])/gi, '⟨time⟩'],
  [/\b\d{1,2}\s*[ap]\.?m\.?(?!\w)/gi, '⟨time⟩'],
  // 3 hours ago, in 5 minutes, an hour ago
  [new RegExp(`\\b(?:\\d+|an?|one)\\s+(?:${UNITS})\\s+ago\\b`, 'gi'), '⟨ago⟩'],
  [new RegExp(`\\bin\\s+(?:\\d+|an?)\\s+(?:${UNITS})\\b`, 'gi'), '⟨ago⟩'],
  [/\b(?:just now|yesterday|today|tomorrow)\b/gi, '⟨ago⟩'],
  [new RegExp(`\\b(?:${WEEKDAYS})\\b`, 'gi'), '⟨day⟩'],
  // © 2019–2026, Copyright 2026
  [/(?:©|\(c\)|copyright)\s*(?:\d{4}\s*[-–—]\s*)?\d{4}/gi, '⟨copyright⟩'],
  // 1,234 views · 12 people watching · Views: 1234 (digit groups bounded: linear on long numbers)
  [
    new RegExp(`\\b\\d+(?:[,. ]\\d{3}){0,4}(?:[.,]\\d+)?[kKmM]?\\+? ?(?:${COUNTED})\\b`, 'gi'),
    '⟨count⟩',
  ],
  [new RegExp(`\\b(?:${COUNTED})\\s*:?\\s*\\d[\\d,.]*[kKmM]?\\b`, 'gi'), '⟨count⟩'],
];

/** A word of a text as compared: a volatile phrase ("November 28, 2026") is one, keyed by its kind. */
export interface Token {
  text: string;
  key: string;
}

/** The words of `text`, each volatile phrase one token whose key is its placeholder. */
export function tokenize(text: string): Token[] {
  const ranges: [number, number, string][] = [];
  // Characters already in a phrase: a later rule's match over them is not one.
  const taken = new Uint8Array(text.length);
  for (const [pattern, placeholder] of RULES) {
    for (const match of text.matchAll(pattern)) {
      const start = match.index;
      const end = start + match[0].length;
      if (taken.subarray(start, end).includes(1)) continue;
      taken.fill(1, start, end);
      ranges.push([start, end, placeholder]);
    }
  }
  ranges.sort((x, y) => x[0] - y[0]);
  const tokens: Token[] = [];
  const words = (chunk: string) => {
    for (const word of chunk.split(/\s+/)) if (word) tokens.push({ text: word, key: word });
  };
  let at = 0;
  for (const [start, end, placeholder] of ranges) {
    words(text.slice(at, start));
    tokens.push({ text: text.slice(start, end), key: placeholder });
    at = end;
  }
  words(text.slice(at));
  return tokens;
}

/** The text with its volatile parts as placeholders. */
export function maskVolatile(text: string): string {
  return tokenize(text)
    .map((t) => t.key)
    .join(' ');
}

/**
 * Query parameters that say where a visitor came from, not what they see (Google, Meta,
 * Microsoft, Mailchimp, HubSpot, Matomo, and the like): dropped before links are compared.
 */
const TRACKING_PARAMS = new Set([
  'fbclid',
  'gclid',
  'gclsrc',
  'dclid',
  'gbraid',
  'wbraid',
  'msclkid',
  'yclid',
  'twclid',
  'ttclid',
  'li_fat_id',
  'igshid',
  'mc_cid',
  'mc_eid',
  '_ga',
  '_gl',
  '_hsenc',
  '_hsmi',
  '__hssc',
  '__hstc',
  '__hsfp',
  'hsctatracking',
  'mkt_tok',
  'oly_anon_id',
  'oly_enc_id',
  'vero_id',
  'rb_clickid',
  's_cid',
  'ref_src',
]);
const TRACKING_PREFIXES = ['utm_', 'pk_', 'mtm_', 'matomo_'];

export function isTrackingParam(name: string): boolean {
  const lower = name.toLowerCase();
  return TRACKING_PARAMS.has(lower) || TRACKING_PREFIXES.some((p) => lower.startsWith(p));
}

/** `search` without tracking parameters, its parameters sorted (the order means nothing). */
export function normalizeQuery(search: string): string {
  const params = new URLSearchParams(search);
  const kept = [...params].filter(([name]) => !isTrackingParam(name));
  kept.sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
  const query = new URLSearchParams(kept).toString();
  return query ? `?${query}` : '';
}

/** A link as compared: absolute, without fragment or tracking parameters, query sorted. */
export function normalizeLink(href: string, base: string): string | null {
  let url: URL;
  try {
    url = new URL(href.trim(), base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return url.protocol === 'mailto:' || url.protocol === 'tel:' ? url.href : null;
  }
  return `${url.origin}${url.pathname}${normalizeQuery(url.search)}`;
}

/** A copy's path (`/a?b=1&a=2`) as compared: query normalized as a link's. */
export function normalizePath(path: string): string {
  const q = path.indexOf('?');
  return q < 0 ? path : `${path.slice(0, q)}${normalizeQuery(path.slice(q))}`;
}
