/**
 * What changed between two versions of a mirrored site (issue 33): the change report made for
 * every new mirror version (a re-mirror, a scheduled sync, a repair) against the version it
 * replaces. Noise does not count: dates, counters, rotating banners, nonce and hash attributes,
 * reordered query strings and tracking parameters.
 */

/** A run of words in a page's text diff: kept for context, added or removed. */
export interface TextDiffPart {
  op: 'same' | 'added' | 'removed';
  text: string;
}

/** One place in a page where its text changed, with a few words around it. */
export type TextDiffHunk = TextDiffPart[];

/** A changed value of the page's head: its title or one of its meta descriptions. */
export interface HeadChange {
  /** `title`, or the meta's name (`description`, `og:title`, …). */
  field: string;
  before: string | null;
  after: string | null;
}

export interface ChangedPage {
  /** The page's path in the copy, e.g. `/pricing`. */
  path: string;
  /** Its title in the new version (or the old one's, when it has none). */
  title: string;
  wordsAdded: number;
  wordsRemoved: number;
  /** The text diff in context (at most `CHANGE_REPORT_LIMITS.hunksPerPage` places). */
  hunks: TextDiffHunk[];
  /** There were more places than the hunks shown. */
  moreHunks: boolean;
  head: HeadChange[];
  /** Links (absolute, normalized) the page has now and did not have, and the reverse. */
  linksAdded: string[];
  linksRemoved: string[];
  /** Images, videos and sounds it shows now and did not show, and the reverse. */
  mediaAdded: string[];
  mediaRemoved: string[];
}

export interface ListedPage {
  path: string;
  title: string;
}

export interface ChangedAsset {
  path: string;
  contentType: string;
  /** Bytes in the old version (null: the file is new). */
  sizeBefore: number | null;
  /** Bytes in the new version (null: the file is gone). */
  sizeAfter: number | null;
}

export interface ChangeReport {
  /** "No changes", or e.g. "3 pages changed, 1 added: /pricing (Pro now $12), /blog/new-post, …". */
  summary: string;
  /** Nothing a visitor would notice changed (noise aside). */
  unchanged: boolean;
  pages: { added: ListedPage[]; removed: ListedPage[]; changed: ChangedPage[] };
  assets: { added: ChangedAsset[]; removed: ChangedAsset[]; changed: ChangedAsset[] };
  /** Pages compared whose differences were all noise (dates, counters, rotating parts, …). */
  noiseOnly: number;
}

export const CHANGE_REPORT_LIMITS = {
  /** Places shown per changed page. */
  hunksPerPage: 20,
  /** Words of context either side of a change. */
  contextWords: 8,
  /** Links listed per page, each way. */
  linksPerPage: 50,
  /** Pages named in the one-line summary. */
  summaryPages: 3,
} as const;
