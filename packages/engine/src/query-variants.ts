/**
 * Query variants of one path that say the query chose nothing. A static server ignores queries,
 * so the export and the sites host answer such a path under any query (or none) with their file
 * (docs/hosting.md, "What a URL answers"). Shared by both, so the two answer the same.
 */
import { isHtmlType } from './crawl/body-type.js';
import type { ManifestEntry } from './types.js';

/**
 * Parameters that sites add to defeat caches, whose value never chooses the content: Next.js's
 * `_rsc`, jQuery's `_`, and the usual version and time stamps.
 */
const CACHE_BUSTERS: ReadonlySet<string> = new Set([
  '_',
  '_rsc',
  '_t',
  'cb',
  'cachebust',
  'cachebuster',
  'dpl',
  'nocache',
  'rand',
  'random',
  'rnd',
  't',
  'timestamp',
  'ts',
  'v',
  'ver',
  'version',
]);

/** A query that is a version stamp alone, with no name: `?2022.1`, `?v3`, `?1700000000`, `?3f2a9c1b`. */
const VERSION_STAMP = /^(?:v?\d+(?:[.-]\d+)*|[0-9a-f]{6,})$/i;

function isCacheBusterQuery(query: string): boolean {
  if (VERSION_STAMP.test(query)) return true;
  const names = [...new URLSearchParams(query).keys()];
  return names.length > 0 && names.every((name) => CACHE_BUSTERS.has(name.toLowerCase()));
}

/**
 * By path (no query): the file of the paths the copy holds only query variants of, where those
 * variants agree: several of them answered 200 with one body (Next.js asks `index.txt?_rsc=…`
 * with a cache key that changes with the page it navigates from), or the only one is no page and
 * its parameters are all cache busters (`/config.json?t=1700000000`) or it is a version stamp
 * (`/pydoctheme.css?2022.1`). One variant of anything else
 * (`/api/list?page=2`, `/watch?v=abc`) proves nothing. Entries answered 300 or more are left out.
 */
export function agreedQueryVariants(entries: Iterable<ManifestEntry>): Map<string, ManifestEntry> {
  const bare = new Set<string>();
  const variants = new Map<string, { first: ManifestEntry; count: number; oneBody: boolean }>();
  for (const entry of entries) {
    const q = entry.path.indexOf('?');
    if (q === -1) {
      bare.add(entry.path);
      continue;
    }
    const path = entry.path.slice(0, q);
    const seen = variants.get(path);
    if (!seen) variants.set(path, { first: entry, count: 1, oneBody: entry.status === 200 });
    else {
      seen.count++;
      seen.oneBody &&= entry.status === 200 && entry.hash === seen.first.hash;
    }
  }
  const agreed = new Map<string, ManifestEntry>();
  for (const [path, { first, count, oneBody }] of variants) {
    if (bare.has(path) || first.status !== 200 || first.hash === '') continue;
    const query = first.path.slice(path.length + 1);
    const agree = count > 1 ? oneBody : !isHtmlType(first.contentType) && isCacheBusterQuery(query);
    if (agree) agreed.set(path, first);
  }
  return agreed;
}
