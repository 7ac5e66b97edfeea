/**
 * Serves a site's live copy (its manifest: path + query → blob) on the site's own host. Pure: the
 * blob store, host resolution, manifest loading and visit recording are handed in; no database.
 *
 * Three layers (decision 011): `site-index.ts` decides what a URL answers, without sockets;
 * `body-cache.ts` keeps file bodies and their compressed variants in memory; this file is the
 * answering code: host and manifest caches, conditional and range requests, writing the response.
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
import type { BlobStore, Manifest } from '@mirror/engine';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { BodyCache, type BodyCacheOptions } from './body-cache.js';
import { hostnameOf } from './tenant-host.js';
import { SiteCache } from './site-cache.js';
import {
  ENCODING_IDENTITY,
  NOT_FOUND_PAGE,
  UNAVAILABLE_PAGE,
  negotiateEncoding,
  noSiteHerePage,
  parseRange,
  type Encoding,
} from './site-http.js';
import {
  NO_CACHE,
  SECURITY_HEADERS,
  buildIndex,
  encodedHead,
  findResource,
  identityHead,
  matchesEtag,
  notModifiedHead,
  previewHead,
  searchTermOf,
  type Resource,
  type SiteIndex,
} from './site-index.js';

export { noSiteHerePage } from './site-http.js';

export interface SiteSource {
  siteId: string;
  versionId: string;
  /**
   * A version looked at on its preview host: not the site's audience, so visits are not counted,
   * and its answers send no Referer onwards and ask not to be indexed (`previewHead`).
   */
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
  /**
   * Answers a POST to a site's live copy (not on a preview host): a submission of one of its
   * forms (`form-capture.ts`), or 405 when it is none. Without it, every POST answers 405. Must
   * answer and never reject.
   */
  receivePost?(
    site: SiteSource,
    req: IncomingMessage,
    res: ServerResponse,
    log: SiteLogger,
  ): Promise<void>;
  /**
   * Answers a search of the site's own search form that the copy holds no page for
   * (`searchTermOf`) from an index of the copy's pages (`site-search.ts`). Without it, such a
   * request is answered as any other. Must answer and never reject.
   */
  searchSite?(
    site: SiteSource,
    term: string,
    req: IncomingMessage,
    res: ServerResponse,
    log: SiteLogger,
  ): Promise<void>;
}

/** Options; the body cache's (`smallBodyBytes`, `bodyCacheBytes`, `compressedCacheBytes`) too. */
export interface SiteServerOptions extends BodyCacheOptions {
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

interface HostAnswer {
  source: SiteSource | null;
  expires: number;
}

/** What `handleNode` returns when it answered synchronously (one shared, settled promise). */
const DONE: Promise<void> = Promise.resolve();

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
const PREVIEW_NOT_FOUND = { ...NOT_FOUND, head: previewHead(NOT_FOUND.head) };
const PREVIEW_METHOD_NOT_ALLOWED = {
  ...METHOD_NOT_ALLOWED,
  head: previewHead(METHOD_NOT_ALLOWED.head),
};

export function createSiteServer(
  deps: SiteServerDeps,
  options: SiteServerOptions = {},
): SiteServer {
  const appUrl = options.appUrl ?? '/';
  const defaultLog = options.log ?? consoleLog;
  const hostTtl = options.hostCacheTtlMs ?? 2000;
  const limits = {
    maxCompressBytes: options.maxCompressBytes ?? 8 * 1024 * 1024,
    minCompressBytes: options.minCompressBytes ?? 1024,
  };

  const hosts = new SiteCache<string, HostAnswer>(10_000, 10_000);
  const manifests = new SiteCache<string, SiteIndex>(
    options.maxManifestEntries ?? 250_000,
    options.maxManifests ?? 64,
  );
  const bodies = new BodyCache(deps.blobs, options);
  const smallBodyBytes = bodies.smallBodyBytes;
  const resolving = new Map<string, Promise<SiteSource | null>>();
  const loadingManifests = new Map<string, Promise<SiteIndex>>();
  /** Bumped by invalidate(), so answers that were in flight meanwhile are not cached. */
  let generation = 0;

  // ---- hosts and manifests ------------------------------------------------------------------

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
          const index = buildIndex(manifest, limits);
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

  // ---- answering ----------------------------------------------------------------------------
  //
  // Every step returns `undefined` when it answered synchronously, or a promise when it had to
  // wait (a host, manifest or body not in memory yet). The hot path thus never allocates a promise
  // or takes a microtask hop: host, manifest and body are map reads, the head is a prebuilt array.

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
    if (method === 'POST' && deps.receivePost !== undefined && site.preview !== true) {
      return deps.receivePost(site, req, res, log);
    }
    if (!isHead && method !== 'GET') {
      sendFixed(
        res,
        site.preview === true ? PREVIEW_METHOD_NOT_ALLOWED : METHOD_NOT_ALLOWED,
        false,
      );
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
    if (deps.searchSite !== undefined && index.searches.size > 0) {
      const term = searchTermOf(index, url);
      if (term !== undefined) return deps.searchSite(site, term, req, res, log);
    }
    const resource = findResource(index, url, req.headers.accept);
    if (resource !== null) return serve(req, res, log, site, resource);
    sendFixed(res, site.preview === true ? PREVIEW_NOT_FOUND : NOT_FOUND, req.method === 'HEAD');
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
      res.writeHead(resource.status, headFor(site, resource.redirectHead));
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
        res.writeHead(304, headFor(site, notModifiedHead(resource, encoding)));
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
      const body = bodies.compressedBody(resource, encoding);
      if (body !== undefined) {
        sendBody(req, res, log, site, resource, encoding, body, isHead);
        return undefined;
      }
      return bodies
        .loadCompressed(resource, encoding)
        .then((out) =>
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
      const body = bodies.body(resource.hash);
      if (body !== undefined) {
        sendBody(req, res, log, site, resource, ENCODING_IDENTITY, body, isHead);
        return undefined;
      }
      return bodies
        .load(resource)
        .then((loaded) =>
          sendBody(req, res, log, site, resource, ENCODING_IDENTITY, loaded, isHead),
        );
    }
    const head = headFor(
      site,
      (resource.heads[ENCODING_IDENTITY] ??= identityHead(resource, resource.size)),
    );
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
    res.writeHead(resource.status, headFor(site, head));
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
      res.writeHead(
        416,
        headFor(site, [
          'content-range',
          `bytes */${resource.size}`,
          'content-length',
          '0',
          ...resource.common,
        ]),
      );
      res.end();
      return undefined;
    }
    const { start, end } = range;
    const head = headFor(site, [
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
    ]);
    if (resource.size <= smallBodyBytes) {
      const send = (body: Buffer) => {
        res.writeHead(206, head);
        res.end(body.subarray(start, end + 1));
        recordVisit(req, res, log, site, resource, end - start + 1);
      };
      const body = bodies.body(resource.hash);
      if (body === undefined) return bodies.load(resource).then(send);
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

/** The head a file is answered with on this host: a preview host's adds its own rules. */
function headFor(site: SiteSource, head: string[]): string[] {
  return site.preview === true ? previewHead(head) : head;
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
