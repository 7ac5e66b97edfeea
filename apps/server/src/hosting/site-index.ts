/**
 * The pure half of the sites host: a version's manifest turned into an index of ready-to-answer
 * files, and what a request URL answers from it (exact path, normalized query, index and `.html`
 * fallbacks, directory and entry redirects, the app shell, the site's own 404 page). No sockets,
 * no blob store, no promises: `site-server.ts` writes what this decides.
 *
 * Everything that does not depend on the request is computed once per file here (status, type,
 * validators, the headers it always carries); the per-encoding heads are built on first use and
 * kept on the file, so the hot path reuses them.
 */
import {
  agreedQueryVariants,
  essenceOf,
  siteSearchesOf,
  type Manifest,
  type ManifestEntry,
} from '@mirror/engine';
import type { CachedFile } from './body-cache.js';
import {
  ENCODING_IDENTITY,
  hasContentHash,
  isCompressibleType,
  isHtmlType,
  type Encoding,
} from './site-http.js';

/** One file of a copy, ready to answer: everything that does not depend on the request. */
export interface Resource extends CachedFile {
  readonly status: number;
  readonly contentType: string;
  /** Strong validator of the identity body; null for redirects and the site's 404 page. */
  readonly etag: string | null;
  readonly isHtml: boolean;
  readonly compressible: boolean;
  /** Headers every answer for this file carries (cache policy, security, vary, captured ones). */
  readonly common: readonly string[];
  /** Redirects: the whole head. */
  readonly redirectHead: string[] | null;
  /** Full heads per encoding (flat name/value lists), built on first use. */
  heads: [string[] | null, string[] | null, string[] | null];
  notModifiedHeads: [string[] | null, string[] | null, string[] | null];
}

export interface SiteIndex {
  byPath: Map<string, Resource>;
  /** Entries with a query string, under their query normalized (parameters sorted). */
  byNormalized: Map<string, Resource>;
  /**
   * The file a path answers under any query when the copy holds only query variants of it and
   * they say the query chose nothing (`agreedQueryVariants`, which the export follows too): by
   * path, no query.
   */
  byBarePath: Map<string, Resource>;
  /** Answers of the fallback lookup per requested URL (null: not found), bounded. */
  fallbacks: Map<string, Resource | null>;
  /** The site's own 404 page, answered with status 404. */
  notFound: Resource | null;
  /**
   * The shell of an app that routes on the client, which its site answered for every address:
   * given (status 200) to page loads of addresses the copy does not have, so deep links work.
   */
  appShell: Resource | null;
  entryPath: string;
  /**
   * The site's own search forms: the path each submits to, and its words' field
   * (`siteSearchesOf`). A search there that the copy holds no page for is answered from an index
   * of the copy's pages (`searchTermOf`).
   */
  searches: Map<string, string>;
}

/** Which bodies are worth compressing, by size. */
export interface CompressionLimits {
  /** Bodies smaller than this are not compressed. */
  minCompressBytes: number;
  /** Compressible bodies larger than this are streamed uncompressed. */
  maxCompressBytes: number;
}

export const SECURITY_HEADERS: readonly string[] = [
  'x-content-type-options',
  'nosniff',
  'referrer-policy',
  'strict-origin-when-cross-origin',
];
export const NO_CACHE = 'no-cache';

const previewHeads = new WeakMap<readonly string[], string[]>();

/**
 * A head as a version's preview host sends it. The preview's unguessable name is all that guards a
 * draft, so its address must never leave in a Referer (not even as an origin) and search engines
 * must not keep it. Built once per head (heads are kept on their file).
 */
export function previewHead(head: readonly string[]): string[] {
  let out = previewHeads.get(head);
  if (out === undefined) {
    out = [];
    for (let i = 0; i < head.length; i += 2) {
      const name = head[i]!;
      if (name !== 'referrer-policy' && name !== 'x-robots-tag') out.push(name, head[i + 1]!);
    }
    out.push('referrer-policy', 'no-referrer', 'x-robots-tag', 'noindex');
    previewHeads.set(head, out);
  }
  return out;
}
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** The headers most files share, by [immutable][compressible] (shared, never mutated). */
const COMMON_HEADS: readonly (readonly string[])[] = [
  ['cache-control', NO_CACHE, ...SECURITY_HEADERS],
  ['cache-control', NO_CACHE, ...SECURITY_HEADERS, 'vary', 'accept-encoding'],
  ['cache-control', IMMUTABLE, ...SECURITY_HEADERS],
  ['cache-control', IMMUTABLE, ...SECURITY_HEADERS, 'vary', 'accept-encoding'],
];
/** Captured headers that are served back; anything else (cookies, CSP, …) is never replayed. */
const PASSED_HEADERS = ['content-language', 'content-disposition', 'access-control-allow-origin'];
const VALID_HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
const ENCODING_NAMES = ['', 'gzip', 'br'] as const;
const ETAG_SUFFIXES = ['', '-gz', '-br'] as const;
const MAX_FALLBACKS = 4096;

// ---- building an index from a manifest ----------------------------------------------------

export function buildIndex(manifest: Manifest, limits: CompressionLimits): SiteIndex {
  const byPath = new Map<string, Resource>();
  const byNormalized = new Map<string, Resource>();
  const fallback = manifest.fallback;
  for (const entry of manifest.entries) {
    // What the site answered with an error is not in the export either (its fallback page is).
    if (entry.status >= 400 && entry.path !== fallback?.path) continue;
    const resource = resourceOf(entry, limits);
    if (resource.status >= 300 && resource.redirectHead === null) continue;
    byPath.set(entry.path, resource);
    if (!entry.path.includes('?')) continue;
    const normalized = normalizeUrl(entry.path);
    if (normalized !== entry.path && !byNormalized.has(normalized)) {
      byNormalized.set(normalized, resource);
    }
  }
  const byBarePath = new Map<string, Resource>();
  for (const [path, entry] of agreedQueryVariants(manifest.entries))
    byBarePath.set(path, byPath.get(entry.path) ?? resourceOf(entry, limits));
  // What the site itself answered for an address it did not have (the engine asked it).
  const fallbackEntry = fallback
    ? manifest.entries.find((e) => e.path === fallback.path && e.hash !== '')
    : undefined;
  const notFoundEntry =
    fallback?.status === 404
      ? fallbackEntry
      : ['/404.html', '/404']
          .map((path) => manifest.entries.find((e) => e.path === path && e.status === 200))
          .find((e) => e !== undefined);
  return {
    byPath,
    byNormalized,
    byBarePath,
    fallbacks: new Map(),
    notFound: notFoundEntry ? resourceOf(notFoundEntry, limits, true) : null,
    appShell: fallback?.status === 200 && fallbackEntry ? resourceOf(fallbackEntry, limits) : null,
    entryPath: manifest.entryPath,
    searches: siteSearchesOf(manifest),
  };
}

/**
 * The words of a search of the site's own search form that the copy holds no page for (the crawl
 * could not list results pages), to answer from the index of its pages; undefined for every other
 * request, and for an empty search (the form's page answers it, as the site would).
 */
export function searchTermOf(index: SiteIndex, url: string): string | undefined {
  if (index.searches.size === 0) return undefined;
  const q = url.indexOf('?');
  if (q === -1) return undefined;
  const field = index.searches.get(url.slice(0, q));
  if (field === undefined || index.byPath.has(url)) return undefined;
  const term = new URLSearchParams(url.slice(q + 1)).get(field)?.trim();
  return term ? term.slice(0, 200) : undefined;
}

function resourceOf(entry: ManifestEntry, limits: CompressionLimits, asNotFound = false): Resource {
  const isRedirect = !asNotFound && entry.status >= 300 && entry.status < 400;
  const contentType = validValue(entry.contentType) || 'application/octet-stream';
  const mediaType = essenceOf(contentType);
  const isHtml = isHtmlType(mediaType);
  const compressible =
    !isRedirect &&
    isCompressibleType(mediaType) &&
    entry.size >= limits.minCompressBytes &&
    entry.size <= limits.maxCompressBytes;
  const pathname = pathOf(entry.path);
  const immutable = !isHtml && !isRedirect && !asNotFound && hasContentHash(pathname);
  let common = COMMON_HEADS[(immutable ? 2 : 0) + (compressible ? 1 : 0)]!;
  for (const name of PASSED_HEADERS) {
    const value = entry.headers[name];
    if (value !== undefined && VALID_HEADER_VALUE.test(value)) common = [...common, name, value];
  }
  let redirectHead: string[] | null = null;
  if (isRedirect) {
    const location = entry.headers['location'];
    redirectHead =
      location !== undefined && location !== '' && VALID_HEADER_VALUE.test(location)
        ? ['location', location, 'content-length', '0', ...common]
        : null;
  }
  return {
    status: asNotFound ? 404 : isRedirect ? entry.status : 200,
    hash: entry.hash,
    size: entry.size,
    contentType,
    etag: isRedirect || asNotFound || entry.hash === '' ? null : `"${entry.hash}"`,
    isHtml,
    compressible,
    keys: null,
    common,
    redirectHead,
    heads: [null, null, null],
    notModifiedHeads: [null, null, null],
    noGain: [false, false, false],
  };
}

function syntheticRedirect(status: number, location: string): Resource {
  const common = COMMON_HEADS[0]!;
  return {
    status,
    hash: '',
    size: 0,
    contentType: '',
    etag: null,
    isHtml: false,
    compressible: false,
    keys: null,
    common,
    redirectHead: ['location', location, 'content-length', '0', ...common],
    heads: [null, null, null],
    notModifiedHeads: [null, null, null],
    noGain: [true, true, true],
  };
}

// ---- lookup -------------------------------------------------------------------------------

/**
 * The file a request answers, or null (then the host's plain 404 page): the exact URL, else the
 * fallbacks of `lookup`, else the app shell for a page load (`accept` asks for HTML), else the
 * site's own 404 page. A script's request for data the copy does not have still gets a 404.
 */
export function findResource(
  index: SiteIndex,
  url: string,
  accept: string | undefined,
): Resource | null {
  const resource = index.byPath.get(url) ?? lookup(index, url);
  if (resource !== null) return resource;
  if (index.appShell !== null && (accept ?? '').includes('text/html')) return index.appShell;
  return index.notFound;
}

/** Everything after an exact miss, memoized per URL. */
function lookup(index: SiteIndex, url: string): Resource | null {
  const known = index.fallbacks.get(url);
  if (known !== undefined) return known;
  const found = lookupUncached(index, url);
  if (index.fallbacks.size >= MAX_FALLBACKS) index.fallbacks.clear();
  index.fallbacks.set(url, found);
  return found;
}

function lookupUncached(index: SiteIndex, rawUrl: string): Resource | null {
  const { byPath, byNormalized, byBarePath } = index;
  const url = originFormOf(rawUrl);
  if (url === null) return null;
  const q = url.indexOf('?');
  const rawPath = q === -1 ? url : url.slice(0, q);
  const query = q === -1 ? '' : url.slice(q + 1);
  const path = normalizePath(rawPath);
  // 1. exact (after an absolute-form or encoding-normalized path)
  const exact = byPath.get(query ? `${path}?${query}` : path);
  if (exact) return exact;
  // 2. query normalized (parameters sorted)
  if (query) {
    const normalized = normalizeUrl(`${path}?${query}`);
    const hit = byPath.get(normalized) ?? byNormalized.get(normalized);
    if (hit) return hit;
  }
  // From here on the query is ignored, as a static server serving the export ignores it.
  // 3. the path without its query, or the file its query variants agree on
  const bare = byPath.get(path) ?? byBarePath.get(path);
  if (bare) return bare;
  // 4. the names a static server tries for a path: `index.html` of a folder, the page's `.html`
  //    (before the folder: `try_files $uri $uri.html $uri/`), and the other way round, the copy
  //    path the export wrote under a name with `.html` or `index.html`.
  const suffix = query ? `?${query}` : '';
  if (path.endsWith('/')) {
    const index_ = byPath.get(`${path}index.html`) ?? byPath.get(`${path}index.htm`);
    if (index_) return index_;
  } else {
    const page = byPath.get(`${path}.html`) ?? byPath.get(`${path}.htm`);
    if (page) return page;
    if (byPath.has(`${path}/`) || byPath.has(`${path}/index.html`)) {
      // The directory's page links relative to `/dir/`: send the browser there, as nginx does.
      // Leading slashes collapsed: `//x/` would send the browser to another host.
      return syntheticRedirect(301, `/${path.replace(/^\/+/, '')}/${suffix}`);
    }
    const exported = exportedAs(byPath, path);
    if (exported) return exported;
  }
  // 5. the copy has no `/` but starts elsewhere (the start page redirected)
  if (path === '/' && index.entryPath !== '/' && byPath.has(index.entryPath)) {
    return syntheticRedirect(302, index.entryPath);
  }
  return null;
}

/**
 * The page the export wrote under this name: `/dir/index.html` for the copy's `/dir/`, and
 * `/guide/setup.html` for the copy's `/guide/setup` (a page without an extension).
 */
function exportedAs(byPath: Map<string, Resource>, path: string): Resource | undefined {
  const folder = /\/index\.html?$/.exec(path);
  if (folder) {
    const page = byPath.get(path.slice(0, folder.index + 1));
    if (page?.isHtml) return page;
  }
  const extension = /\.html?$/.exec(path);
  if (extension && !path.endsWith('/index.html') && !path.endsWith('/index.htm')) {
    const page = byPath.get(path.slice(0, extension.index));
    if (page?.isHtml) return page;
  }
  return undefined;
}

// ---- heads and validators -----------------------------------------------------------------

export function identityHead(resource: Resource, length: number): string[] {
  const head = ['content-type', resource.contentType, 'content-length', String(length)];
  if (resource.etag !== null) head.push('etag', resource.etag, 'accept-ranges', 'bytes');
  head.push(...resource.common);
  return head;
}

export function encodedHead(resource: Resource, encoding: Encoding, length: number): string[] {
  const head = [
    'content-type',
    resource.contentType,
    'content-length',
    String(length),
    'content-encoding',
    ENCODING_NAMES[encoding],
  ];
  if (resource.etag !== null) head.push('etag', etagOf(resource, encoding));
  head.push(...resource.common);
  return head;
}

/** The head of a 304 for the variant this file is served in, built once per encoding. */
export function notModifiedHead(resource: Resource, encoding: Encoding): string[] {
  const served = resource.noGain[encoding] ? ENCODING_IDENTITY : encoding;
  return (resource.notModifiedHeads[served] ??= [
    'etag',
    etagOf(resource, served),
    ...resource.common,
  ]);
}

function etagOf(resource: Resource, encoding: Encoding): string {
  return `"${resource.hash}${ETAG_SUFFIXES[encoding]}"`;
}

/** If-None-Match matches any variant of this body (weak comparison, as RFC 9110 asks). */
export function matchesEtag(ifNoneMatch: string, hash: string): boolean {
  return (hash !== '' && ifNoneMatch.includes(hash)) || ifNoneMatch.trim() === '*';
}

// ---- URLs ---------------------------------------------------------------------------------

function validValue(value: string): string {
  return VALID_HEADER_VALUE.test(value) ? value : '';
}

function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

/** `http://host/a?b` (absolute form) → `/a?b`; anything that is not a path → null. */
function originFormOf(url: string): string | null {
  if (url.startsWith('/')) return url;
  const scheme = url.indexOf('://');
  if (scheme === -1) return null;
  const slash = url.indexOf('/', scheme + 3);
  return slash === -1 ? '/' : url.slice(slash);
}

/** Percent-encoding and dot segments as a browser would send them (`/a/./b/../café` → `/a/caf%C3%A9`). */
function normalizePath(path: string): string {
  try {
    // Prefixed, not resolved against a base: `//evil.test/x` stays a path, not a host.
    return new URL(`http://h${path}`).pathname;
  } catch {
    return path;
  }
}

/** Path + query with the query's parameters sorted by name (stable) and re-encoded. */
function normalizeUrl(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  params.sort();
  const query = params.toString();
  return query ? `${url.slice(0, q)}?${query}` : url.slice(0, q);
}
