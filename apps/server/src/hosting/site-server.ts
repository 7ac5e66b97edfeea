/**
 * Serves a site's live copy (its manifest: path + query → blob) on the site's own host. Pure: the
 * blob store, host resolution, manifest loading and visit recording are handed in; no database.
 *
 * Hot path (a known host, a cached manifest, a small or compressed body in memory): answered
 * synchronously, with no promise, no microtask hop and no allocation of our own: a few map reads,
 * a response head built once per file and encoding and reused, one `writeHead` + `end`. The
 * product calls `handleNode` from the HTTP server's request listener, before Fastify
 * (`sites-front.ts`); `handle` serves requests that reached Fastify anyway (`app.inject`). Either
 * way the answer is written to the raw response, so none of the app's hooks (security headers,
 * cookies, CSP) touch a tenant's site.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import type { BlobStore, Manifest, ManifestEntry } from '@mirror/engine';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { hostnameOf } from './tenant-host.js';
import { SiteCache } from './site-cache.js';
import {
  ENCODING_GZIP,
  ENCODING_IDENTITY,
  NOT_FOUND_PAGE,
  UNAVAILABLE_PAGE,
  hasContentHash,
  isCompressibleType,
  isHtmlType,
  mediaTypeOf,
  negotiateEncoding,
  noSiteHerePage,
  parseRange,
  type Encoding,
} from './site-http.js';

export { noSiteHerePage } from './site-http.js';

export interface SiteSource {
  siteId: string;
  versionId: string;
  /** A version looked at on its preview host: not the site's audience, so visits are not counted. */
  preview?: boolean;
}

export interface SiteServerDeps {
  blobs: BlobStore;
  /** Maps a request's host name (subdomain or custom domain) to the site's live version. */
  resolveHost(hostname: string): Promise<SiteSource | null>;
  /** Reads a version's manifest; the site server caches it (versions are immutable). */
  loadManifest(versionId: string): Promise<Manifest>;
  /**
   * Called after a GET was answered from the copy (not on a preview host): `page` for an HTML
   * page answered 200 or 304, `asset` for everything else (other files, ranges, the site's own
   * 404 page), with the body bytes sent (none for a 304). The request is handed over for its
   * headers (who, from where); nothing may be kept of it. Must be cheap and must not throw
   * (errors are logged and ignored); a returned promise is not awaited.
   */
  recordVisit?(siteId: string, req: IncomingMessage, kind: 'page' | 'asset', bytes: number): void;
}

export interface SiteServerOptions {
  /** The app's address, linked from the "No site here" page. */
  appUrl?: string;
  /** Logger for `handleNode` (Fastify's `handle` uses the request's logger); default console. */
  log?: SiteLogger;
  /**
   * How long a host → live version answer is reused (default 2,000 ms; 0 asks `resolveHost` on
   * every request). During one more TTL a stale answer is still served while it is asked again in
   * the background. `invalidate()` drops these at once in this process.
   */
  hostCacheTtlMs?: number;
  /** Bodies up to this size are kept in memory (default 256 KiB). */
  smallBodyBytes?: number;
  /** Memory budget of uncompressed small bodies (default 64 MiB). */
  bodyCacheBytes?: number;
  /** Memory budget of compressed bodies (default 64 MiB). */
  compressedCacheBytes?: number;
  /** Compressible bodies larger than this are streamed uncompressed (default 8 MiB). */
  maxCompressBytes?: number;
  /** Bodies smaller than this are not compressed (default 1 KiB). */
  minCompressBytes?: number;
  /** Manifests kept parsed: at most this many (default 64) … */
  maxManifests?: number;
  /** … and this many entries across them (default 250,000, roughly 50–100 MB). */
  maxManifestEntries?: number;
}

/** Where the site server reports trouble (a Fastify/pino logger fits). */
export interface SiteLogger {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface SiteServer {
  /**
   * Answers a request for a tenant host inside Fastify (a route handler or an `onRequest` hook).
   * The reply is hijacked: the answer is written to the raw response, so the app's own hooks and
   * headers never apply to tenant sites, and Fastify does not log the request.
   */
  handle(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  /**
   * The same on a plain `node:http` request, without Fastify's per-request cost: what the app's
   * HTTP server calls for tenant hosts (`createSitesFront`). `log` defaults to the `log` option.
   * When the host, manifest and body are in memory it answers before returning and returns one
   * shared settled promise; it never rejects (failures answer 503 and are logged).
   */
  handleNode(req: IncomingMessage, res: ServerResponse, log?: SiteLogger): Promise<void>;
  /**
   * Forgets a version's parsed manifest and every host answer pointing at it (call it after
   * publishing another version of that site); without an argument, forgets every manifest and
   * host answer. Bodies are content-addressed and never stale, so they stay cached.
   */
  invalidate(versionId?: string): void;
}

/** One file of a copy, ready to answer: everything that does not depend on the request. */
interface Resource {
  readonly status: number;
  readonly hash: string;
  readonly size: number;
  readonly contentType: string;
  /** Strong validator of the identity body; null for redirects and the site's 404 page. */
  readonly etag: string | null;
  readonly isHtml: boolean;
  readonly compressible: boolean;
  /** Keys of the compressed bodies in the compressed cache, built on first use. */
  keys: readonly [string, string, string] | null;
  /** Headers every answer for this file carries (cache policy, security, vary, captured ones). */
  readonly common: readonly string[];
  /** Redirects: the whole head. */
  readonly redirectHead: string[] | null;
  /** Full heads per encoding (flat name/value lists), built on first use. */
  heads: [string[] | null, string[] | null, string[] | null];
  notModifiedHeads: [string[] | null, string[] | null, string[] | null];
  /** Compression was tried and did not pay off (or would not fit the cache), per encoding. */
  noGain: [boolean, boolean, boolean];
}

interface SiteIndex {
  byPath: Map<string, Resource>;
  /** Entries with a query string, under their query normalized (parameters sorted). */
  byNormalized: Map<string, Resource>;
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
}

interface HostAnswer {
  source: SiteSource | null;
  expires: number;
}

const SECURITY_HEADERS = [
  'x-content-type-options',
  'nosniff',
  'referrer-policy',
  'strict-origin-when-cross-origin',
];
const NO_CACHE = 'no-cache';
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

/** What `handleNode` returns when it answered synchronously (one shared, settled promise). */
const DONE: Promise<void> = Promise.resolve();

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

const HTML_TYPE = 'text/html; charset=utf-8';

function fixedPage(status: number, html: string, extra: string[] = []) {
  const body = Buffer.from(html);
  const head = [
    'content-type',
    HTML_TYPE,
    'content-length',
    String(body.length),
    'cache-control',
    NO_CACHE,
    ...SECURITY_HEADERS,
    ...extra,
  ];
  return { status, body, head };
}

const NOT_FOUND = fixedPage(404, NOT_FOUND_PAGE);
const UNAVAILABLE = fixedPage(503, UNAVAILABLE_PAGE, ['retry-after', '5']);
const METHOD_NOT_ALLOWED = {
  status: 405,
  body: Buffer.from('Method Not Allowed\n'),
  head: [
    'content-type',
    'text/plain; charset=utf-8',
    'content-length',
    '19',
    'allow',
    'GET, HEAD',
    'cache-control',
    NO_CACHE,
    ...SECURITY_HEADERS,
  ],
};

export function createSiteServer(
  deps: SiteServerDeps,
  options: SiteServerOptions = {},
): SiteServer {
  const appUrl = options.appUrl ?? '/';
  const defaultLog = options.log ?? consoleLog;
  const hostTtl = options.hostCacheTtlMs ?? 2000;
  const smallBodyBytes = options.smallBodyBytes ?? 256 * 1024;
  const maxCompressBytes = options.maxCompressBytes ?? 8 * 1024 * 1024;
  const minCompressBytes = options.minCompressBytes ?? 1024;

  const hosts = new SiteCache<string, HostAnswer>(10_000, 10_000);
  const manifests = new SiteCache<string, SiteIndex>(
    options.maxManifestEntries ?? 250_000,
    options.maxManifests ?? 64,
  );
  const bodies = new SiteCache<string, Buffer>(options.bodyCacheBytes ?? 64 * 1024 * 1024);
  const compressed = new SiteCache<string, Buffer>(
    options.compressedCacheBytes ?? 64 * 1024 * 1024,
  );
  const resolving = new Map<string, Promise<SiteSource | null>>();
  const loadingManifests = new Map<string, Promise<SiteIndex>>();
  const loadingBodies = new Map<string, Promise<Buffer>>();
  const compressing = new Map<string, Promise<Buffer | null>>();
  /** Bumped by invalidate(), so answers that were in flight meanwhile are not cached. */
  let generation = 0;

  // ---- building an index from a manifest --------------------------------------------------

  function resourceOf(entry: ManifestEntry, asNotFound = false): Resource {
    const isRedirect = !asNotFound && entry.status >= 300 && entry.status < 400;
    const contentType = validValue(entry.contentType) || 'application/octet-stream';
    const mediaType = mediaTypeOf(contentType);
    const isHtml = isHtmlType(mediaType);
    const compressible =
      !isRedirect &&
      isCompressibleType(mediaType) &&
      entry.size >= minCompressBytes &&
      entry.size <= maxCompressBytes;
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

  function buildIndex(manifest: Manifest): SiteIndex {
    const byPath = new Map<string, Resource>();
    const byNormalized = new Map<string, Resource>();
    for (const entry of manifest.entries) {
      const resource = resourceOf(entry);
      if (resource.status >= 300 && resource.redirectHead === null) continue;
      byPath.set(entry.path, resource);
      if (entry.path.includes('?')) {
        const normalized = normalizeUrl(entry.path);
        if (normalized !== entry.path && !byNormalized.has(normalized)) {
          byNormalized.set(normalized, resource);
        }
      }
    }
    // What the site itself answered for an address it did not have (the engine asked it).
    const fallback = manifest.fallback;
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
      fallbacks: new Map(),
      notFound: notFoundEntry ? resourceOf(notFoundEntry, true) : null,
      appShell: fallback?.status === 200 && fallbackEntry ? resourceOf(fallbackEntry) : null,
      entryPath: manifest.entryPath,
    };
  }

  // ---- lookup -------------------------------------------------------------------------------

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
    const { byPath, byNormalized } = index;
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
    // 3. the path without its query
    const bare = byPath.get(path);
    if (bare) return bare;
    // 4. index and .html fallbacks
    const suffix = query ? `?${query}` : '';
    if (path.endsWith('/')) {
      const index_ = byPath.get(`${path}index.html`) ?? byPath.get(`${path}index.htm`);
      if (index_) return index_;
    } else {
      if (byPath.has(`${path}/`) || byPath.has(`${path}/index.html`)) {
        // The directory's page links relative to `/dir/`: send the browser there, as nginx does.
        // Leading slashes collapsed: `//x/` would send the browser to another host.
        return syntheticRedirect(301, `/${path.replace(/^\/+/, '')}/${suffix}`);
      }
      const page = byPath.get(`${path}.html`) ?? byPath.get(`${path}.htm`);
      if (page) return page;
    }
    // 5. the copy has no `/` but starts elsewhere (the start page redirected)
    if (path === '/' && index.entryPath !== '/' && byPath.has(index.entryPath)) {
      return syntheticRedirect(302, index.entryPath);
    }
    return null;
  }

  // ---- caches -------------------------------------------------------------------------------

  /** Asks `resolveHost` once for concurrent callers; caches the answer for the TTL. */
  function resolveHostCached(hostHeader: string): Promise<SiteSource | null> {
    let pending = resolving.get(hostHeader);
    if (pending === undefined) {
      const startedAt = generation;
      const hostname = hostnameOf(hostHeader);
      pending = (hostname === '' ? Promise.resolve(null) : deps.resolveHost(hostname))
        .then((source) => {
          if (hostTtl > 0 && startedAt === generation) {
            hosts.set(hostHeader, { source, expires: Date.now() + hostTtl });
          }
          return source;
        })
        .finally(() => resolving.delete(hostHeader));
      resolving.set(hostHeader, pending);
    }
    return pending;
  }

  /**
   * An answer past its TTL but within a second TTL is still used while it is asked again in the
   * background (stale-while-revalidate): a busy host never waits for the database.
   */
  function refreshHost(hostHeader: string, log: SiteLogger): void {
    if (resolving.has(hostHeader)) return;
    resolveHostCached(hostHeader).catch((err: unknown) =>
      log.warn({ err }, 'refreshing a site host failed'),
    );
  }

  function indexOf(versionId: string): Promise<SiteIndex> {
    let pending = loadingManifests.get(versionId);
    if (pending === undefined) {
      const startedAt = generation;
      pending = deps
        .loadManifest(versionId)
        .then((manifest) => {
          const index = buildIndex(manifest);
          if (startedAt === generation) {
            manifests.set(versionId, index, manifest.entries.length + 1);
          }
          return index;
        })
        .finally(() => loadingManifests.delete(versionId));
      loadingManifests.set(versionId, pending);
    }
    return pending;
  }

  async function readAll(hash: string): Promise<Buffer> {
    const chunks: Uint8Array[] = [];
    for await (const chunk of deps.blobs.read(hash)) chunks.push(chunk);
    return chunks.length === 1 && Buffer.isBuffer(chunks[0]) ? chunks[0] : Buffer.concat(chunks);
  }

  /** The whole identity body: from the byte cache for small files, else read (not cached). */
  function bodyOf(resource: Resource): Promise<Buffer> {
    const { hash } = resource;
    const cached = bodies.get(hash);
    if (cached !== undefined) return Promise.resolve(cached);
    let pending = loadingBodies.get(hash);
    if (pending === undefined) {
      pending = readAll(hash)
        .then((body) => {
          if (body.length <= smallBodyBytes) bodies.set(hash, body, body.length);
          return body;
        })
        .finally(() => loadingBodies.delete(hash));
      loadingBodies.set(hash, pending);
    }
    return pending;
  }

  function compressedOf(resource: Resource, encoding: Encoding): Promise<Buffer | null> {
    const key = keyOf(resource, encoding);
    let pending = compressing.get(key);
    if (pending === undefined) {
      pending = bodyOf(resource)
        .then((body) => compress(body, encoding))
        .then((out) => {
          // Not worth it (< 5% saved), or too big for the cache: serve it uncompressed from now on.
          if (out.length > resource.size * 0.95 || !compressed.set(key, out, out.length)) {
            resource.noGain[encoding] = true;
            return null;
          }
          return out;
        })
        .finally(() => compressing.delete(key));
      compressing.set(key, pending);
    }
    return pending;
  }

  // ---- answering ----------------------------------------------------------------------------
  //
  // Every step returns `undefined` when it answered synchronously, or a promise when it had to
  // wait (a host, manifest or body not in memory yet). The hot path thus never allocates a promise
  // or takes a microtask hop: host, manifest and body are map reads, the head is a prebuilt array.

  function identityHead(resource: Resource, length: number): string[] {
    const head = ['content-type', resource.contentType, 'content-length', String(length)];
    if (resource.etag !== null) head.push('etag', resource.etag, 'accept-ranges', 'bytes');
    head.push(...resource.common);
    return head;
  }

  function encodedHead(resource: Resource, encoding: Encoding, length: number): string[] {
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

  function etagOf(resource: Resource, encoding: Encoding): string {
    return `"${resource.hash}${ETAG_SUFFIXES[encoding]}"`;
  }

  function recordVisit(
    req: IncomingMessage,
    res: ServerResponse,
    log: SiteLogger,
    site: SiteSource,
    resource: Resource,
    bytes: number,
  ): void {
    const record = deps.recordVisit;
    if (record === undefined || site.preview || req.method !== 'GET') return;
    const status = res.statusCode;
    const kind = resource.isHtml && (status === 200 || status === 304) ? 'page' : 'asset';
    try {
      const result: unknown = record(site.siteId, req, kind, bytes);
      if (result instanceof Promise) {
        result.catch((err: unknown) => log.warn({ err }, 'recording a visit failed'));
      }
    } catch (err) {
      log.warn({ err }, 'recording a visit failed');
    }
  }

  function answer(
    req: IncomingMessage,
    res: ServerResponse,
    log: SiteLogger,
  ): Promise<void> | undefined {
    const hostHeader = req.headers.host ?? '';
    if (hostTtl <= 0) return answerAfterResolving(req, res, log, hostHeader);
    const known = hosts.get(hostHeader);
    if (known === undefined) return answerAfterResolving(req, res, log, hostHeader);
    const now = Date.now();
    if (known.expires <= now) {
      if (known.expires + hostTtl <= now) return answerAfterResolving(req, res, log, hostHeader);
      refreshHost(hostHeader, log);
    }
    return answerFor(req, res, log, known.source);
  }

  async function answerAfterResolving(
    req: IncomingMessage,
    res: ServerResponse,
    log: SiteLogger,
    hostHeader: string,
  ): Promise<void> {
    const site = await resolveHostCached(hostHeader);
    await answerFor(req, res, log, site);
  }

  function answerFor(
    req: IncomingMessage,
    res: ServerResponse,
    log: SiteLogger,
    site: SiteSource | null,
  ): Promise<void> | undefined {
    const method = req.method;
    const isHead = method === 'HEAD';
    if (site === null) {
      sendNoSite(res, req.headers.host ?? '', isHead);
      return undefined;
    }
    if (!isHead && method !== 'GET') {
      sendFixed(res, METHOD_NOT_ALLOWED, false);
      return undefined;
    }
    const index = manifests.get(site.versionId);
    if (index === undefined) {
      return indexOf(site.versionId).then((loaded) => answerFrom(req, res, log, site, loaded));
    }
    return answerFrom(req, res, log, site, index);
  }

  function answerFrom(
    req: IncomingMessage,
    res: ServerResponse,
    log: SiteLogger,
    site: SiteSource,
    index: SiteIndex,
  ): Promise<void> | undefined {
    const url = req.url ?? '/';
    const resource = index.byPath.get(url) ?? lookup(index, url);
    if (resource !== null) return serve(req, res, log, site, resource);
    // A page load (a browser asks for HTML) of an app's deep link gets the app; a script's
    // request for data the copy does not have still gets a 404.
    if (index.appShell !== null && (req.headers.accept ?? '').includes('text/html'))
      return serve(req, res, log, site, index.appShell);
    if (index.notFound !== null) return serve(req, res, log, site, index.notFound);
    sendFixed(res, NOT_FOUND, req.method === 'HEAD');
    return undefined;
  }

  function serve(
    req: IncomingMessage,
    res: ServerResponse,
    log: SiteLogger,
    site: SiteSource,
    resource: Resource,
  ): Promise<void> | undefined {
    if (resource.redirectHead !== null) {
      res.writeHead(resource.status, resource.redirectHead);
      res.end();
      return undefined;
    }
    const headers = req.headers;
    const isHead = req.method === 'HEAD';
    const encoding = resource.compressible
      ? negotiateEncoding(headers['accept-encoding'])
      : ENCODING_IDENTITY;

    if (resource.etag !== null) {
      const ifNoneMatch = headers['if-none-match'];
      if (ifNoneMatch !== undefined && matchesEtag(ifNoneMatch, resource.hash)) {
        const served = resource.noGain[encoding] ? ENCODING_IDENTITY : encoding;
        const head = (resource.notModifiedHeads[served] ??= [
          'etag',
          etagOf(resource, served),
          ...resource.common,
        ]);
        res.writeHead(304, head);
        res.end();
        recordVisit(req, res, log, site, resource, 0);
        return undefined;
      }
      if (headers.range !== undefined && !isHead) {
        const ifRange = headers['if-range'];
        if (ifRange === undefined || ifRange === resource.etag) {
          const range = parseRange(headers.range, resource.size);
          if (range !== null) return serveRange(req, res, log, site, resource, range);
        }
      }
    }

    if (encoding !== ENCODING_IDENTITY && !resource.noGain[encoding]) {
      const body = compressed.get(keyOf(resource, encoding));
      if (body !== undefined) {
        sendBody(req, res, log, site, resource, encoding, body, isHead);
        return undefined;
      }
      return compressedOf(resource, encoding).then((out) =>
        out !== null
          ? sendBody(req, res, log, site, resource, encoding, out, isHead)
          : serveIdentity(req, res, log, site, resource, isHead),
      );
    }
    return serveIdentity(req, res, log, site, resource, isHead);
  }

  function serveIdentity(
    req: IncomingMessage,
    res: ServerResponse,
    log: SiteLogger,
    site: SiteSource,
    resource: Resource,
    isHead: boolean,
  ): Promise<void> | undefined {
    if (resource.size <= smallBodyBytes) {
      const body = bodies.get(resource.hash);
      if (body !== undefined) {
        sendBody(req, res, log, site, resource, ENCODING_IDENTITY, body, isHead);
        return undefined;
      }
      return bodyOf(resource).then((loaded) =>
        sendBody(req, res, log, site, resource, ENCODING_IDENTITY, loaded, isHead),
      );
    }
    const head = (resource.heads[ENCODING_IDENTITY] ??= identityHead(resource, resource.size));
    if (isHead) {
      res.writeHead(resource.status, head);
      res.end();
      recordVisit(req, res, log, site, resource, 0);
      return undefined;
    }
    return streamBody(res, log, resource, resource.status, head, 0, resource.size - 1).then(
      (sent) => recordVisit(req, res, log, site, resource, sent),
    );
  }

  /** One `writeHead` with the file's prebuilt head for this encoding, one `end`. */
  function sendBody(
    req: IncomingMessage,
    res: ServerResponse,
    log: SiteLogger,
    site: SiteSource,
    resource: Resource,
    encoding: Encoding,
    body: Buffer,
    isHead: boolean,
  ): undefined {
    const head = (resource.heads[encoding] ??=
      encoding === ENCODING_IDENTITY
        ? identityHead(resource, body.length)
        : encodedHead(resource, encoding, body.length));
    res.writeHead(resource.status, head);
    if (isHead) res.end();
    else res.end(body);
    recordVisit(req, res, log, site, resource, isHead ? 0 : body.length);
    return undefined;
  }

  function serveRange(
    req: IncomingMessage,
    res: ServerResponse,
    log: SiteLogger,
    site: SiteSource,
    resource: Resource,
    range: { start: number; end: number } | 'unsatisfiable',
  ): Promise<void> | undefined {
    if (range === 'unsatisfiable') {
      res.writeHead(416, [
        'content-range',
        `bytes */${resource.size}`,
        'content-length',
        '0',
        ...resource.common,
      ]);
      res.end();
      return undefined;
    }
    const { start, end } = range;
    const head = [
      'content-type',
      resource.contentType,
      'content-length',
      String(end - start + 1),
      'content-range',
      `bytes ${start}-${end}/${resource.size}`,
      'etag',
      resource.etag!,
      'accept-ranges',
      'bytes',
      ...resource.common,
    ];
    if (resource.size <= smallBodyBytes) {
      const send = (body: Buffer) => {
        res.writeHead(206, head);
        res.end(body.subarray(start, end + 1));
        recordVisit(req, res, log, site, resource, end - start + 1);
      };
      const body = bodies.get(resource.hash);
      if (body === undefined) return bodyOf(resource).then(send);
      send(body);
      return undefined;
    }
    return streamBody(res, log, resource, 206, head, start, end).then((sent) =>
      recordVisit(req, res, log, site, resource, sent),
    );
  }

  /**
   * Streams bytes [start, end] of a blob; answers how many were handed to the response. The first
   * chunk is read before the head is written, so a missing blob still gets a proper error page; a
   * client that goes away stops the read.
   */
  async function streamBody(
    res: ServerResponse,
    log: SiteLogger,
    resource: Resource,
    status: number,
    head: string[],
    start: number,
    end: number,
  ): Promise<number> {
    const iterator = deps.blobs.read(resource.hash)[Symbol.asyncIterator]();
    const first = await iterator.next();
    res.writeHead(status, head);
    const sent = { bytes: 0 };
    try {
      await pipeline(Readable.from(sliceChunks(first, iterator, start, end, sent)), res);
    } catch (err) {
      // The client went away or the store failed mid-body: nothing more can be said on this
      // response; the framing (content-length) tells the client it is incomplete.
      if (!res.destroyed) res.destroy();
      if ((err as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE') {
        log.warn({ err, hash: resource.hash }, 'streaming a site file failed');
      }
    }
    return sent.bytes;
  }

  function sendFixed(
    res: ServerResponse,
    answer: { status: number; head: string[]; body: Buffer },
    isHead: boolean,
  ): void {
    res.writeHead(answer.status, answer.head);
    if (isHead) res.end();
    else res.end(answer.body);
  }

  function sendNoSite(res: ServerResponse, hostHeader: string, isHead: boolean): void {
    sendFixed(res, fixedPage(404, noSiteHerePage(hostnameOf(hostHeader), appUrl)), isHead);
  }

  function fail(req: IncomingMessage, res: ServerResponse, log: SiteLogger, err: unknown): void {
    log.error({ err }, 'serving a site failed');
    if (!res.headersSent) sendFixed(res, UNAVAILABLE, req.method === 'HEAD');
    else if (!res.destroyed) res.destroy();
  }

  function handleNode(
    req: IncomingMessage,
    res: ServerResponse,
    log: SiteLogger = defaultLog,
  ): Promise<void> {
    let pending: Promise<void> | undefined;
    try {
      pending = answer(req, res, log);
    } catch (err) {
      fail(req, res, log, err);
      return DONE;
    }
    return pending === undefined ? DONE : pending.catch((err: unknown) => fail(req, res, log, err));
  }

  function handle(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    reply.hijack();
    return handleNode(request.raw, reply.raw, request.log);
  }
  function invalidate(versionId?: string): void {
    generation++;
    if (versionId === undefined) {
      manifests.clear();
      hosts.clear();
      return;
    }
    manifests.delete(versionId);
    hosts.deleteWhere((_host, answer) => answer.source?.versionId === versionId);
  }

  return { handle, handleNode, invalidate };
}

const consoleLog: SiteLogger = {
  warn: (details, message) => console.warn(message, details),
  error: (details, message) => console.error(message, details),
};

// ---- helpers ------------------------------------------------------------------------------

function keyOf(resource: Resource, encoding: Encoding): string {
  resource.keys ??= ['', `${resource.hash}:gz`, `${resource.hash}:br`];
  return resource.keys[encoding];
}

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

/** If-None-Match matches any variant of this body (weak comparison, as RFC 9110 asks). */
function matchesEtag(ifNoneMatch: string, hash: string): boolean {
  return (hash !== '' && ifNoneMatch.includes(hash)) || ifNoneMatch.trim() === '*';
}

async function* sliceChunks(
  first: IteratorResult<Uint8Array>,
  iterator: AsyncIterator<Uint8Array>,
  start: number,
  end: number,
  sent: { bytes: number },
): AsyncGenerator<Uint8Array> {
  let offset = 0;
  let step = first;
  try {
    while (step.done !== true) {
      const chunk = step.value;
      const from = Math.max(start - offset, 0);
      const to = Math.min(end + 1 - offset, chunk.length);
      if (to > from) {
        yield from === 0 && to === chunk.length ? chunk : chunk.subarray(from, to);
        sent.bytes += to - from;
      }
      offset += chunk.length;
      if (offset > end) break;
      step = await iterator.next();
    }
  } finally {
    await iterator.return?.();
  }
}

async function compress(body: Buffer, encoding: Encoding): Promise<Buffer> {
  if (encoding === ENCODING_GZIP) return gzipAsync(body, { level: 9 });
  // Brotli's best quality is slow (~1 MB/s); it is paid once per file, then cached.
  const quality = body.length <= 64 * 1024 ? 11 : body.length <= 1024 * 1024 ? 9 : 5;
  return brotliAsync(body, {
    params: {
      [zlib.BROTLI_PARAM_QUALITY]: quality,
      [zlib.BROTLI_PARAM_SIZE_HINT]: body.length,
      [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
    },
  });
}
