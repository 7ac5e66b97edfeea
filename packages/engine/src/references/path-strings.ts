/**
 * Path strings in scripts: string literals that look like a file the site's scripts load at run
 * time (a search index, a worker, a data file, a chunk), such as "/search/search_index.json",
 * "pagefind/pagefind.js" or "../assets/javascripts/workers/search.f8cc74c7.min.js". The crawl
 * queues them as guesses (see `Discovery`): nothing says a script will load them.
 *
 * No parse: one regular expression finds a known extension right before a closing quote
 * (`.json"`), which code outside a string literal cannot have, and a walk back from it, at most
 * 300 characters, finds the opening quote over characters that can be in a path (no whitespace,
 * quote, backslash, `${`, operator or punctuation of code). A literal with a space or an escape is
 * no path. Linear in the text and cheap: the expression leads with a `.` and fails on the next
 * character almost everywhere else.
 */

/** Extensions of files scripts load at run time: data, code, search indexes (Pagefind's own). */
export const PATH_STRING_EXTENSIONS: ReadonlySet<string> = new Set([
  'json',
  'jsonl',
  'ndjson',
  'geojson',
  'topojson',
  'js',
  'mjs',
  'cjs',
  'css',
  'xml',
  'txt',
  'csv',
  'tsv',
  'yaml',
  'yml',
  'toml',
  'wasm',
  'webmanifest',
  'rss',
  'atom',
  'pagefind',
  'pf_meta',
  'pf_index',
  'pf_fragment',
]);

/** One of PATH_STRING_EXTENSIONS (lower case, as written) and the quote that closes the literal. */
const EXTENSION_AT_END =
  /\.(?:json|jsonl|ndjson|geojson|topojson|js|mjs|cjs|css|xml|txt|csv|tsv|yaml|yml|toml|wasm|webmanifest|rss|atom|pagefind|pf_meta|pf_index|pf_fragment)["'`]/g;
const MAX_LENGTH = 300;
const MIN_LENGTH = 3;

/** Characters a path string may hold (ASCII; anything above is taken too). */
const PATH_CHAR = new Uint8Array(128);
for (let c = 0x21; c < 0x7f; c++) PATH_CHAR[c] = 1;
for (const c of '"\'`\\<>{}()[]|^,;=+*!?#&$') PATH_CHAR[c.charCodeAt(0)] = 0;

/** Scheme-relative or absolute http(s): the only addresses with a colon taken. */
const ABSOLUTE = /^(?:https?:)?\/\/[^/]/i;

/**
 * Whether a string names a file by its path: a last segment `name.ext` with a known extension, no
 * scheme but http(s), no run of slashes. Not a module alias (`@site/…`, `~blog/…`) nor a bare name
 * written as prose (`Node.js`).
 */
export function looksLikeFilePath(value: string): boolean {
  const slash = value.lastIndexOf('/');
  const name = value.slice(slash + 1);
  const dot = name.lastIndexOf('.');
  // ".json" alone, "x." and a trailing slash name no file.
  if (dot <= 0 || dot === name.length - 1) return false;
  if (!PATH_STRING_EXTENSIONS.has(name.slice(dot + 1).toLowerCase())) return false;
  // Names with no letter or digit before the extension ("...js").
  if (!/[A-Za-z0-9_]/.test(name.slice(0, dot))) return false;
  const first = value.charCodeAt(0);
  if (first === 0x40 /* @ */ || first === 0x7e /* ~ */) return false;
  if (slash === -1 && first >= 0x41 && first <= 0x5a) return false;
  if (value.includes(':') || value.startsWith('//'))
    return ABSOLUTE.test(value) && !value.slice(value.indexOf('//') + 2).includes('//');
  // Runs of slashes or "/./" are written by code joining paths, not by a path.
  return !value.includes('//') && !value.includes('/./');
}

/**
 * Adds to `found` the distinct strings of `code` that look like file paths (`looksLikeFilePath`),
 * in order, until it holds `limit`. Escaped slashes (JSON's `"\/search\/index.json"`) are read as
 * slashes; any other escape makes a literal no path.
 */
export function collectPathStrings(code: string, found: Set<string>, limit: number): void {
  if (found.size >= limit) return;
  const re = new RegExp(EXTENSION_AT_END);
  for (let m = re.exec(code); m !== null; m = re.exec(code)) {
    const close = re.lastIndex - 1;
    const quote = code.charCodeAt(close);
    const stop = Math.max(-1, close - MAX_LENGTH - 1);
    let open = m.index - 1;
    let escaped = false;
    while (open > stop) {
      const c = code.charCodeAt(open);
      if (c === 0x2f /* / */ && code.charCodeAt(open - 1) === 0x5c /* \ */) {
        escaped = true;
        open -= 2;
        continue;
      }
      const inPath =
        c < 128 ? PATH_CHAR[c] === 1 : c !== 0x2028 && c !== 0x2029 && c !== 0xa0 && c !== 0xfeff;
      if (!inPath) break;
      open--;
    }
    if (open <= stop || code.charCodeAt(open) !== quote) continue;
    let value = code.slice(open + 1, close);
    if (escaped) value = value.replaceAll('\\/', '/');
    if (value.length < MIN_LENGTH || found.has(value) || !looksLikeFilePath(value)) continue;
    found.add(value);
    if (found.size >= limit) return;
  }
}

/** The distinct path strings of `code` (`collectPathStrings`), at most `limit`. */
export function pathStrings(code: string, limit = Infinity): string[] {
  const found = new Set<string>();
  collectPathStrings(code, found, limit);
  return [...found];
}
