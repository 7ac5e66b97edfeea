import { createHash } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { classifyMirrorFailure, type MirrorFailureKind } from '@mirror/contract';
import { createHttpClient, type HttpClient, type HttpResponse } from '../net/http-client.js';
import { assertPublicUrl } from '../net/safe-lookup.js';
import {
  describeAbilities,
  describeEvidence,
  fileName,
  showsEvidence,
} from '../render/evidence.js';
import {
  createRenderer,
  runtimeShim,
  type RenderEvidence,
  type Renderer,
  type RenderResult,
} from '../render/index.js';
import {
  decodeBody,
  processCss,
  processHtml,
  processJs,
  processWebManifest,
  resolvesAgainstDocument,
  type ImportMap,
  type Ref,
  type RefVisitor,
  type RenderHints,
} from '../references/index.js';
import { scriptAbilities } from '../references/script-scan.js';
import { homeTitle } from '../home-title.js';
import { bytesOf, putBytes, readBlob } from '../storage/blob-utils.js';
import type {
  BlobStore,
  FailedUrl,
  FailureReason,
  Manifest,
  ManifestEntry,
  MirrorOptions,
  Phase,
  ProgressEvent,
} from '../types.js';
import { forEachLimit } from '../for-each-limit.js';
import { FailureLog } from './failure-log.js';
import { createEtaEstimator } from './eta.js';
import { plainReason } from './plain-reasons.js';
import { createUrlMapper, type UrlMapper } from '../url-map.js';
import { Lanes, type Lane } from './lanes.js';
import { ALLOW_ALL, parseRobots, type Robots } from './robots.js';
import { createScope } from './scope.js';
import { parseSitemap } from './sitemap.js';
import { createShapeBudget, trapReason } from './traps.js';

/** Where the copy keeps the site's answer for unknown addresses (see `Manifest.fallback`). */
export const FALLBACK_PATH = '/_x/~fallback.html';

export const DEFAULTS = {
  maxPages: 5_000,
  maxBytes: 2 * 1024 ** 3,
  maxFileBytes: 100 * 1024 ** 2,
  maxTimeMs: 60 * 60 * 1000,
  pageConcurrency: 6,
  assetConcurrency: 16,
  requestTimeoutMs: 30_000,
  /** Whole requests (headers and body) take at most this long, or longer for large file limits. */
  maxRequestMs: 120_000,
  robotsTimeoutMs: 10_000,
  retries: 2,
  userAgent: 'MirrorBot/1.0 (+https://mirror.dev/bot)',
  /** Bodies parsed for references are held in memory up to this size; larger ones are stored only. */
  maxParsedBytes: 20 * 1024 ** 2,
  maxSitemapUrls: 50_000,
  /** Files (pages, assets, redirects) in one copy; bounds the manifest whatever a site links to. */
  maxFiles: 100_000,
  /** Links to pages followed from one document; the rest are counted and reported. */
  maxPageLinksPerDocument: 5_000,
  /** Assets taken from one document; the rest are counted and reported. */
  maxAssetsPerDocument: 5_000,
  /** Notes kept in the manifest. */
  maxNotes: 50,
  maxSitemapFiles: 20,
  /** Chromium pages rendered at once. */
  renderConcurrency: 2,
  /** Pages of one template tried as its sample in 'auto' mode before its pages go unrendered. */
  renderSamples: 3,
  /** A sample's render waits this long at most for the crawl to read the files it fetched too. */
  renderSettleMs: 10_000,
  /** Entries rewritten at once at the end of a run. */
  rewriters: 8,
};

interface HtmlInfo {
  hints: RenderHints;
}

const RENDER_FAILED = 'not rendered: its render failed (see the failures and notes)';

/** Pages whose scripts are alike ('auto' rendering): sampled once, they share the verdict. */
interface RenderTemplate {
  /** Digest of its key, recorded in its pages' manifest entries. */
  id: string;
  /** Why its scripts could need a render (static scan); '' when they could not. */
  could: Promise<string>;
  /** Its sample, once rendered, and whether the render showed evidence. */
  sample?: { url: string; evidence: boolean };
  /** While a page of it is being sampled. */
  sampling?: Promise<void>;
  failedSamples: number;
}

export type MirrorErrorCode =
  | 'invalid-url'
  | 'refused-address'
  | 'nothing-fetched'
  | 'aborted'
  /** The blob store could not take a file (disk full, read-only, I/O error): nothing is complete. */
  | 'storage';

/** Errors of the blob store's disk that end the run, unlike a failed download of one file. */
const STORAGE_ERROR_CODES: ReadonlySet<string> = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EIO']);

/** Why a run failed, for a person: a category, and the technical detail behind it. */
export interface MirrorFailure {
  kind: MirrorFailureKind;
  /** The address, error code and message as they came (shown behind a "Details" toggle). */
  detail: string;
}

export class MirrorError extends Error {
  readonly failure: MirrorFailure | undefined;

  constructor(
    readonly code: MirrorErrorCode,
    message: string,
    options: { cause?: unknown; failure?: MirrorFailure } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'MirrorError';
    this.failure = options.failure;
  }
}

/** A failed URL's evidence, as the Details toggle shows it: the address, then code and message. */
function failureOf(failed: FailedUrl): MirrorFailure {
  const reason = failed.code ? `${failed.code}: ${failed.detail}` : failed.detail;
  return {
    kind: classifyMirrorFailure({ ...failed, message: failed.detail }),
    detail: `${failed.url}\n${reason}`.trim(),
  };
}

type TaskKind = 'page' | 'asset';

interface Task {
  url: URL;
  depth: number;
  kind: TaskKind;
  /** A frame from another site: captured with its assets, its links not followed. */
  leaf: boolean;
  attempt: number;
}

type BodyType = 'html' | 'css' | 'manifest' | 'js' | 'other';

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

function bodyTypeOf(contentType: string, url: URL, hint: Ref['kind'] | undefined): BodyType {
  const type = mediaType(contentType);
  if (HTML_TYPES.has(type)) return 'html';
  if (type === 'text/css') return 'css';
  if (type === 'application/manifest+json' || (hint === 'manifest' && type.includes('json')))
    return 'manifest';
  if (!type && /\.css$/i.test(url.pathname)) return 'css';
  if (JS_TYPES.has(type)) return 'js';
  if (GENERIC_TYPES.has(type) && /\.[cm]?js$/i.test(url.pathname)) return 'js';
  return 'other';
}

const JS_TYPES = new Set([
  'text/javascript',
  'application/javascript',
  'application/x-javascript',
  'text/ecmascript',
  'application/ecmascript',
]);
/** Types servers send when they do not know: a `.js` path decides. */
const GENERIC_TYPES = new Set([
  '',
  'application/octet-stream',
  'binary/octet-stream',
  'text/plain',
]);
/** Where copy paths are resolved to compare them; never fetched. */
const COPY_ORIGIN = 'http://copy.invalid';
const SCRIPT_KINDS: ReadonlySet<Ref['kind']> = new Set(['script', 'module']);
const MODULE_KIND: ReadonlySet<Ref['kind']> = new Set(['module']);
/** Distinct import maps kept for resolving bare specifiers (every page usually has the same one). */
const MAX_IMPORT_MAPS = 100;

function withoutHash(url: URL): string {
  return url.hash ? url.href.slice(0, url.href.length - url.hash.length) : url.href;
}

function fragmentOf(raw: string): string {
  const i = raw.indexOf('#');
  return i === -1 ? '' : raw.slice(i);
}

function errorCode(err: unknown): string {
  return err && typeof err === 'object' && 'code' in err
    ? String((err as { code: unknown }).code)
    : '';
}

function categorize(err: unknown): FailureReason {
  switch (errorCode(err)) {
    case 'EREFUSEDADDRESS':
    case 'EBADSCHEME':
      return 'refused-address';
    case 'ETOOLARGE':
      return 'too-large';
    case 'ETIMEDOUT':
    case 'ETOOSLOW':
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
      return 'timeout';
    default:
      return 'network';
  }
}

function retryAfterMs(headers: Record<string, string>, fallback: number): number {
  const value = headers['retry-after'];
  if (!value) return fallback;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.min(seconds * 1000, 60_000);
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.min(Math.max(0, at - Date.now()), 60_000) : fallback;
}

function isBotChallenge(response: HttpResponse): boolean {
  return (
    response.headers['cf-mitigated'] === 'challenge' ||
    ((response.status === 403 || response.status === 503) &&
      (response.headers['server'] ?? '').toLowerCase().includes('cloudflare') &&
      'cf-ray' in response.headers)
  );
}

/**
 * Rendered pages keep their scripts; the shim, first in <head>, sends the URLs those scripts build
 * at run time (API calls to the original site or other hosts) to the copy's recorded responses.
 */
function withRuntimeShim(html: string, siteOrigin: string): string {
  const tag = `<script>${runtimeShim(siteOrigin)}</script>`;
  const head = /<head(\s[^>]*)?>/i.exec(html);
  if (head)
    return (
      html.slice(0, head.index + head[0].length) + tag + html.slice(head.index + head[0].length)
    );
  const htmlTag = /<html(\s[^>]*)?>/i.exec(html);
  if (htmlTag)
    return (
      html.slice(0, htmlTag.index + htmlTag[0].length) +
      tag +
      html.slice(htmlTag.index + htmlTag[0].length)
    );
  return tag + html;
}

async function collect(body: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/**
 * Reads a body into memory up to `limit` bytes. A longer one (a page that declared no length) is
 * not held: what was read and the rest of the stream go on as `rest`, to be stored unparsed.
 */
async function collectUpTo(
  body: AsyncIterable<Uint8Array>,
  limit: number,
): Promise<{ buffer: Buffer } | { rest: AsyncIterable<Uint8Array> }> {
  const iterator = body[Symbol.asyncIterator]();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const next = await iterator.next();
    if (next.done === true) return { buffer: Buffer.concat(chunks) };
    chunks.push(next.value);
    size += next.value.byteLength;
    if (size > limit) {
      return {
        rest: (async function* () {
          yield* chunks.splice(0);
          yield* { [Symbol.asyncIterator]: () => iterator };
        })(),
      };
    }
  }
}

/**
 * Mirrors a site: crawls it (static tier), stores every body in the blob store, then rewrites the
 * captured pages and stylesheets so the copy references only itself, and returns the manifest.
 */
export async function mirror(options: MirrorOptions): Promise<Manifest> {
  const started = Date.now();
  let startUrl: URL;
  try {
    startUrl = new URL(options.url);
  } catch {
    throw new MirrorError('invalid-url', `Not a valid URL: ${options.url}`, {
      failure: { kind: 'invalid-url', detail: options.url },
    });
  }
  if (startUrl.protocol !== 'http:' && startUrl.protocol !== 'https:') {
    throw new MirrorError(
      'invalid-url',
      `Only http and https addresses can be mirrored, not ${startUrl.protocol}`,
      { failure: { kind: 'invalid-url', detail: options.url } },
    );
  }
  startUrl.hash = '';

  const settings = {
    maxPages: options.maxPages ?? DEFAULTS.maxPages,
    maxBytes: options.maxBytes ?? DEFAULTS.maxBytes,
    maxFileBytes: options.maxFileBytes ?? DEFAULTS.maxFileBytes,
    maxFiles: options.maxFiles ?? DEFAULTS.maxFiles,
    deadline: started + (options.maxTimeMs ?? DEFAULTS.maxTimeMs),
    pageConcurrency: options.concurrency?.pages ?? DEFAULTS.pageConcurrency,
    assetConcurrency: options.concurrency?.assets ?? DEFAULTS.assetConcurrency,
    retries: options.retries ?? DEFAULTS.retries,
    userAgent: options.userAgent ?? DEFAULTS.userAgent,
    respectRobots: options.respectRobots ?? true,
    render: options.render ?? 'auto',
  };
  const netOptions = {
    allowPrivateNetworks: options.allowPrivateNetworks ?? false,
    ...(options.allowAddresses ? { allowAddresses: options.allowAddresses } : {}),
    ...(options.resolve ? { resolve: options.resolve } : {}),
  };

  try {
    await assertPublicUrl(startUrl, netOptions);
  } catch (err) {
    const code = errorCode(err);
    const message = err instanceof Error ? err.message : String(err);
    if (code === 'EREFUSEDADDRESS' || code === 'EBADSCHEME') {
      throw new MirrorError('refused-address', message, {
        failure: {
          kind: code === 'EBADSCHEME' ? 'invalid-url' : 'blocked-address',
          detail: message,
        },
      });
    }
    throw new MirrorError(
      'nothing-fetched',
      `Cannot reach ${startUrl.host}: ${code === 'ENOTFOUND' ? 'no such host' : 'its name could not be looked up'}.`,
      {
        failure: {
          kind: classifyMirrorFailure({ code, message }) === 'dns' ? 'dns' : 'connection',
          detail: code ? `${code}: ${message}` : message,
        },
      },
    );
  }

  const client: HttpClient = createHttpClient({
    ...netOptions,
    userAgent: settings.userAgent,
    timeoutMs: options.requestTimeoutMs ?? DEFAULTS.requestTimeoutMs,
    // Long enough for the largest file allowed at a modest 256 KB/s; drips fail sooner, on speed.
    maxRequestMs: Math.max(DEFAULTS.maxRequestMs, settings.maxFileBytes / 256),
    connectionsPerHost: Math.max(settings.pageConcurrency, settings.assetConcurrency),
  });
  const abort = new AbortController();
  // Every request in flight listens to this signal; hundreds at once are expected.
  setMaxListeners(0, abort.signal);
  const onAbort = () => abort.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(
    () => abort.abort(new Error('time limit reached')),
    Math.max(0, settings.deadline - Date.now()),
  );
  timer.unref?.();
  // A write the store refuses for lack of space (or a broken disk) stops the run: a copy missing
  // what did not fit must not look complete.
  let storageFailure: unknown = null;
  const store: BlobStore = {
    async put(body) {
      try {
        return await options.store.put(body);
      } catch (err) {
        if (storageFailure === null && STORAGE_ERROR_CODES.has(errorCode(err))) {
          storageFailure = err;
          abort.abort(err);
        }
        throw err;
      }
    },
    read: (hash) => options.store.read(hash),
    has: (hash) => options.store.has(hash),
    ...(options.store.readAll ? { readAll: options.store.readAll.bind(options.store) } : {}),
  };
  const storageError = () => {
    const reason =
      storageFailure instanceof Error ? storageFailure.message : String(storageFailure);
    return new MirrorError('storage', `The copy could not be stored: ${reason}`, {
      cause: storageFailure,
      failure: { kind: 'server-storage', detail: reason },
    });
  };

  try {
    // A start address that redirects to another host (example.com → www.example.com) makes the
    // final host the site; the copy still answers the original path with the redirect.
    const mapper = await resolveSite(
      client,
      startUrl,
      abort.signal,
      options.includeSubdomains ?? false,
    );
    const crawler = new Crawler(
      { ...options, store },
      settings,
      client,
      mapper,
      startUrl,
      abort.signal,
      started,
    );
    try {
      const manifest = await crawler.run();
      if (storageFailure !== null) throw storageError();
      return manifest;
    } catch (err) {
      throw storageFailure !== null ? storageError() : err;
    } finally {
      await crawler.close();
    }
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    await client.close();
  }
}

async function resolveSite(
  client: HttpClient,
  startUrl: URL,
  signal: AbortSignal,
  includeSubdomains: boolean,
): Promise<UrlMapper> {
  let current = startUrl;
  for (let hop = 0; hop < 10; hop++) {
    let response: HttpResponse;
    try {
      response = await client.request(current.href, {
        method: 'GET',
        signal,
        followRedirects: false,
      });
    } catch {
      break;
    }
    // Only the status and Location matter here; the body is released unread (the crawl fetches it).
    await response.discard();
    const location = response.headers['location'];
    if (response.status < 300 || response.status >= 400 || !location) break;
    let next: URL;
    try {
      next = new URL(location, current);
    } catch {
      break;
    }
    if (next.host === current.host) break;
    current = next;
  }
  return createUrlMapper(current.href, { includeSubdomains });
}

interface Settings {
  maxPages: number;
  maxBytes: number;
  maxFileBytes: number;
  maxFiles: number;
  deadline: number;
  pageConcurrency: number;
  assetConcurrency: number;
  retries: number;
  userAgent: string;
  respectRobots: boolean;
  render: 'auto' | 'always' | 'never';
}

class Crawler {
  private readonly scope;
  private readonly lanes = new Lanes<Task>();
  private readonly seen = new Set<string>();
  private readonly entries = new Map<string, ManifestEntry>();
  private readonly failures = new FailureLog();
  /** URLs that have an entry or a failure (what `whenSettled` waits for). */
  private readonly settled = new Set<string>();
  private readonly robots = new Map<string, Promise<Robots>>();
  private readonly shapes = createShapeBudget();
  private readonly previous = new Map<string, ManifestEntry>();
  private pagesStarted = 0;
  /** What the site answers for addresses it does not have, when it is worth copying. */
  private fallback: Manifest['fallback'];
  private filesStarted = 0;
  /** References beyond the per-document caps, and the documents that had them. */
  private refsDropped = 0;
  private documentsOverCap = 0;
  private bytes = 0;
  private requests = 0;
  private notModified = 0;
  private done = 0;
  private phase: Phase = 'discovering';
  private lastEmit = 0;
  private currentUrl: string | undefined;
  private currentPage: string | undefined;
  /** Tasks ever queued, by kind (a retry is the same task): the "found" of the progress counts. */
  private readonly found = { page: 0, asset: 0 };
  private readonly eta = createEtaEstimator();
  private rewritten: { done: number; total: number } | undefined;
  private wake: (() => void) | null = null;
  /** Sitemaps and the unknown-address probe, read while the crawl goes on. */
  private discovering: Promise<unknown> | null = null;
  /** Pages waiting for their render decision (their scripts, a sample) or being rendered. */
  private readonly renderDecisions = new Set<Promise<void>>();
  private readonly notes: string[] = [];
  private renderer: Renderer | null = null;
  private renderDisabled = false;
  private renderActive = 0;
  private readonly renderWaiting: (() => void)[] = [];
  /** In 'auto' mode: pages by template (`templateOf`), and what the decisions came to. */
  private readonly templates = new Map<string, RenderTemplate>();
  private readonly renderCounts = { pages: 0, evidence: 0, none: 0, inert: 0 };
  private renderExample = '';
  /** Index of the rendering note in `notes`, once there is one. */
  private renderNote = -1;
  /** Tasks waiting for a URL to be fetched or to fail (sampling reads a page's scripts). */
  private readonly settledWaiters = new Map<string, (() => void)[]>();
  private releasesWaitersOnAbort = false;
  /** Script URL → why it could need a render ('' when it could not). */
  private readonly scriptVerdicts = new Map<string, Promise<string>>();
  /** What each fetched script could do (`scriptAbilities`), scanned when it was parsed. */
  private readonly scriptScans = new Map<string, ReturnType<typeof scriptAbilities>>();
  private rendered = 0;

  constructor(
    private readonly options: MirrorOptions,
    private readonly settings: Settings,
    private readonly client: HttpClient,
    private readonly mapper: UrlMapper,
    private readonly startUrl: URL,
    private readonly signal: AbortSignal,
    private readonly started: number,
  ) {
    this.scope = createScope({
      mapper,
      ...(options.include ? { include: options.include } : {}),
      ...(options.exclude ? { exclude: options.exclude } : {}),
      ...(options.maxDepth !== undefined ? { maxDepth: options.maxDepth } : {}),
    });
    for (const entry of options.previous?.entries ?? []) this.previous.set(entry.url, entry);
  }

  async run(): Promise<Manifest> {
    this.emit('discovering', true);
    this.enqueue(this.startUrl, 0, 'page', false);
    // Side requests run beside the crawl: a slow server must not make every page wait for them.
    this.discovering = Promise.all([this.discoverSitemaps(), this.probeFallback()]).finally(() => {
      this.discovering = null;
      this.wake?.();
    });
    this.currentUrl = this.startUrl.href;
    this.currentPage = this.startUrl.href;
    this.emit('fetching', true);
    // While one slow file holds everything up, the estimate still moves on with the clock.
    const heartbeat = this.options.onProgress ? setInterval(() => this.emit(), 1_000) : undefined;
    heartbeat?.unref?.();
    try {
      await this.drainQueue();
      await this.discovering;
    } finally {
      clearInterval(heartbeat);
    }
    if (this.options.signal?.aborted) throw new MirrorError('aborted', 'The mirror was cancelled.');
    this.markUnfetched();

    if (![...this.entries.values()].some((e) => e.status < 400 && e.path !== FALLBACK_PATH)) {
      const first = this.failures.first;
      throw new MirrorError(
        'nothing-fetched',
        first
          ? `Nothing could be fetched from ${this.startUrl.href}: ${plainReason(first)}.`
          : `Nothing could be fetched from ${this.startUrl.href}.`,
        first ? { failure: failureOf(first) } : {},
      );
    }

    this.emit('rewriting', true);
    await this.rewriteAll();
    this.emit('finalizing', true);
    const entries = [...this.entries.values()].sort((a, b) =>
      a.path < b.path ? -1 : a.path > b.path ? 1 : 0,
    );
    const entryPath = this.mapper.toCopyPath(this.startUrl);
    const title = await homeTitle({ entries, entryPath }, this.options.store);
    const manifest: Manifest = {
      version: 1,
      startUrl: this.startUrl.href,
      entryPath,
      ...(title ? { title } : {}),
      createdAt: new Date().toISOString(),
      entries,
      failures: this.failures.sample(),
      failureCounts: this.failures.byReason(),
      ...(this.fallback ? { fallback: this.fallback } : {}),
      notes: this.finalNotes(),
      stats: {
        pages: entries.filter(
          (e) => e.kind === 'page' && e.status < 300 && e.path !== FALLBACK_PATH,
        ).length,
        assets: entries.filter((e) => e.kind === 'asset' && e.status < 300).length,
        bytes: this.bytes,
        requests: this.requests,
        notModified: this.notModified,
        rendered: this.rendered,
        durationMs: Date.now() - this.started,
      },
    };
    this.emit('done', true);
    return manifest;
  }

  private note(text: string): void {
    if (this.notes.length < DEFAULTS.maxNotes) this.notes.push(text);
  }

  private finalNotes(): string[] {
    if (this.refsDropped === 0) return this.notes;
    const documents = this.documentsOverCap === 1 ? '1 page' : `${this.documentsOverCap} pages`;
    return [
      ...this.notes,
      `${documents} had more than ${DEFAULTS.maxPageLinksPerDocument.toLocaleString('en-US')} links or assets; ${this.refsDropped.toLocaleString('en-US')} of them were not followed.`,
    ];
  }

  // ---- queue -------------------------------------------------------------------------------

  private enqueue(url: URL, depth: number, kind: TaskKind, leaf: boolean): void {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return;
    const key = withoutHash(url);
    if (this.seen.has(key)) return;
    this.seen.add(key);
    const clean = new URL(key);
    const trap = trapReason(clean);
    if (trap) return void this.fail(key, 'trap', trap);
    if (kind === 'page' && !this.shapes.take(clean))
      return void this.fail(key, 'trap', 'too many URLs of the same pattern');
    // Past a limit nothing more can start: counting the URL now keeps the queue from growing.
    if (kind === 'page' && this.pagesStarted >= this.settings.maxPages)
      return void this.fail(key, 'limit', `page limit of ${this.settings.maxPages} reached`);
    if (this.filesStarted >= this.settings.maxFiles)
      return void this.fail(key, 'limit', `file limit of ${this.settings.maxFiles} reached`);
    const lane = this.lanes.lane(
      `${clean.host}|${kind}`,
      kind === 'page' ? this.settings.pageConcurrency : this.settings.assetConcurrency,
    );
    lane.queue.push({ url: clean, depth, kind, leaf, attempt: 0 });
    this.found[kind]++;
    this.wake?.();
  }

  private async drainQueue(): Promise<void> {
    const running = new Set<Promise<void>>();
    for (;;) {
      if (this.signal.aborted) break;
      const now = Date.now();
      let nextWake = Infinity;
      for (const lane of this.lanes.all()) {
        while (lane.queue.length > 0 && lane.active < lane.limit) {
          if (lane.notBefore > now) {
            nextWake = Math.min(nextWake, lane.notBefore);
            break;
          }
          const task = lane.queue.shift()!;
          if (!this.admit(task)) continue;
          lane.active++;
          if (lane.spacingMs > 0) lane.notBefore = now + lane.spacingMs;
          const job = this.runTask(task, lane).finally(() => {
            lane.active--;
            running.delete(job);
            this.wake?.();
          });
          running.add(job);
        }
      }
      // Done when nothing runs, waits or may still be found (sitemaps are read meanwhile).
      if (
        running.size === 0 &&
        nextWake === Infinity &&
        this.discovering === null &&
        this.renderDecisions.size === 0
      )
        break;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        if (nextWake !== Infinity) setTimeout(resolve, Math.max(1, nextWake - Date.now()));
      });
      this.wake = null;
    }
    await Promise.allSettled(running);
  }

  /** Limits checked when a task is about to start. */
  private admit(task: Task): boolean {
    if (this.bytes >= this.settings.maxBytes) {
      this.fail(task.url.href, 'limit', `byte limit of ${this.settings.maxBytes} reached`);
      return false;
    }
    if (task.attempt > 0) return true;
    if (task.kind === 'page') {
      if (this.pagesStarted >= this.settings.maxPages) {
        this.fail(task.url.href, 'limit', `page limit of ${this.settings.maxPages} reached`);
        return false;
      }
      this.pagesStarted++;
    }
    if (this.filesStarted >= this.settings.maxFiles) {
      this.fail(task.url.href, 'limit', `file limit of ${this.settings.maxFiles} reached`);
      return false;
    }
    this.filesStarted++;
    return true;
  }

  private markUnfetched(): void {
    for (const lane of this.lanes.all()) {
      for (const task of lane.queue.clear())
        this.fail(task.url.href, 'limit', 'time limit reached');
    }
  }

  private fail(
    url: string,
    reason: FailureReason,
    detail: string,
    status?: number,
    code?: string,
  ): void {
    this.failures.add({
      url,
      reason,
      detail,
      ...(status !== undefined ? { status } : {}),
      ...(code ? { code } : {}),
    });
    this.settled.add(url);
    this.settle(url);
    this.emit();
  }

  private settle(url: string): void {
    const waiters = this.settledWaiters.get(url);
    if (!waiters) return;
    this.settledWaiters.delete(url);
    for (const wake of waiters) wake();
  }

  /** Resolves once `url` has an entry or a failure; at once when it was never queued. */
  private settleAll(): void {
    for (const url of [...this.settledWaiters.keys()]) this.settle(url);
  }

  private whenSettled(url: string): Promise<void> {
    if (this.signal.aborted || this.settled.has(url) || !this.seen.has(url))
      return Promise.resolve();
    if (!this.releasesWaitersOnAbort) {
      // A cancelled run fetches nothing more: whoever waits for a file goes on without it.
      this.releasesWaitersOnAbort = true;
      this.signal.addEventListener('abort', () => this.settleAll(), { once: true });
    }
    return new Promise((resolve) => {
      const waiters = this.settledWaiters.get(url) ?? [];
      waiters.push(resolve);
      this.settledWaiters.set(url, waiters);
    });
  }

  // ---- the answer for addresses the site does not have -------------------------------------

  /**
   * Asks the site for an address it cannot have, to copy what it does there: an app that routes
   * on the client answers every path with its shell (200), so deep links such as /products/42
   * work; another site answers with its own 404 page. The answer joins the copy (its assets are
   * crawled, its links are not), and the sites host and the export give it for unknown paths.
   */
  private async probeFallback(): Promise<void> {
    const probe = new URL(
      `/mirror-probe-${Math.random().toString(36).slice(2, 10)}`,
      this.startUrl,
    );
    if (!(await this.robotsFor(probe)).isAllowed(probe.href)) return;
    let response: HttpResponse;
    try {
      this.requests++;
      response = await this.client.request(probe.href, {
        signal: this.signal,
        maxBytes: Math.min(this.settings.maxFileBytes, DEFAULTS.maxParsedBytes),
        followRedirects: false,
      });
    } catch {
      return;
    }
    const contentType = response.headers['content-type'] ?? '';
    const isPage = bodyTypeOf(contentType, probe, 'page') === 'html';
    if ((response.status !== 200 && response.status !== 404) || !isPage) {
      await response.discard();
      return;
    }
    let raw: Buffer;
    try {
      raw = await collect(response.body);
    } catch {
      return;
    }
    const stored = await putBytes(this.options.store, raw);
    this.bytes += stored.size;
    this.entries.set(probe.href, {
      path: FALLBACK_PATH,
      url: probe.href,
      kind: 'page',
      status: response.status,
      contentType,
      hash: stored.hash,
      size: stored.size,
      headers: {},
      sourceHash: stored.hash,
    });
    this.fallback = { path: FALLBACK_PATH, status: response.status };
    this.discover(
      { url: probe, depth: 1, kind: 'page', leaf: true, attempt: 0 },
      contentType,
      raw,
      probe.href,
    );
  }

  // ---- robots and sitemaps -----------------------------------------------------------------

  private robotsFor(url: URL): Promise<Robots> {
    const origin = url.origin;
    let robots = this.robots.get(origin);
    if (!robots) {
      robots = this.fetchRobots(origin);
      this.robots.set(origin, robots);
    }
    return robots;
  }

  private async fetchRobots(origin: string): Promise<Robots> {
    const robotsUrl = `${origin}/robots.txt`;
    try {
      const response = await this.client.request(robotsUrl, {
        method: 'GET',
        signal: this.signal,
        maxBytes: 512 * 1024,
        // Every page of the origin waits for its robots.txt: a server that does not answer it
        // is taken as having none, soon.
        maxRequestMs: DEFAULTS.robotsTimeoutMs,
      });
      this.requests++;
      const text = (await collect(response.body)).toString('utf8');
      if (response.status >= 400) return ALLOW_ALL;
      const robots = parseRobots(robotsUrl, text, this.settings.userAgent);
      return this.settings.respectRobots ? robots : { ...ALLOW_ALL, sitemaps: robots.sitemaps };
    } catch {
      return ALLOW_ALL;
    }
  }

  private async discoverSitemaps(): Promise<void> {
    const robots = await this.robotsFor(this.startUrl);
    const queue = [...new Set([...robots.sitemaps, `${this.startUrl.origin}/sitemap.xml`])];
    let files = 0;
    let found = 0;
    // More pages than the run may copy would only be counted as over the limit.
    const wanted = Math.min(DEFAULTS.maxSitemapUrls, this.settings.maxPages);
    while (queue.length > 0 && files < DEFAULTS.maxSitemapFiles && found < wanted) {
      const next = queue.shift()!;
      files++;
      let sitemapUrl: URL;
      try {
        sitemapUrl = new URL(next);
      } catch {
        continue;
      }
      if (!this.mapper.isOwn(sitemapUrl)) continue;
      try {
        const response = await this.client.request(sitemapUrl.href, {
          method: 'GET',
          signal: this.signal,
          maxBytes: 50 * 1024 ** 2,
        });
        this.requests++;
        if (response.status >= 400) {
          await response.discard();
          continue;
        }
        const sitemap = parseSitemap(await collect(response.body));
        for (const location of sitemap.locations) {
          if (found >= wanted) break;
          if (sitemap.kind === 'index') {
            if (queue.length < DEFAULTS.maxSitemapFiles) queue.push(location);
          } else {
            try {
              const url = new URL(location);
              if (this.scope.pageRefusal(url, 1) === null) {
                this.enqueue(url, 1, 'page', false);
                found++;
              }
            } catch {
              // not a URL: skip
            }
          }
        }
      } catch {
        // no sitemap: links alone will do
      }
    }
  }

  // ---- fetching ----------------------------------------------------------------------------

  private async runTask(task: Task, lane: Lane<Task>): Promise<void> {
    const href = task.url.href;
    this.currentUrl = href;
    if (task.kind === 'page') this.currentPage = href;
    this.emit();
    if (this.mapper.isOwn(task.url)) {
      const robots = await this.robotsFor(task.url);
      if (!robots.isAllowed(href))
        return void this.fail(href, 'robots', 'disallowed by robots.txt');
      lane.spacingMs = robots.crawlDelayMs;
    }
    const previous = this.previous.get(href);
    const headers: Record<string, string> = {};
    if (previous?.sourceHash && (await this.options.store.has(previous.sourceHash))) {
      if (previous.etag) headers['if-none-match'] = previous.etag;
      if (previous.lastModified) headers['if-modified-since'] = previous.lastModified;
    }

    let response: HttpResponse;
    try {
      this.requests++;
      response = await this.client.request(href, {
        method: 'GET',
        headers,
        signal: this.signal,
        maxBytes: this.settings.maxFileBytes,
        followRedirects: false,
      });
    } catch (err) {
      if (this.signal.aborted)
        return void this.fail(href, 'limit', 'stopped before this file was fetched');
      const reason = categorize(err);
      // A timeout is tried once more (a server that did not answer in 30 s rarely will); a
      // server too slow to send within a request's time is no faster the next time.
      const tries =
        reason === 'timeout' ? Math.min(1, this.settings.retries) : this.settings.retries;
      const retriable =
        (reason === 'timeout' || reason === 'network') && errorCode(err) !== 'ETOOSLOW';
      if (retriable && task.attempt < tries) {
        return this.retry(task, lane, 0);
      }
      return void this.fail(
        href,
        reason,
        err instanceof Error ? err.message : String(err),
        undefined,
        errorCode(err) || undefined,
      );
    }

    try {
      await this.handleResponse(task, lane, response, previous);
    } catch (err) {
      await response.discard();
      const reason = categorize(err);
      if (reason === 'network' && task.attempt < this.settings.retries && !this.signal.aborted)
        return this.retry(task, lane, 0);
      this.fail(
        href,
        reason,
        err instanceof Error ? err.message : String(err),
        undefined,
        errorCode(err) || undefined,
      );
    }
  }

  private retry(task: Task, lane: Lane<Task>, waitMs: number): void {
    const backoff = waitMs || 250 * 2 ** task.attempt * (0.5 + Math.random());
    lane.notBefore = Math.max(lane.notBefore, Date.now() + backoff);
    lane.queue.unshift({ ...task, attempt: task.attempt + 1 });
  }

  private async handleResponse(
    task: Task,
    lane: Lane<Task>,
    response: HttpResponse,
    previous: ManifestEntry | undefined,
  ): Promise<void> {
    const href = task.url.href;
    const { status, headers } = response;

    if (status === 429 || status === 503) {
      await response.discard();
      if (isBotChallenge(response))
        return void this.fail(
          href,
          'bot-challenge',
          'the site answered with a bot challenge',
          status,
        );
      const wait = retryAfterMs(headers, 1000 * 2 ** task.attempt);
      Lanes.backOff(lane, wait, Date.now());
      if (task.attempt < this.settings.retries + 2) return this.retry(task, lane, wait);
      return void this.fail(
        href,
        'http-error',
        `HTTP ${status} after ${task.attempt + 1} tries`,
        status,
      );
    }
    if (isBotChallenge(response)) {
      await response.discard();
      return void this.fail(
        href,
        'bot-challenge',
        'the site answered with a bot challenge',
        status,
      );
    }

    if (status >= 300 && status < 400 && status !== 304) {
      await response.discard();
      const location = headers['location'];
      if (!location)
        return void this.fail(href, 'http-error', `HTTP ${status} without a Location`, status);
      let target: URL;
      try {
        target = new URL(location, task.url);
      } catch {
        return void this.fail(href, 'invalid', `HTTP ${status} to an invalid Location`, status);
      }
      this.record(task, {
        status,
        contentType: '',
        hash: '',
        size: 0,
        headers: { location: target.href },
      });
      Lanes.succeed(lane);
      if (this.mapper.isOwn(target) || task.kind === 'asset' || task.leaf)
        this.enqueue(target, task.depth, task.kind, task.leaf);
      return;
    }

    if (status === 304 && previous?.sourceHash) {
      await response.discard();
      this.notModified++;
      const raw = await readBlob(this.options.store, previous.sourceHash);
      const sourceType = previous.sourceContentType ?? previous.contentType;
      this.record(task, {
        status: previous.status,
        contentType: sourceType,
        hash: previous.sourceHash,
        size: raw.length,
        headers: previous.headers,
        ...(previous.etag ? { etag: previous.etag } : {}),
        ...(previous.lastModified ? { lastModified: previous.lastModified } : {}),
      });
      this.discover(task, sourceType, raw, previous.url);
      if (previous.rendered) this.entries.get(href)!.rendered = true;
      Lanes.succeed(lane);
      return;
    }

    if (status >= 400) {
      await response.discard();
      return void this.fail(href, 'http-error', `HTTP ${status}`, status);
    }

    const contentType = headers['content-type'] ?? '';
    const type = bodyTypeOf(contentType, task.url, task.kind === 'page' ? 'page' : undefined);
    const declared = Number(headers['content-length'] ?? NaN);
    const parse = type !== 'other' && !(declared > DEFAULTS.maxParsedBytes);
    let stored: { hash: string; size: number };
    let raw: Buffer | undefined;
    const held = parse ? await collectUpTo(response.body, DEFAULTS.maxParsedBytes) : undefined;
    if (held && 'buffer' in held) {
      raw = held.buffer;
      stored = await putBytes(this.options.store, raw);
    } else {
      stored = await this.options.store.put(held?.rest ?? response.body);
    }
    this.bytes += stored.size;
    const kept: Record<string, string> = {};
    for (const name of ['content-language', 'content-disposition', 'access-control-allow-origin']) {
      if (headers[name]) kept[name] = headers[name]!;
    }
    this.record(task, {
      status,
      contentType: contentType || 'application/octet-stream',
      hash: stored.hash,
      size: stored.size,
      headers: kept,
      ...(headers['etag'] ? { etag: headers['etag'] } : {}),
      ...(headers['last-modified'] ? { lastModified: headers['last-modified'] } : {}),
    });
    Lanes.succeed(lane);
    if (raw) {
      const info = this.discover(task, contentType, raw, href);
      if (info && task.kind === 'page' && !task.leaf) this.deciding(this.maybeRender(task, info));
    }
  }

  private record(
    task: Task,
    fields: Pick<ManifestEntry, 'status' | 'contentType' | 'hash' | 'size' | 'headers'> &
      Partial<Pick<ManifestEntry, 'etag' | 'lastModified'>>,
  ): void {
    const url = task.url;
    const isPage =
      task.kind === 'page' &&
      (fields.status >= 300 || HTML_TYPES.has(mediaType(fields.contentType)));
    this.entries.set(url.href, {
      path: this.mapper.toCopyPath(url),
      url: url.href,
      kind: isPage ? 'page' : 'asset',
      ...fields,
      ...(fields.hash ? { sourceHash: fields.hash } : {}),
    });
    this.settled.add(url.href);
    this.settle(url.href);
    this.done++;
    this.emit();
  }

  // ---- discovery ---------------------------------------------------------------------------

  /**
   * Every import map seen on the site: a module is resolved under each of them, since the crawl
   * does not know which pages load it. A page's map is read before the modules it loads.
   */
  private readonly importMaps: ImportMap[] = [];
  private readonly importMapKeys = new Set<string>();
  /** Script URL → the page that loads it (workers and worklets resolve against the page). */
  private readonly scriptPages = new Map<string, string>();

  private rememberImportMap(map: ImportMap): void {
    const key = JSON.stringify(map);
    if (this.importMapKeys.has(key) || this.importMaps.length >= MAX_IMPORT_MAPS) return;
    this.importMapKeys.add(key);
    this.importMaps.push(map);
  }

  private rememberPage(refs: Ref[], kinds: ReadonlySet<Ref['kind']>, page: string): void {
    for (const ref of refs)
      if (kinds.has(ref.kind) && !this.scriptPages.has(ref.url))
        this.scriptPages.set(ref.url, page);
  }

  /** Queues what a body references; for a page, also returns what its scripts hint at. */
  private discover(
    task: Task,
    contentType: string,
    raw: Buffer,
    documentUrl: string,
  ): HtmlInfo | undefined {
    const type = bodyTypeOf(contentType, task.url, undefined);
    const collectRefs: RefVisitor = () => undefined;
    let refs: Ref[] = [];
    let info: HtmlInfo | undefined;
    try {
      if (type === 'html') {
        const { text } = decodeBody(raw, contentType, 'html');
        const result = processHtml(text, documentUrl, collectRefs);
        refs = result.refs;
        info = { hints: result.renderHints };
        for (const map of result.importMaps) this.rememberImportMap(map);
        const base = refs.find((r) => r.context === 'base')?.url ?? documentUrl;
        this.rememberPage(refs, SCRIPT_KINDS, base);
      } else if (type === 'css') {
        const { text } = decodeBody(raw, contentType, 'css');
        refs = processCss(text, documentUrl, collectRefs).refs;
      } else if (type === 'js') {
        const { text } = decodeBody(raw, contentType, 'js');
        const page = this.scriptPages.get(documentUrl);
        refs = processJs(text, documentUrl, collectRefs, {
          documentUrl: page ?? documentUrl,
          importMaps: this.importMaps,
        }).refs;
        // Imported modules run for the same page; a worker is a page of its own.
        if (page) this.rememberPage(refs, MODULE_KIND, page);
        // Scanned now, while the text is in memory: a render decision would read it back.
        if (this.settings.render === 'auto')
          this.scriptScans.set(task.url.href, scriptAbilities(text));
      } else if (type === 'manifest') {
        refs = processWebManifest(raw.toString('utf8'), documentUrl, collectRefs).refs;
      }
    } catch {
      return;
    }
    // A document can hold hundreds of thousands of references; past the caps they are counted.
    let pages = 0;
    let assets = 0;
    let dropped = 0;
    for (const ref of refs) {
      let url: URL;
      try {
        url = new URL(ref.url);
      } catch {
        continue;
      }
      // An import map's prefix (`"ui/": "/vendor/ui/"`) is no file.
      if (ref.context === 'script[type=importmap]' && ref.raw.endsWith('/')) continue;
      const isPage = ref.kind === 'page' || ref.kind === 'frame';
      if (
        isPage ? pages >= DEFAULTS.maxPageLinksPerDocument : assets >= DEFAULTS.maxAssetsPerDocument
      ) {
        dropped++;
        continue;
      }
      if (ref.kind === 'page') {
        if (task.leaf || task.kind !== 'page') continue;
        if (this.scope.pageRefusal(url, task.depth + 1) === null) {
          pages++;
          this.enqueue(url, task.depth + 1, 'page', false);
        }
      } else if (ref.kind === 'frame') {
        const own = this.mapper.isOwn(url);
        if (own && this.scope.pageRefusal(url, task.depth + 1) !== null) continue;
        pages++;
        this.enqueue(url, task.depth + 1, 'page', !own || task.leaf);
      } else if (this.scope.assetRefusal(url) === null) {
        assets++;
        this.enqueue(url, task.depth, 'asset', false);
      }
    }
    if (dropped > 0) {
      this.refsDropped += dropped;
      this.documentsOverCap++;
    }
    return info;
  }

  // ---- rendering ---------------------------------------------------------------------------

  /**
   * 'always' renders every page. 'auto' renders on evidence, per template (`templateOf`): when the
   * static scan says a template's scripts could request files, change what a visitor sees or route
   * on the client, its first page is rendered as a sample; a sample that found new requests or
   * content joins the copy and every page of its template is rendered, else no other page is.
   */
  /**
   * A page's render decision goes on outside its fetch slot: a page whose template waits for its
   * scripts to be fetched (or for a sample render) must not keep the next pages from being fetched.
   */
  private deciding(decision: Promise<void>): void {
    const tracked = decision
      .catch((err: unknown) => {
        this.note(`A render decision failed: ${err instanceof Error ? err.message : String(err)}`);
      })
      .finally(() => {
        this.renderDecisions.delete(tracked);
        this.wake?.();
      });
    this.renderDecisions.add(tracked);
  }

  private async maybeRender(task: Task, info: HtmlInfo): Promise<void> {
    const mode = this.settings.render;
    if (mode === 'never' || this.renderDisabled) return;
    const url = task.url.href;
    if (mode === 'always') {
      // A cancelled run starts no more renders (one under way ends within its time limit).
      if (this.signal.aborted) return;
      const result = await this.render(url);
      if (!result) return this.decided(url, undefined, RENDER_FAILED);
      this.decided(url, undefined, "rendered: render mode 'always'", result.evidence.clientRouting);
      return this.adoptRender(task, result);
    }
    const { hints } = info;
    if (hints.scriptCount === 0 && !hints.emptyAppRoot && !hints.noscriptAsksForJs) return;
    const template = this.templateOf(hints);
    this.renderCounts.pages++;
    const could = await template.could;
    if (!could)
      return this.decided(
        url,
        template,
        'not rendered: no script could request files, change what a visitor sees or route on the client (static scan)',
      );
    while (template.sample === undefined) {
      if (this.signal.aborted || this.renderDisabled) return;
      if (template.failedSamples >= DEFAULTS.renderSamples)
        return this.decided(
          url,
          template,
          `not rendered: rendering failed on ${template.failedSamples} pages of its template`,
        );
      // Pages of a template being sampled wait for its verdict; a failed sample passes the turn on.
      const pending = template.sampling;
      if (pending) {
        await pending;
        if (template.sampling === pending) template.sampling = undefined;
        continue;
      }
      template.sampling = this.sample(task, template, could);
      return template.sampling;
    }
    const sample = this.mapper.toCopyPath(new URL(template.sample.url));
    if (!template.sample.evidence)
      return this.decided(
        url,
        template,
        `not rendered: ${sample}, the sample of its template, showed no evidence`,
      );
    if (this.signal.aborted) return;
    const result = await this.render(url);
    if (!result) return this.decided(url, template, RENDER_FAILED);
    const evidence = await this.narrowed(task, result, false);
    this.decided(
      url,
      template,
      `rendered (${sample}, the sample of its template, showed evidence): ${describeEvidence(evidence)}`,
      evidence.clientRouting,
    );
    await this.adoptRender(task, result);
  }

  /** Renders a template's first page: what it shows decides for every page of the template. */
  private async sample(task: Task, template: RenderTemplate, could: string): Promise<void> {
    const url = task.url.href;
    const result = await this.render(url);
    if (!result) {
      template.failedSamples++;
      this.decided(url, template, RENDER_FAILED);
      return this.releaseUnneededRenderer();
    }
    const evidence = await this.narrowed(task, result, true);
    const shows = showsEvidence(evidence);
    template.sample = { url, evidence: shows };
    const found = describeEvidence(evidence);
    if (shows) {
      this.renderCounts.evidence++;
      this.renderExample ||= `${this.mapper.toCopyPath(task.url)} ${found}`;
    } else this.renderCounts.none++;
    this.decided(
      url,
      template,
      `${shows ? 'rendered' : 'not rendered'} (sampled for its template: ${could}): ${found}`,
      evidence.clientRouting,
    );
    if (shows) await this.adoptRender(task, result);
    else await this.releaseUnneededRenderer();
  }

  /**
   * Pages that run the same scripts share a verdict. Their template: the external script URLs
   * (sorted, without query strings, which mostly carry versions), what the inline scripts together
   * could do (so per-page data in inline scripts makes no template of its own), and whether the
   * page is an empty app shell.
   */
  private templateOf(hints: RenderHints): RenderTemplate {
    const scripts = [...new Set(hints.scriptSources.map((src) => src.split('?')[0]!))].sort();
    const shell = hints.emptyAppRoot || hints.noscriptAsksForJs;
    const key = JSON.stringify([scripts, hints.inlineScriptAbilities, shell]);
    let template = this.templates.get(key);
    if (!template) {
      template = {
        id: createHash('sha256').update(key).digest('hex').slice(0, 12),
        could: this.scriptsMayBuild(hints).then((why) => {
          if (!why) this.renderCounts.inert++;
          return why;
        }),
        failedSamples: 0,
      };
      this.templates.set(key, template);
    }
    return template;
  }

  /**
   * Why the page's scripts could need a render, '' when none could (`scriptAbilities`). External
   * scripts are read from the store once fetched (the first page of a template waits for them); one
   * the copy does not hold (refused, failed, too large) counts as able.
   */
  private async scriptsMayBuild(hints: RenderHints): Promise<string> {
    if (hints.emptyAppRoot) return 'its app root is empty';
    if (hints.noscriptAsksForJs) return 'its noscript asks for JavaScript';
    if (hints.inlineScriptAbilities.length > 0)
      return `inline scripts could ${describeAbilities(hints.inlineScriptAbilities)}`;
    for (const src of hints.scriptSources) {
      let verdict = this.scriptVerdicts.get(src);
      if (!verdict) {
        verdict = this.scriptMayBuild(src, 0);
        this.scriptVerdicts.set(src, verdict);
      }
      const why = await verdict;
      if (why) return why;
    }
    return '';
  }

  private async scriptMayBuild(src: string, redirects: number): Promise<string> {
    await this.whenSettled(src);
    const entry = this.entries.get(src);
    const unread = `${fileName(src)} could not be read`;
    if (!entry || !entry.sourceHash) {
      // A script the crawl could not fetch cannot run in a render either (the render is answered
      // from the crawl, and an origin that failed once fails a render too): no sample is spent on
      // it. Otherwise a site whose scripts all fail (an origin that went away mid-run) would
      // start Chromium once per template.
      const location = entry?.headers['location'];
      return location && redirects < 5 ? this.scriptMayBuild(location, redirects + 1) : '';
    }
    if (entry.size > DEFAULTS.maxParsedBytes) return unread;
    try {
      const abilities =
        this.scriptScans.get(entry.url) ??
        scriptAbilities((await readBlob(this.options.store, entry.sourceHash)).toString('utf8'));
      return abilities.length > 0 ? `${fileName(src)} could ${describeAbilities(abilities)}` : '';
    } catch {
      return unread;
    }
  }

  /**
   * The render's evidence less what the static tier finds on its own: files it has queued, files
   * that a style sheet, module or frame it has queued refers to (with `settle`, it waits up to
   * `renderSettleMs` for those to be fetched and read), and links it follows already.
   */
  private async narrowed(
    task: Task,
    result: RenderResult,
    settle: boolean,
  ): Promise<RenderEvidence> {
    // Chromium writes URLs as the crawl does; parsing again guards the rare difference.
    const key = (url: string) => withoutHash(new URL(url));
    const until = Date.now() + DEFAULTS.renderSettleMs;
    while (settle && !this.signal.aborted && Date.now() < until) {
      const reading = result.responses
        .map((r) => ({ url: key(r.url), type: r.headers['content-type'] ?? '' }))
        .filter(
          ({ url, type }) =>
            this.seen.has(url) &&
            !this.settled.has(url) &&
            bodyTypeOf(type, new URL(url), undefined) !== 'other',
        )
        .map(({ url }) => this.whenSettled(url));
      if (reading.length === 0) break;
      await Promise.race([
        Promise.all(reading),
        new Promise<void>((resolve) => setTimeout(resolve, until - Date.now()).unref()),
      ]);
    }
    const { evidence } = result;
    return {
      ...evidence,
      newRequests: evidence.newRequests.filter((url) => !this.seen.has(key(url))),
      addedLinks: evidence.addedLinks.filter(
        (link) =>
          !this.seen.has(key(link)) &&
          this.scope.pageRefusal(new URL(link), task.depth + 1) === null,
      ),
    };
  }

  /** Records why a page was or was not rendered, in its entry and in the rendering note. */
  private decided(
    url: string,
    template: RenderTemplate | undefined,
    reason: string,
    clientRouted = false,
  ): void {
    const entry = this.entries.get(url);
    if (entry) {
      entry.renderReason = reason;
      if (template) entry.renderTemplate = template.id;
      if (clientRouted) entry.clientRouted = true;
    }
    this.noteRendering();
  }

  /** One note says what 'auto' rendering did, kept current as pages are decided. */
  private noteRendering(): void {
    if (this.settings.render !== 'auto' || this.renderCounts.pages === 0) return;
    const { pages, evidence, none, inert } = this.renderCounts;
    const templates = this.templates.size;
    const text =
      `Rendered ${this.rendered} of ${pages} pages with scripts; ` +
      `${templates} template${templates === 1 ? '' : 's'}: ${evidence} showed evidence, ` +
      `${none} showed none, ${inert} cannot need a render (static scan)` +
      (this.renderExample ? `; e.g. ${this.renderExample}.` : '.');
    if (this.renderNote >= 0) this.notes[this.renderNote] = text;
    else if (this.notes.length < DEFAULTS.maxNotes) this.renderNote = this.notes.push(text) - 1;
  }

  private async render(url: string): Promise<RenderResult | undefined> {
    while (this.renderActive >= DEFAULTS.renderConcurrency) {
      await new Promise<void>((resolve) => this.renderWaiting.push(resolve));
    }
    this.renderActive++;
    this.emit('rendering', true);
    try {
      this.renderer ??= createRenderer({
        ...(this.options.chromiumPath ? { chromiumPath: this.options.chromiumPath } : {}),
        timeoutMs: Math.min(this.options.requestTimeoutMs ?? DEFAULTS.requestTimeoutMs, 30_000),
        client: this.client,
        captured: async (target) => {
          const entry = this.entries.get(target);
          if (!entry?.sourceHash || entry.status >= 300) return undefined;
          return {
            status: entry.status,
            headers: { 'content-type': entry.sourceContentType ?? entry.contentType },
            body: await readBlob(this.options.store, entry.sourceHash),
          };
        },
      });
      return await this.renderer.render(url);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (/executable|launch|browserType/i.test(message)) {
        this.renderDisabled = true;
        this.notes.push(
          `Rendering is unavailable (${message.split('\n')[0]}); pages were captured without running their scripts.`,
        );
      } else {
        this.fail(url, 'network', `rendering failed: ${message.split('\n')[0]}`);
      }
      return undefined;
    } finally {
      this.renderActive--;
      this.renderWaiting.shift()?.();
      this.emit('fetching');
    }
  }

  /**
   * Chromium's memory (~350 MB) goes back while no render is under way and no template has shown
   * evidence ('auto' mode); a later template's sample launches it again.
   */
  private async releaseUnneededRenderer(): Promise<void> {
    if (this.settings.render !== 'auto' || this.renderCounts.evidence > 0) return;
    if (this.renderActive > 0 || !this.renderer) return;
    const renderer = this.renderer;
    this.renderer = null;
    await renderer.close();
  }

  /** The rendered DOM becomes the page; every response the page made joins the copy. */
  private async adoptRender(task: Task, result: RenderResult): Promise<void> {
    const entry = this.entries.get(task.url.href);
    if (!entry) return;
    const stored = await putBytes(this.options.store, result.html);
    entry.sourceHash = stored.hash;
    entry.hash = stored.hash;
    entry.size = stored.size;
    entry.contentType = 'text/html; charset=utf-8';
    delete entry.sourceContentType;
    entry.rendered = true;
    this.rendered++;
    this.noteRendering();
    for (const response of result.responses) {
      if (response.method !== 'GET' || response.status < 200 || response.status >= 300) continue;
      let url: URL;
      try {
        url = new URL(response.url);
      } catch {
        continue;
      }
      url.hash = '';
      if (this.entries.has(url.href) || (url.protocol !== 'http:' && url.protocol !== 'https:'))
        continue;
      this.seen.add(url.href);
      const body = await putBytes(this.options.store, response.body);
      this.bytes += body.size;
      const contentType = response.headers['content-type'] ?? 'application/octet-stream';
      this.settled.add(url.href);
      this.entries.set(url.href, {
        path: this.mapper.toCopyPath(url),
        url: url.href,
        kind: 'asset',
        status: response.status,
        contentType,
        hash: body.hash,
        size: body.size,
        headers: {},
        sourceHash: body.hash,
      });
      this.done++;
      const asset: Task = { url, depth: task.depth, kind: 'asset', leaf: false, attempt: 0 };
      if (bodyTypeOf(contentType, url, undefined) === 'css')
        this.discover(asset, contentType, response.body, url.href);
    }
    // Links that exist only once the scripts have run.
    this.discover(task, entry.contentType, Buffer.from(result.html), result.finalUrl);
  }

  async close(): Promise<void> {
    await this.renderer?.close();
  }

  // ---- rewriting ---------------------------------------------------------------------------

  private async rewriteAll(): Promise<void> {
    const entries = [...this.entries.values()];
    let finished = 0;
    // Reading and storing overlap with parsing when a few entries are in flight.
    await forEachLimit(entries, DEFAULTS.rewriters, async (entry) => {
      await this.rewriteEntry(entry);
      if (++finished % 20 === 0) this.emitRewrite(finished, entries.length);
    });
  }

  private async rewriteEntry(entry: ManifestEntry): Promise<void> {
    if (entry.status >= 300 && entry.status < 400) {
      entry.headers = {
        ...entry.headers,
        location: this.locationInCopy(entry.headers['location']!),
      };
      return;
    }
    const type = bodyTypeOf(entry.contentType, new URL(entry.url), undefined);
    if (type === 'other' || !entry.sourceHash) return;
    const raw = await readBlob(this.options.store, entry.sourceHash);
    if (raw.length > DEFAULTS.maxParsedBytes) return;
    const visit = this.rewriteVisitor();
    let output: string;
    if (type === 'html') {
      const { text, charset } = decodeBody(raw, entry.contentType, 'html');
      const utf8 = charset.toLowerCase() === 'utf-8';
      output = processHtml(text, entry.url, visit, { forceUtf8: !utf8 }).html;
      if (entry.rendered) output = withRuntimeShim(output, this.siteOrigin());
      if (!utf8) this.transcoded(entry, 'text/html; charset=utf-8');
    } else if (type === 'css') {
      const { text, charset } = decodeBody(raw, entry.contentType, 'css');
      output = processCss(text, entry.url, visit).css;
      if (charset.toLowerCase() !== 'utf-8') this.transcoded(entry, 'text/css; charset=utf-8');
    } else if (type === 'js') {
      const { text, charset } = decodeBody(raw, entry.contentType, 'js');
      const page = this.scriptPages.get(entry.url) ?? entry.url;
      output = processJs(text, entry.url, this.jsVisitor(entry.url, page), {
        documentUrl: page,
        importMaps: this.importMaps,
      }).code;
      // Most modules need no change (the copy keeps their paths): they stay byte for byte.
      if (output === text) return;
      if (charset.toLowerCase() !== 'utf-8')
        this.transcoded(entry, 'text/javascript; charset=utf-8');
    } else {
      output = processWebManifest(raw.toString('utf8'), entry.url, visit).json;
    }
    const stored = await this.options.store.put(bytesOf(output));
    entry.hash = stored.hash;
    entry.size = stored.size;
  }

  /**
   * The copy keeps the original paths, so a specifier that already lands on the right file there
   * (relative, or root-relative on the site) stays as written; the rest take the copy path.
   */
  private jsVisitor(scriptUrl: string, pageUrl: string): RefVisitor {
    const visit = this.rewriteVisitor();
    const inCopy = (url: string) => new URL(this.mapper.toCopyPath(new URL(url)), COPY_ORIGIN);
    const script = inCopy(scriptUrl);
    const page = inCopy(pageUrl);
    return (ref) => {
      const next = visit(ref);
      if (next === undefined) return undefined;
      const base = resolvesAgainstDocument(ref) ? page : script;
      try {
        const lands = new URL(ref.raw, base);
        const wanted = new URL(next, base);
        lands.hash = '';
        wanted.hash = '';
        return lands.href === wanted.href ? undefined : next;
      } catch {
        return next;
      }
    };
  }

  private siteOrigin(): string {
    return new URL(this.mapper.toOriginalUrl('/')).origin;
  }

  private transcoded(entry: ManifestEntry, contentType: string): void {
    entry.sourceContentType = entry.contentType;
    entry.contentType = contentType;
  }

  private emitRewrite(index: number, total: number): void {
    this.currentUrl = undefined;
    this.currentPage = undefined;
    this.rewritten = { done: index, total };
    this.emit('rewriting');
  }

  /**
   * The site's own URLs and every captured file → their path in the copy (a page of the site the
   * crawl skipped is a dead link in the copy, never a way back to the original). What the copy
   * does not hold from another host (a CDN down for a moment, a file over a limit) keeps its
   * original address and is listed in the failures: the copy degrades no worse than the original
   * page, instead of pointing at a copy path that answers 404 forever. Links to other sites stay.
   */
  private rewriteVisitor(): RefVisitor {
    return (ref) => {
      let url: URL;
      try {
        url = new URL(ref.url);
      } catch {
        return undefined;
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
      const captured = this.entries.has(withoutHash(url));
      const fragment = fragmentOf(ref.raw);
      if (!captured && !this.mapper.isOwn(url)) return ref.kind === 'page' ? undefined : url.href;
      return this.mapper.toCopyPath(url) + fragment;
    };
  }

  private locationInCopy(location: string): string {
    const url = new URL(location);
    return this.entries.has(withoutHash(url)) || this.mapper.isOwn(url)
      ? this.mapper.toCopyPath(url) + url.hash
      : url.href;
  }

  // ---- progress ----------------------------------------------------------------------------

  private emit(phase: Phase = this.phase, force = false): void {
    this.phase = phase;
    const onProgress = this.options.onProgress;
    if (!onProgress) return;
    const now = Date.now();
    if (!force && now - this.lastEmit < 100) return;
    this.lastEmit = now;
    const queued = this.lanes.queued;
    const inFlight = this.lanes.active;
    const finished = this.done + this.failures.total;
    const fetchShare = finished / Math.max(1, finished + queued + inFlight);
    const rewriteShare = this.rewritten
      ? this.rewritten.done / Math.max(1, this.rewritten.total)
      : 0;
    const progress =
      phase === 'done'
        ? 1
        : phase === 'finalizing'
          ? 0.99
          : phase === 'rewriting'
            ? 0.9 + 0.09 * rewriteShare
            : 0.9 * fetchShare;
    let estimatedTime: number | null;
    if (phase === 'done' || phase === 'finalizing') estimatedTime = 0;
    else if (phase === 'rewriting')
      estimatedTime = this.eta.update({
        at: now,
        done: this.rewritten?.done ?? 0,
        found: this.rewritten?.total ?? 0,
        stage: 'rewrite',
      });
    else
      estimatedTime = this.eta.update({
        at: now,
        done: finished,
        found: finished + queued + inFlight,
        inFlight,
        stage: 'crawl',
        deadline: this.settings.deadline,
      });
    const pagesLeft = this.lanes.pending('|page');
    const filesLeft = this.lanes.pending('|asset');
    const event: ProgressEvent = {
      phase,
      queued,
      inFlight,
      done: this.done,
      failed: this.failures.total,
      bytes: this.bytes,
      pages: { done: Math.max(0, this.found.page - pagesLeft), found: this.found.page },
      files: { done: Math.max(0, this.found.asset - filesLeft), found: this.found.asset },
      progress: Math.min(1, Math.max(0, progress)),
      estimatedTime,
      ...(this.currentUrl ? { currentUrl: this.currentUrl } : {}),
      ...(this.currentPage ? { currentPage: this.currentPage } : {}),
    };
    onProgress(event);
  }
}
