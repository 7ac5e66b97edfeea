import { setMaxListeners } from 'node:events';
import { createHttpClient, type HttpClient, type HttpResponse } from '../net/http-client.js';
import { assertPublicUrl } from '../net/safe-lookup.js';
import { homeTitle } from '../home-title.js';
import { putBytes, readBlob } from '../storage/blob-utils.js';
import type {
  BlobStore,
  FailureReason,
  Manifest,
  ManifestEntry,
  MirrorOptions,
  Phase,
} from '../types.js';
import type { UrlMapper } from '../url-map.js';
import { bodyTypeOf, isHtmlType } from './body-type.js';
import { CaptureLog, readCaptureLines } from './capture-log.js';
import {
  DEFAULTS,
  FALLBACK_PATH,
  renderConcurrencyFor,
  settingsOf,
  type Settings,
} from './defaults.js';
import { Discovery, type HtmlInfo } from './discover.js';
import { FailureLog } from './failure-log.js';
import {
  categorize,
  collectUpTo,
  errorCode,
  isBotChallenge,
  resolveSite,
  retriesRequest,
  retryAfterMs,
} from './fetch-policy.js';
import { Frontier, type Task } from './frontier.js';
import { LANE_GROWTH, Lanes, type Lane } from './lanes.js';
import { failureOf, MirrorError, startUrlError } from './mirror-error.js';
import type { PageReading } from './page-copy.js';
import { plainReason } from './plain-reasons.js';
import { newCounters, Progress } from './progress.js';
import { RenderPolicy } from './render-policy.js';
import { rewriteCopy } from './rewrite.js';
import { createScope, type Scope } from './scope.js';
import { fetchFallback, readSitemaps, RobotsCache, type SideRequests } from './site-files.js';

export { DEFAULTS, FALLBACK_PATH } from './defaults.js';
export { MirrorError, type MirrorErrorCode, type MirrorFailure } from './mirror-error.js';

/** Errors of the blob store's disk that end the run, unlike a failed download of one file. */
const STORAGE_ERROR_CODES: ReadonlySet<string> = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EIO']);

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

  // An archive's client sends nothing anywhere: no address to check, no robots.txt to obey.
  const settings = settingsOf(
    options.client ? { ...options, respectRobots: false } : options,
    started,
  );

  const netOptions = {
    allowPrivateNetworks: options.allowPrivateNetworks ?? false,
    ...(options.allowAddresses ? { allowAddresses: options.allowAddresses } : {}),
    ...(options.resolve ? { resolve: options.resolve } : {}),
  };

  if (!options.client) {
    try {
      await assertPublicUrl(startUrl, netOptions);
    } catch (err) {
      throw startUrlError(err, startUrl);
    }
  }

  const client: HttpClient =
    options.client ??
    createHttpClient({
      ...netOptions,
      userAgent: settings.userAgent,
      timeoutMs: options.requestTimeoutMs ?? DEFAULTS.requestTimeoutMs,
      // Long enough for the largest file allowed at a modest 256 KB/s; drips fail sooner, on speed.
      maxRequestMs: Math.max(DEFAULTS.maxRequestMs, settings.maxFileBytes / 256),
      connectionsPerHost:
        Math.max(settings.pageConcurrency, settings.assetConcurrency) * LANE_GROWTH,
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
    // A client handed in is its owner's to close.
    if (!options.client) await client.close();
  }
}

/**
 * One run: the frontier hands out tasks, each is fetched (with the retry policy), recorded and
 * read for references; render decisions go on beside it; at the end the copy is rewritten.
 */
class Crawler {
  private readonly scope: Scope;
  private readonly frontier: Frontier;
  private readonly entries = new Map<string, ManifestEntry>();
  /** The pages' copies made as they were read, by body hash (`PageReading`). */
  private readonly pageCopies = new Map<string, PageReading>();
  private readonly failures = new FailureLog();
  private readonly previous = new Map<string, ManifestEntry>();
  /** Each kept file's response as answered (`Manifest.capture`), and the previous run's. */
  private readonly captures: CaptureLog;
  private previousCaptures = new Map<string, string>();
  private readonly counters = newCounters();
  private readonly progress: Progress;
  private readonly robots: RobotsCache;
  private readonly discovery: Discovery;
  private readonly renders: RenderPolicy;
  /** What the site answers for addresses it does not have, when it is worth copying. */
  private fallback: Manifest['fallback'];
  /** Sitemaps and the unknown-address probe, read while the crawl goes on. */
  private discovering: Promise<unknown> | null = null;
  /** Files queued as guesses (path strings in scripts) that answered nothing the copy keeps. */
  private guessesMissed = 0;

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
    this.captures = new CaptureLog(settings.userAgent, options.captureLog ?? true);
    this.frontier = new Frontier(
      settings,
      signal,
      (url, reason, detail) => this.fail(url, reason, detail),
      [...this.previous.values()].map((e) => [e.url, e.kind]),
    );
    this.progress = new Progress(
      options.onProgress,
      this.frontier,
      this.failures,
      this.counters,
      settings.deadline,
    );
    this.robots = new RobotsCache(
      client,
      signal,
      this.counters,
      settings.userAgent,
      settings.respectRobots,
      (url, status, contentType, raw) => this.keepSiteFile(url, status, contentType, raw),
    );
    this.renders = new RenderPolicy({
      mode: settings.render,
      entries: this.entries,
      store: options.store,
      frontier: this.frontier,
      scope: this.scope,
      mapper,
      signal,
      counters: this.counters,
      client,
      chromiumPath: options.chromiumPath,
      timeoutMs: Math.min(options.requestTimeoutMs ?? DEFAULTS.requestTimeoutMs, 30_000),
      renderConcurrency: renderConcurrencyFor(options.renderMemoryMb ?? DEFAULTS.renderMemoryMb),
      fail: (url, reason, detail) => this.fail(url, reason, detail),
      emit: (phase, force) => this.emit(phase, force),
      discover: (task, contentType, raw, documentUrl) =>
        this.discovery.discover(task, contentType, raw, documentUrl),
      logResponse: (url, status, headers) => this.captures.response(url, status, headers),
    });
    this.discovery = new Discovery(this.frontier, this.scope, mapper, this.renders.scanned, {
      markForms: options.markForms === true,
      references: options.onDocumentReferences !== undefined,
    });
  }

  async run(): Promise<Manifest> {
    this.emit('discovering', true);
    if (this.options.previous)
      this.previousCaptures = await readCaptureLines(this.options.store, this.options.previous);
    this.frontier.enqueue(this.startUrl, 0, 'page', false);
    for (const seed of this.options.seeds ?? []) {
      let url: URL;
      try {
        url = new URL(seed);
      } catch {
        continue;
      }
      url.hash = '';
      if (this.scope.pageRefusal(url, 1) === null) this.frontier.enqueue(url, 1, 'page', false);
    }
    // Side requests run beside the crawl: a slow server must not make every page wait for them.
    this.discovering = Promise.all([
      readSitemaps(this.startUrl, this.sideRequests(), this.settings.maxPages),
      this.probeFallback(),
    ]).finally(() => {
      this.discovering = null;
      this.frontier.wake();
    });
    this.progress.fetching(this.startUrl.href, true);
    this.emit('fetching', true);
    // While one slow file holds everything up, the estimate still moves on with the clock.
    const heartbeat = this.options.onProgress ? setInterval(() => this.emit(), 1_000) : undefined;
    heartbeat?.unref?.();
    try {
      // Done when nothing runs, waits or may still be found (sitemaps are read meanwhile).
      await this.frontier.drain(
        (task, lane) => this.runTask(task, lane),
        this.counters,
        () => this.discovering !== null || this.renders.pending,
      );
      await this.discovering;
    } finally {
      clearInterval(heartbeat);
    }
    if (this.options.signal?.aborted) throw new MirrorError('aborted', 'The mirror was cancelled.');
    this.frontier.refuseQueued();

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
    await rewriteCopy({
      entries: this.entries,
      store: this.options.store,
      mapper: this.mapper,
      importMaps: this.discovery.importMaps,
      scripts: this.discovery.scripts,
      styles: this.discovery.styles,
      pages: this.pageCopies,
      pageOf: (url) => this.discovery.pageOf(url),
      hintFor: (url) => this.discovery.hintFor(url),
      markForms: this.options.markForms === true,
      onProgress: (done, total) => this.progress.rewriting(done, total),
      onReferences: this.options.onDocumentReferences,
    });
    this.pageCopies.clear();
    this.emit('finalizing', true);
    const entries = [...this.entries.values()].sort((a, b) =>
      a.path < b.path ? -1 : a.path > b.path ? 1 : 0,
    );
    const entryPath = this.mapper.toCopyPath(this.startUrl);
    const title = await homeTitle({ entries, entryPath }, this.options.store);
    const capture = await this.captures.write(this.options.store, entries);
    const dropped = this.discovery.droppedNote();
    const guessed = this.discovery.guessNote(this.guessesMissed);
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
      ...(capture ? { capture } : {}),
      notes: [...this.renders.notes, ...(dropped ? [dropped] : []), ...(guessed ? [guessed] : [])],
      stats: {
        pages: entries.filter(
          (e) => e.kind === 'page' && e.status < 300 && e.path !== FALLBACK_PATH,
        ).length,
        assets: entries.filter((e) => e.kind === 'asset' && e.status < 300).length,
        bytes: this.counters.bytes,
        requests: this.counters.requests,
        notModified: this.counters.notModified,
        rendered: this.counters.rendered,
        durationMs: Date.now() - this.started,
        peakRequests: this.frontier.peakRunning,
      },
    };
    this.emit('done', true);
    return manifest;
  }

  async close(): Promise<void> {
    await this.renders.close();
  }

  private sideRequests(): SideRequests {
    const { client, signal, counters, robots, mapper, scope, frontier } = this;
    return {
      client,
      signal,
      counters,
      robots,
      mapper,
      scope,
      frontier,
      keep: (url, status, contentType, raw) => this.keepSiteFile(url, status, contentType, raw),
    };
  }

  /**
   * A file the run read beside the crawl (robots.txt, a sitemap) joins the copy as it was
   * answered, unless the crawl fetches it itself, it is a page (a site answering every path with
   * its shell) or it is over a limit. Scripts read them too: a docs theme's instant navigation
   * reads `sitemap.xml`.
   */
  private async keepSiteFile(
    url: URL,
    status: number,
    contentType: string,
    raw: Buffer,
  ): Promise<void> {
    if (isHtmlType(contentType) || raw.length > this.settings.maxFileBytes) return;
    if (this.counters.bytes >= this.settings.maxBytes || !this.frontier.claimFile(url.href)) return;
    const stored = await putBytes(this.options.store, raw);
    this.counters.bytes += stored.size;
    this.captures.response(url.href, status, contentType ? { 'content-type': contentType } : {});
    this.entries.set(url.href, {
      path: this.mapper.toCopyPath(url),
      url: url.href,
      kind: 'asset',
      status,
      contentType: contentType || 'application/octet-stream',
      hash: stored.hash,
      size: stored.size,
      headers: {},
      sourceHash: stored.hash,
    });
    this.frontier.settle(url.href);
    this.counters.done++;
  }

  private emit(phase?: Phase, force = false): void {
    this.progress.emit(phase, force);
  }

  private fail(
    url: string,
    reason: FailureReason,
    detail: string,
    status?: number,
    code?: string,
  ): void {
    // A guess (a path string in a script) that is not there is no failure of the copy.
    if (this.frontier.isGuess(url)) {
      this.guessesMissed++;
      this.counters.done++;
      this.frontier.settle(url);
      this.emit();
      return;
    }
    this.failures.add({
      url,
      reason,
      detail,
      ...(status !== undefined ? { status } : {}),
      ...(code ? { code } : {}),
    });
    this.frontier.settle(url);
    this.emit();
  }

  /**
   * What the site answers for an address it does not have (`fetchFallback`) joins the copy (its
   * assets are crawled, its links are not); the sites host and the export give it for unknown paths.
   */
  private async probeFallback(): Promise<void> {
    const answer = await fetchFallback(
      this.startUrl,
      this.sideRequests(),
      this.settings.maxFileBytes,
    );
    if (!answer) return;
    const { url: probe, status, contentType, raw } = answer;
    const stored = await putBytes(this.options.store, raw);
    this.counters.bytes += stored.size;
    this.captures.response(probe.href, status, { 'content-type': contentType });
    this.entries.set(probe.href, {
      path: FALLBACK_PATH,
      url: probe.href,
      kind: 'page',
      status,
      contentType,
      hash: stored.hash,
      size: stored.size,
      headers: {},
      sourceHash: stored.hash,
    });
    this.fallback = { path: FALLBACK_PATH, status };
    this.discovery.discover(
      { url: probe, depth: 1, kind: 'page', leaf: true, attempt: 0 },
      contentType,
      raw,
      probe.href,
    );
  }

  // ---- fetching ----------------------------------------------------------------------------

  private async runTask(task: Task, lane: Lane<Task>): Promise<void> {
    const href = task.url.href;
    this.progress.fetching(href, task.kind === 'page');
    this.emit();
    if (this.mapper.isOwn(task.url)) {
      const robots = await this.robots.for(task.url);
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
    const asked = performance.now();
    try {
      this.counters.requests++;
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
      if (retriesRequest(err, task.attempt, this.settings.retries))
        return this.frontier.retry(task, lane, 0);
      return void this.fail(
        href,
        categorize(err),
        err instanceof Error ? err.message : String(err),
        undefined,
        errorCode(err) || undefined,
      );
    }

    try {
      await this.handleResponse(task, lane, response, previous, performance.now() - asked);
    } catch (err) {
      await response.discard();
      const reason = categorize(err);
      if (reason === 'network' && task.attempt < this.settings.retries && !this.signal.aborted)
        return this.frontier.retry(task, lane, 0);
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
    answeredInMs: number,
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
      if (task.attempt < this.settings.retries + 2) return this.frontier.retry(task, lane, wait);
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
      // A guessed path that redirects (to a login, to the home page) names no file.
      if (this.frontier.isGuess(href))
        return void this.fail(href, 'http-error', `HTTP ${status}`, status);
      const location = headers['location'];
      if (!location)
        return void this.fail(href, 'http-error', `HTTP ${status} without a Location`, status);
      let target: URL;
      try {
        target = new URL(location, task.url);
      } catch {
        return void this.fail(href, 'invalid', `HTTP ${status} to an invalid Location`, status);
      }
      this.captures.response(href, status, headers, response.fetchedAt);
      this.record(task, {
        status,
        contentType: '',
        hash: '',
        size: 0,
        headers: { location: target.href },
      });
      Lanes.succeed(lane, answeredInMs);
      if (this.mapper.isOwn(target) || task.kind === 'asset' || task.leaf)
        this.frontier.enqueue(target, task.depth, task.kind, task.leaf);
      return;
    }

    if (status === 304 && previous?.sourceHash) {
      await response.discard();
      this.counters.notModified++;
      this.captures.revalidated(
        href,
        this.previousCaptures.get(href),
        this.options.previous?.createdAt ?? new Date().toISOString(),
      );
      const sourceType = previous.sourceContentType ?? previous.contentType;
      // Read back only what is parsed for references (and rewritten after the crawl): an image,
      // a font or a video the copy serves as fetched is neither, however large.
      const kept = previous.hash === previous.sourceHash;
      const parsed = this.parses(task, sourceType, kept ? previous.size : NaN);
      const raw =
        parsed || !kept ? await readBlob(this.options.store, previous.sourceHash) : undefined;
      this.record(task, {
        status: previous.status,
        contentType: sourceType,
        hash: previous.sourceHash,
        size: raw?.length ?? previous.size,
        headers: previous.headers,
        ...(previous.etag ? { etag: previous.etag } : {}),
        ...(previous.lastModified ? { lastModified: previous.lastModified } : {}),
      });
      if (previous.rendered) this.entries.get(href)!.rendered = true;
      if (previous.replayed) this.entries.get(href)!.replayed = true;
      if (raw && parsed)
        await this.discover(task, sourceType, raw, previous.url, previous.sourceHash);
      Lanes.succeed(lane, answeredInMs);
      return;
    }

    if (status >= 400) {
      await response.discard();
      return void this.fail(href, 'http-error', `HTTP ${status}`, status);
    }

    const contentType = headers['content-type'] ?? '';
    // A page where a guess named a file: a site that answers every path with its shell.
    if (isHtmlType(contentType) && this.frontier.isGuess(href)) {
      await response.discard();
      return void this.fail(href, 'http-error', 'a page, not a file', status);
    }
    const parse = this.parses(task, contentType, Number(headers['content-length'] ?? NaN));
    let stored: { hash: string; size: number };
    let raw: Buffer | undefined;
    const held = parse ? await collectUpTo(response.body, DEFAULTS.maxParsedBytes) : undefined;
    if (held && 'buffer' in held) {
      raw = held.buffer;
      stored = await putBytes(this.options.store, raw);
    } else {
      stored = await this.options.store.put(held?.rest ?? response.body);
    }
    this.counters.bytes += stored.size;
    this.captures.response(href, status, headers, response.fetchedAt);
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
    Lanes.succeed(lane, answeredInMs);
    if (raw) {
      const info = await this.discover(task, contentType, raw, href, stored.hash);
      if (info && task.kind === 'page' && !task.leaf) this.renders.consider(task, info);
    }
  }

  /**
   * Reads a fetched body the copy keeps for what it references (`Discovery.discover`); a page's
   * forms go on its entry, and the copy made of it on the way into the store (`PageReading`),
   * unless the page is kept as rendered: a copy not stored is only work left to the rewrite.
   */
  private async discover(
    task: Task,
    contentType: string,
    raw: Buffer,
    documentUrl: string,
    hash: string,
  ): Promise<HtmlInfo | undefined> {
    const found = this.discovery.discover(task, contentType, raw, documentUrl, hash);
    if (!found) return undefined;
    const { copy, ...info } = found;
    this.recordForms(task.url.href, info);
    const entry = this.entries.get(task.url.href);
    if (copy && !entry?.rendered && !entry?.replayed) {
      try {
        const stored = await putBytes(this.options.store, copy.bytes);
        this.pageCopies.set(hash, { ...copy.reading, ...stored });
      } catch {
        // The rewrite makes the copy, and meets the store's failure if it lasts.
      }
    }
    return info;
  }

  /**
   * Whether a body of this type and size (NaN: unknown) is read for its references: not an image,
   * a font or a video, nor a body past the parse limit.
   */
  private parses(task: Task, contentType: string, size: number): boolean {
    const hint = task.kind === 'page' ? 'page' : this.discovery.hintFor(task.url);
    return bodyTypeOf(contentType, task.url, hint) !== 'other' && !(size > DEFAULTS.maxParsedBytes);
  }

  /**
   * A page's forms go on its entry, read from the body its copy keeps (a render kept as the DOM
   * replaces them, `RenderPolicy.adopt`); none, no field.
   */
  private recordForms(href: string, info: HtmlInfo | undefined): void {
    const entry = this.entries.get(href);
    if (entry?.kind === 'page' && info?.forms) entry.forms = info.forms;
  }

  private record(
    task: Task,
    fields: Pick<ManifestEntry, 'status' | 'contentType' | 'hash' | 'size' | 'headers'> &
      Partial<Pick<ManifestEntry, 'etag' | 'lastModified'>>,
  ): void {
    const url = task.url;
    const isPage = task.kind === 'page' && (fields.status >= 300 || isHtmlType(fields.contentType));
    this.entries.set(url.href, {
      path: this.mapper.toCopyPath(url),
      url: url.href,
      kind: isPage ? 'page' : 'asset',
      ...fields,
      ...(fields.hash ? { sourceHash: fields.hash } : {}),
    });
    this.frontier.settle(url.href, isPage && fields.status < 300);
    this.counters.done++;
    this.emit();
  }
}
