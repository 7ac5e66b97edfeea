import { createHash } from 'node:crypto';
import type { HttpClient } from '../net/http-client.js';
import type { RenderHints } from '../references/index.js';
import { scriptAbilities } from '../references/script-scan.js';
import {
  describeAbilities,
  describeEvidence,
  fileName,
  showsEvidence,
} from '../render/evidence.js';
import {
  createRenderer,
  type RenderEvidence,
  type Renderer,
  type RenderResult,
} from '../render/index.js';
import { putBytes, readBlob } from '../storage/blob-utils.js';
import type { BlobStore, FailureReason, ManifestEntry, Phase } from '../types.js';
import type { UrlMapper } from '../url-map.js';
import { bodyTypeOf, withoutHash } from './body-type.js';
import { DEFAULTS } from './defaults.js';
import type { HtmlInfo } from './discover.js';
import type { Frontier, Task } from './frontier.js';
import type { Counters } from './progress.js';
import type { Scope } from './scope.js';

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

/** What the render policy reads and changes of the run. */
export interface RenderHost {
  mode: 'auto' | 'always' | 'never';
  entries: Map<string, ManifestEntry>;
  store: BlobStore;
  frontier: Frontier;
  scope: Scope;
  mapper: UrlMapper;
  signal: AbortSignal;
  counters: Counters;
  client: HttpClient;
  chromiumPath: string | undefined;
  /** A render's time limit. */
  timeoutMs: number;
  fail(url: string, reason: FailureReason, detail: string): void;
  emit(phase?: Phase, force?: boolean): void;
  /** Queues what a body references (`Discovery.discover`). */
  discover(task: Task, contentType: string, raw: Buffer, documentUrl: string): unknown;
}

/**
 * When a page goes to the render tier. 'always' renders every page. 'auto' renders on evidence,
 * per template (`templateOf`): when the static scan says a template's scripts could request files,
 * change what a visitor sees or route on the client, its first page is rendered as a sample; a
 * sample that found new requests or content joins the copy and every page of its template is
 * rendered, else no other page is. Keeps the run's notes (all of them are about rendering).
 */
export class RenderPolicy {
  readonly notes: string[] = [];
  /** Pages waiting for their render decision (their scripts, a sample) or being rendered. */
  private readonly decisions = new Set<Promise<void>>();
  private renderer: Renderer | null = null;
  private disabled = false;
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  /** In 'auto' mode: pages by template (`templateOf`), and what the decisions came to. */
  private readonly templates = new Map<string, RenderTemplate>();
  private readonly counts = { pages: 0, evidence: 0, none: 0, inert: 0 };
  private example = '';
  /** Index of the rendering note in `notes`, once there is one. */
  private renderNote = -1;
  /** Script URL → why it could need a render ('' when it could not). */
  private readonly scriptVerdicts = new Map<string, Promise<string>>();
  /** What each fetched script could do (`scriptAbilities`), scanned when it was parsed. */
  private readonly scriptScans = new Map<string, ReturnType<typeof scriptAbilities>>();

  constructor(private readonly host: RenderHost) {
    this.scanned =
      host.mode === 'auto'
        ? (url, text) => void this.scriptScans.set(url, scriptAbilities(text))
        : undefined;
  }

  /** Whether render decisions are still under way (they may queue more files). */
  get pending(): boolean {
    return this.decisions.size > 0;
  }

  /** Scans a fetched script while its text is in memory ('auto' mode reads it for a decision). */
  readonly scanned: ((url: string, text: string) => void) | undefined;

  /**
   * Decides whether a fetched page is rendered. The decision goes on outside its fetch slot: a
   * page whose template waits for its scripts to be fetched (or for a sample render) must not keep
   * the next pages from being fetched.
   */
  consider(task: Task, info: HtmlInfo): void {
    const tracked: Promise<void> = this.maybeRender(task, info)
      .catch((err: unknown) => {
        this.note(`A render decision failed: ${err instanceof Error ? err.message : String(err)}`);
      })
      .finally(() => {
        this.decisions.delete(tracked);
        this.host.frontier.wake();
      });
    this.decisions.add(tracked);
  }

  async close(): Promise<void> {
    await this.renderer?.close();
  }

  private note(text: string): void {
    if (this.notes.length < DEFAULTS.maxNotes) this.notes.push(text);
  }

  private async maybeRender(task: Task, info: HtmlInfo): Promise<void> {
    const { mode, signal, mapper } = this.host;
    if (mode === 'never' || this.disabled) return;
    const url = task.url.href;
    if (mode === 'always') {
      // A cancelled run starts no more renders (one under way ends within its time limit).
      if (signal.aborted) return;
      const result = await this.render(url);
      if (!result) return this.decided(url, undefined, RENDER_FAILED);
      this.decided(url, undefined, "rendered: render mode 'always'", result.evidence.clientRouting);
      return this.adopt(task, result);
    }
    const { hints } = info;
    if (hints.scriptCount === 0 && !hints.emptyAppRoot && !hints.noscriptAsksForJs) return;
    const template = this.templateOf(hints);
    this.counts.pages++;
    const could = await template.could;
    if (!could)
      return this.decided(
        url,
        template,
        'not rendered: no script could request files, change what a visitor sees or route on the client (static scan)',
      );
    while (template.sample === undefined) {
      if (signal.aborted || this.disabled) return;
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
    const sample = mapper.toCopyPath(new URL(template.sample.url));
    if (!template.sample.evidence)
      return this.decided(
        url,
        template,
        `not rendered: ${sample}, the sample of its template, showed no evidence`,
      );
    if (signal.aborted) return;
    const result = await this.render(url);
    if (!result) return this.decided(url, template, RENDER_FAILED);
    const evidence = await this.narrowed(task, result, false);
    this.decided(
      url,
      template,
      `rendered (${sample}, the sample of its template, showed evidence): ${describeEvidence(evidence)}`,
      evidence.clientRouting,
    );
    await this.adopt(task, result);
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
      this.counts.evidence++;
      this.example ||= `${this.host.mapper.toCopyPath(task.url)} ${found}`;
    } else this.counts.none++;
    this.decided(
      url,
      template,
      `${shows ? 'rendered' : 'not rendered'} (sampled for its template: ${could}): ${found}`,
      evidence.clientRouting,
    );
    if (shows) await this.adopt(task, result);
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
          if (!why) this.counts.inert++;
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
    await this.host.frontier.whenSettled(src);
    const entry = this.host.entries.get(src);
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
        scriptAbilities((await readBlob(this.host.store, entry.sourceHash)).toString('utf8'));
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
    while (settle && !this.host.signal.aborted && Date.now() < until) {
      const reading = result.responses
        .map((r) => ({ url: key(r.url), type: r.headers['content-type'] ?? '' }))
        .filter(
          ({ url, type }) =>
            this.host.frontier.has(url) &&
            !this.host.frontier.isSettled(url) &&
            bodyTypeOf(type, new URL(url), undefined) !== 'other',
        )
        .map(({ url }) => this.host.frontier.whenSettled(url));
      if (reading.length === 0) break;
      await Promise.race([
        Promise.all(reading),
        new Promise<void>((resolve) => setTimeout(resolve, until - Date.now()).unref()),
      ]);
    }
    const { evidence } = result;
    return {
      ...evidence,
      newRequests: evidence.newRequests.filter((url) => !this.host.frontier.has(key(url))),
      addedLinks: evidence.addedLinks.filter(
        (link) =>
          !this.host.frontier.has(key(link)) &&
          this.host.scope.pageRefusal(new URL(link), task.depth + 1) === null,
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
    const entry = this.host.entries.get(url);
    if (entry) {
      entry.renderReason = reason;
      if (template) entry.renderTemplate = template.id;
      if (clientRouted) entry.clientRouted = true;
    }
    this.noteRendering();
  }

  /** One note says what 'auto' rendering did, kept current as pages are decided. */
  private noteRendering(): void {
    if (this.host.mode !== 'auto' || this.counts.pages === 0) return;
    const { pages, evidence, none, inert } = this.counts;
    const templates = this.templates.size;
    const text =
      `Rendered ${this.host.counters.rendered} of ${pages} pages with scripts; ` +
      `${templates} template${templates === 1 ? '' : 's'}: ${evidence} showed evidence, ` +
      `${none} showed none, ${inert} cannot need a render (static scan)` +
      (this.example ? `; e.g. ${this.example}.` : '.');
    if (this.renderNote >= 0) this.notes[this.renderNote] = text;
    else if (this.notes.length < DEFAULTS.maxNotes) this.renderNote = this.notes.push(text) - 1;
  }

  private async render(url: string): Promise<RenderResult | undefined> {
    while (this.active >= DEFAULTS.renderConcurrency) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    this.active++;
    this.host.emit('rendering', true);
    try {
      this.renderer ??= createRenderer({
        ...(this.host.chromiumPath ? { chromiumPath: this.host.chromiumPath } : {}),
        timeoutMs: this.host.timeoutMs,
        client: this.host.client,
        captured: async (target) => {
          const entry = this.host.entries.get(target);
          if (!entry?.sourceHash || entry.status >= 300) return undefined;
          return {
            status: entry.status,
            headers: { 'content-type': entry.sourceContentType ?? entry.contentType },
            body: await readBlob(this.host.store, entry.sourceHash),
          };
        },
      });
      return await this.renderer.render(url);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (/executable|launch|browserType/i.test(message)) {
        this.disabled = true;
        this.notes.push(
          `Rendering is unavailable (${message.split('\n')[0]}); pages were captured without running their scripts.`,
        );
      } else {
        this.host.fail(url, 'network', `rendering failed: ${message.split('\n')[0]}`);
      }
      return undefined;
    } finally {
      this.active--;
      this.waiting.shift()?.();
      this.host.emit('fetching');
    }
  }

  /**
   * Chromium's memory (~350 MB) goes back while no render is under way and no template has shown
   * evidence ('auto' mode); a later template's sample launches it again.
   */
  private async releaseUnneededRenderer(): Promise<void> {
    if (this.host.mode !== 'auto' || this.counts.evidence > 0) return;
    if (this.active > 0 || !this.renderer) return;
    const renderer = this.renderer;
    this.renderer = null;
    await renderer.close();
  }

  /** The rendered DOM becomes the page; every response the page made joins the copy. */
  private async adopt(task: Task, result: RenderResult): Promise<void> {
    const entry = this.host.entries.get(task.url.href);
    if (!entry) return;
    const stored = await putBytes(this.host.store, result.html);
    entry.sourceHash = stored.hash;
    entry.hash = stored.hash;
    entry.size = stored.size;
    entry.contentType = 'text/html; charset=utf-8';
    delete entry.sourceContentType;
    entry.rendered = true;
    this.host.counters.rendered++;
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
      if (
        this.host.entries.has(url.href) ||
        (url.protocol !== 'http:' && url.protocol !== 'https:')
      )
        continue;
      this.host.frontier.claim(url.href);
      const body = await putBytes(this.host.store, response.body);
      this.host.counters.bytes += body.size;
      const contentType = response.headers['content-type'] ?? 'application/octet-stream';
      this.host.frontier.settle(url.href);
      this.host.entries.set(url.href, {
        path: this.host.mapper.toCopyPath(url),
        url: url.href,
        kind: 'asset',
        status: response.status,
        contentType,
        hash: body.hash,
        size: body.size,
        headers: {},
        sourceHash: body.hash,
      });
      this.host.counters.done++;
      const asset: Task = { url, depth: task.depth, kind: 'asset', leaf: false, attempt: 0 };
      if (bodyTypeOf(contentType, url, undefined) === 'css')
        this.host.discover(asset, contentType, response.body, url.href);
    }
    // Links that exist only once the scripts have run.
    this.host.discover(task, entry.contentType, Buffer.from(result.html), result.finalUrl);
  }
}
