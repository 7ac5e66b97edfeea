import type { Ref } from '../references/index.js';
import type { PageForm } from '../types.js';
import type { UrlMapper } from '../url-map.js';
import { fragmentOf, withoutHash } from './body-type.js';

/**
 * Where a reference of a page, style sheet or web manifest points in the copy; undefined: it stays
 * as written. The site's own URLs and every captured file go to their path in the copy (a page of
 * the site the crawl skipped is a dead link in the copy, never a way back to the original). What
 * the copy does not hold from another host (a CDN down for a moment, a file over a limit) keeps its
 * original address and is listed in the failures: the copy degrades no worse than the original
 * page, instead of pointing at a copy path that answers 404 forever. Links to other sites stay.
 *
 * `held`: whether the copy holds the file at `href` (another host's URL, without its fragment).
 * `referenced`: told each copy path a reference was given. `parsed`: `ref.url` parsed, if it was.
 */
export function refInCopy(
  ref: Ref,
  mapper: UrlMapper,
  held: (url: URL, href: string, ref: Ref) => boolean,
  referenced: Set<string> | null,
  parsed?: URL,
): string | undefined {
  let url: URL;
  try {
    url = parsed ?? new URL(ref.url);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (!mapper.isOwn(url) && !held(url, withoutHash(url), ref))
    return ref.kind === 'page' ? undefined : url.href;
  const copyPath = mapper.toCopyPath(url);
  referenced?.add(copyPath);
  return copyPath + fragmentOf(ref.raw);
}

/**
 * A page's copy, made while the crawl reads the page (`Discovery`): its references go where the
 * copy will have them, on the crawl's guess of which files of other hosts the copy will hold.
 * The rewrite takes it instead of reading, decoding and parsing the page a second time (a fifth of
 * a documentation site's CPU) when the crawl's end bears the guess out; otherwise it rewrites the
 * page as fetched. The references of the site's own URLs need no guess: their copy path is fixed.
 */
export interface PageReading {
  /** The page's URL, which its references were resolved against. */
  url: string;
  /** The copy's bytes in the store. */
  hash: string;
  size: number;
  /** Other hosts' files the copy was taken to hold (URLs without fragment). */
  held: readonly string[];
  /**
   * Those it was taken to lack, by `urlHash`: a page of a documentation site links to hundreds of
   * pages elsewhere. A hash shared with a held file only costs the page its copy.
   */
  lacked: Int32Array;
  /** The forms marked in the copy (the entry's own `forms`), or undefined when none were. */
  forms: PageForm[] | undefined;
  /** The copy paths the page references, when the run reports them (`onDocumentReferences`). */
  referenced: ReadonlySet<string> | undefined;
}

/** A page's copy before it is stored (`HtmlInfo.copy`). */
export interface PageCopy {
  bytes: Uint8Array;
  reading: Omit<PageReading, 'hash' | 'size'>;
}

/**
 * Whether the copy holds what the guesses of a page's copy said: `entries`, the crawl's files by
 * URL, and `hashes`, the `urlHash` of each.
 */
export function guessesHold(
  reading: PageReading,
  entries: ReadonlyMap<string, unknown>,
  hashes: ReadonlySet<number>,
): boolean {
  return (
    reading.held.every((href) => entries.has(href)) &&
    !reading.lacked.some((hash) => hashes.has(hash))
  );
}

/** A 32-bit hash of a URL (FNV-1a over its UTF-16 code units). */
export function urlHash(href: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < href.length; i++) hash = Math.imul(hash ^ href.charCodeAt(i), 0x01000193);
  return hash | 0;
}
