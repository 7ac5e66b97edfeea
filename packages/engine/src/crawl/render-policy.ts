import { createHash } from 'node:crypto';
import { findForms } from '../forms/forms.js';
import { markScriptSubmits } from '../forms/script-submits.js';
import type { HttpClient } from '../net/http-client.js';
import type { RenderHints } from '../references/index.js';
import { mergeAbilities, scriptAbilities, type ScriptAbility } from '../references/script-scan.js';
import {
  describeAbilities,
  describeEvidence,
  fileName,
  showsEvidence,
} from '../render/evidence.js';
import {
  createRenderer,
  type CapturedResponse,
  type PageProbe,
  type RenderCall,
  type RenderEvidence,
  type Renderer,
  type RenderResult,
} from '../render/index.js';
import { trackerMatcher, type TrackerMatcher } from '../render/trackers.js';
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

/**
 * What the copy of a rendered page keeps (docs/engine.md, step 4): `replay`, the HTML the server
 * sent, whose kept scripts build the page again from the responses recorded while rendering; or
 * `snapshot`, the rendered DOM (with its scripts), where replaying does not show what the render
 * showed.
 */
export type RenderForm = 'replay' | 'snapshot';

/** A candidate for a page's copy against its render: how far it is from what the render showed. */
interface Candidate {
  form: RenderForm;
  /** Share of the first screen's pixels that differ, 0..1 (1 when it could not be loaded). */
  pixels: number;
  /** Similarity of the visible text, 0..1 (a page that mounts twice reads its words twice). */
  text: number;
  /** Script errors beyond the render's own. */
  errors: number;
}

/** Pages whose scripts are alike: sampled once ('auto'), they share the verdict and the form. */
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
  /** What its pages' copies keep, once measured on one of them, and why in a few words. */
  form?: Promise<{ form: RenderForm; why: string }>;
  /**
   * Renders in a row (after the sample) that found nothing new for a replayed template: past
   * DEFAULTS.renderQuietPages, its other pages are not rendered.
   */
  quiet: number;
  /** A replayed template whose sample's scripts fetched and linked nothing new: none is needed. */
  sampleFetchedNothing?: boolean;
}

/** A candidate matches the render within these bounds. */
const CANDIDATE_BOUNDS = { pixels: 0.01, text: 0.95 } as const;

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
  /** Pages rendered at once (contexts of one Chromium): `renderConcurrencyFor` the run's memory. */
  renderConcurrency: number;
  fail(url: string, reason: FailureReason, detail: string): void;
  emit(phase?: Phase, force?: boolean): void;
  /** Queues what a body references (`Discovery.discover`). */
  discover(task: Task, contentType: string, raw: Buffer, documentUrl: string): unknown;
  /** Keeps a response the render recorded as the origin answered it (`CaptureLog`). */
  logResponse(url: string, status: number, headers: Record<string, string>): void;
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

  /**
   * Trackers are left out of templates and evidence; null when the list could not be loaded.
   * Loaded with the first page that has scripts (8 MB of heap a run without any never pays).
   */
  private trackersLoading: Promise<TrackerMatcher | null> | undefined;

  private trackers(): Promise<TrackerMatcher | null> {
    this.trackersLoading ??= trackerMatcher().catch((error: unknown) => {
      this.note(
        `The tracker list could not be loaded (${error instanceof Error ? error.message : String(error)}); trackers were taken for content.`,
      );
      return null;
    });
    return this.trackersLoading;
  }

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
    const { hints } = info;
    const scripted = hints.scriptCount > 0 || hints.emptyAppRoot || hints.noscriptAsksForJs;
    if (mode === 'auto' && !scripted) return;
    const template = this.templateOf(hints, url, await this.trackers());
    if (mode === 'always') {
      // A cancelled run starts no more renders (one under way ends within its time limit).
      if (signal.aborted) return;
      const result = await this.render(url, { sample: template.form === undefined });
      if (!result) return this.decided(url, template, RENDER_FAILED);
      const { form, why } = await this.formOf(template, task, result);
      this.decided(
        url,
        template,
        `rendered: render mode 'always'; ${why}`,
        result.evidence.clientRouting,
      );
      return this.adopt(task, result, form);
    }
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
    const { form, why } = await this.formOf(template, task);
    // A replayed page is rendered for what its scripts fetch that the crawl will not: asked once
    // the crawl has settled (files its other pages name are in by then), and once a render slot
    // is free (pages queued behind the slots see the renders before them).
    if (form === 'replay') await this.crawlSettled();
    const enough = () => form === 'replay' && template.quiet >= DEFAULTS.renderQuietPages;
    if (signal.aborted) return;
    const result = await this.renderUnless(url, enough);
    if (result === 'skipped')
      return this.decided(
        url,
        template,
        template.sampleFetchedNothing
          ? `not rendered: its template keeps the HTML the server sent, and its scripts fetched nothing the crawl lacks on ${sample}, the sample`
          : `not rendered: its template keeps the HTML the server sent, and ${template.quiet} of its pages rendered after ${sample} fetched nothing new`,
      );
    if (!result) return this.decided(url, template, RENDER_FAILED);
    const evidence = await this.narrowed(task, result, false);
    // A replayed page's copy is its server's HTML: only what its scripts fetch or link is new.
    const fresh =
      form === 'replay'
        ? evidence.newRequests.length > 0 || evidence.addedLinks.length > 0
        : showsEvidence(evidence);
    template.quiet = fresh ? 0 : template.quiet + 1;
    this.decided(
      url,
      template,
      `rendered (${sample}, the sample of its template, showed evidence; ${why}): ${describeEvidence(evidence)}`,
      evidence.clientRouting,
    );
    await this.adopt(task, result, form);
  }

  /** Resolves once the crawl fetches nothing and has nothing queued (or the run is cancelled). */
  private async crawlSettled(): Promise<void> {
    const { frontier, signal } = this.host;
    while (!frontier.idle() && !signal.aborted)
      await new Promise<void>((resolve) => setTimeout(resolve, 50));
  }

  /** Renders a template's first page: what it shows decides for every page of the template. */
  private async sample(task: Task, template: RenderTemplate, could: string): Promise<void> {
    const url = task.url.href;
    const result = await this.render(url, { sample: true });
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
    const kept = shows ? `; ${(await this.formOf(template, task, result)).why}` : '';
    this.decided(
      url,
      template,
      `${shows ? 'rendered' : 'not rendered'} (sampled for its template: ${could}${kept}): ${found}`,
      evidence.clientRouting,
    );
    if (!shows) return this.releaseUnneededRenderer();
    const { form } = await this.formOf(template, task);
    // What the scripts built (text, images, styles) they build again in a replayed copy: the
    // template's other pages are worth rendering only for files their scripts fetch.
    if (
      form === 'replay' &&
      evidence.newRequests.length === 0 &&
      evidence.addedLinks.length === 0
    ) {
      template.sampleFetchedNothing = true;
      template.quiet = DEFAULTS.renderQuietPages;
    }
    await this.adopt(task, result, form);
  }

  /**
   * What the copies of a template's pages keep, measured once on the first page rendered with a
   * probe (`result`; the other pages wait for it): the server's HTML, replayed offline with its
   * scripts and the responses the render recorded, when that looks like the render (its first
   * screen, its text, no new script error); else the rendered DOM, when that does (a page that
   * mounts its app again over its own snapshot reads its text twice and fails); else whichever
   * came closer. So a copy never keeps a snapshot that its scripts would build a second time.
   */
  private formOf(
    template: RenderTemplate,
    task: Task,
    result?: RenderResult,
  ): Promise<{ form: RenderForm; why: string }> {
    template.form ??= this.chooseForm(task, result).catch((error: unknown) => ({
      form: 'snapshot' as const,
      why: `kept as rendered (choosing failed: ${error instanceof Error ? error.message : String(error)})`,
    }));
    return template.form;
  }

  private async chooseForm(
    task: Task,
    result: RenderResult | undefined,
  ): Promise<{ form: RenderForm; why: string }> {
    const entry = this.host.entries.get(task.url.href);
    const probe = result?.probe;
    if (!result || !probe || !entry?.sourceHash)
      return { form: 'snapshot', why: 'kept as rendered (no probe to measure replay against)' };
    const serverHtml = await readBlob(this.host.store, entry.sourceHash);
    const recorded = new Map<string, CapturedResponse>();
    for (const r of result.responses) if (r.method === 'GET') recorded.set(r.url, r);
    const files = async (url: string) => recorded.get(url) ?? (await this.captured(url));
    const measure = async (form: RenderForm, html: Buffer): Promise<Candidate> => {
      const loaded = await this.inSlot(task.url.href, (renderer) =>
        renderer.loadOffline(task.url.href, html, files),
      ).catch(() => undefined);
      return loaded ? judge(form, probe, loaded) : { form, pixels: 1, text: 0, errors: 1 };
    };
    // One after the other: the second is needed only when the first falls short.
    const replay = await measure('replay', serverHtml);
    if (fits(replay))
      return { form: 'replay', why: `kept as the server sent it (${said(replay)})` };
    const snapshot = await measure('snapshot', Buffer.from(result.html));
    if (fits(snapshot))
      return {
        form: 'snapshot',
        why: `kept as rendered (replayed: ${said(replay)}; as rendered: ${said(snapshot)})`,
      };
    const form = distance(replay) <= distance(snapshot) ? 'replay' : 'snapshot';
    return {
      form,
      why: `kept ${form === 'replay' ? 'as the server sent it' : 'as rendered'}, the closer of two (replayed: ${said(replay)}; as rendered: ${said(snapshot)})`,
    };
  }

  /**
   * Pages that run the same scripts share a verdict. Their template: the external script URLs
   * (sorted, without query strings, which mostly carry versions), what the inline scripts together
   * could do (so per-page data in inline scripts makes no template of its own), and whether the
   * page is an empty app shell. Trackers (scripts and loader snippets of analytics, ads, consent
   * and chat) are left out: they never make a page worth rendering.
   */
  private templateOf(
    hints: RenderHints,
    pageUrl: string,
    isTracker: TrackerMatcher | null,
  ): RenderTemplate {
    const content = (url: string) => isTracker?.(url, pageUrl) == null;
    const sources = hints.scriptSources.filter(content);
    const scripts = [...new Set(sources.map((src) => src.split('?')[0]!))].sort();
    const inline = hints.inlineLoaders
      .filter((loader) => content(loader.url))
      .reduce<ScriptAbility[]>(
        (all, loader) => mergeAbilities(all, loader.abilities),
        hints.inlineScriptAbilities,
      );
    const shell = hints.emptyAppRoot || hints.noscriptAsksForJs;
    const key = JSON.stringify([scripts, inline, shell]);
    let template = this.templates.get(key);
    if (!template) {
      template = {
        id: createHash('sha256').update(key).digest('hex').slice(0, 12),
        could: this.scriptsMayBuild(hints, sources, inline).then((why) => {
          if (!why) this.counts.inert++;
          return why;
        }),
        failedSamples: 0,
        quiet: 0,
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
  private async scriptsMayBuild(
    hints: RenderHints,
    sources: string[],
    inline: ScriptAbility[],
  ): Promise<string> {
    if (hints.emptyAppRoot) return 'its app root is empty';
    if (hints.noscriptAsksForJs) return 'its noscript asks for JavaScript';
    if (inline.length > 0) return `inline scripts could ${describeAbilities(inline)}`;
    for (const src of sources) {
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

  private render(url: string, call: RenderCall = {}): Promise<RenderResult | undefined> {
    return this.attempt(url, (renderer) => renderer.render(url, call));
  }

  /** Renders a page, unless `skip` says, once a slot is free, that it need not be ('skipped'). */
  private renderUnless(
    url: string,
    skip: () => boolean,
  ): Promise<RenderResult | 'skipped' | undefined> {
    return this.attempt<RenderResult | 'skipped'>(url, (renderer) =>
      skip() ? Promise.resolve('skipped') : renderer.render(url),
    );
  }

  /** Runs a render in a slot; a failure is noted (or turns rendering off) and answers undefined. */
  private async attempt<T>(url: string, work: (renderer: Renderer) => Promise<T>) {
    try {
      return await this.inSlot(url, work);
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
    }
  }

  /** Runs `work` with the renderer once one of the run's render slots is free. */
  private async inSlot<T>(url: string, work: (renderer: Renderer) => Promise<T>): Promise<T> {
    while (this.active >= this.host.renderConcurrency) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    this.active++;
    this.host.emit('rendering', true);
    try {
      this.renderer ??= createRenderer({
        ...(this.host.chromiumPath ? { chromiumPath: this.host.chromiumPath } : {}),
        timeoutMs: this.host.timeoutMs,
        client: this.host.client,
        captured: (target) => this.captured(target, 0),
      });
      return await work(this.renderer);
    } finally {
      this.active--;
      this.waiting.shift()?.();
      this.host.emit('fetching');
    }
  }

  /** A file the crawl holds, as a page asking for it would get it (redirects followed in the copy). */
  private async captured(url: string, redirects = 0): Promise<CapturedResponse | undefined> {
    const entry = this.host.entries.get(url);
    if (!entry) return undefined;
    const location = entry.headers['location'];
    if (entry.status >= 300 && entry.status < 400 && location && redirects < 5)
      return this.captured(new URL(location, url).href, redirects + 1);
    if (!entry.sourceHash || entry.status >= 300) return undefined;
    return {
      status: entry.status,
      headers: { 'content-type': entry.sourceContentType ?? entry.contentType },
      body: await readBlob(this.host.store, entry.sourceHash),
    };
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

  /**
   * Every response the page made joins the copy; with `snapshot`, the rendered DOM becomes the page,
   * with `replay` the page stays as the server sent it (its scripts build it again from those
   * responses when the copy is viewed).
   */
  private async adopt(task: Task, result: RenderResult, form: RenderForm): Promise<void> {
    const entry = this.host.entries.get(task.url.href);
    if (!entry) return;
    if (form === 'snapshot') {
      const stored = await putBytes(this.host.store, result.html);
      entry.sourceHash = stored.hash;
      entry.hash = stored.hash;
      entry.size = stored.size;
      entry.contentType = 'text/html; charset=utf-8';
      delete entry.sourceContentType;
      entry.rendered = true;
      // The copy serves this DOM at the page's address: its forms are the page's now.
      const forms = findForms(result.html, entry.url);
      markScriptSubmits(forms, result.forms, true);
      if (forms.length > 0) entry.forms = forms;
      else delete entry.forms;
    } else {
      entry.replayed = true;
      // The copy keeps the server's HTML: its forms are matched to the rendered ones.
      if (entry.forms) markScriptSubmits(entry.forms, result.forms, false);
    }
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
      // A page of the site a visitor's click loaded (a sample's behaviours): the crawl copies it as
      // a page, with its links, not as a file of this one.
      if (response.resourceType === 'document' && this.host.mapper.isOwn(url)) {
        if (this.host.scope.pageRefusal(url, task.depth + 1) === null)
          this.host.frontier.enqueue(url, task.depth + 1, 'page', false);
        continue;
      }
      this.host.frontier.claim(url.href);
      const body = await putBytes(this.host.store, response.body);
      this.host.counters.bytes += body.size;
      const contentType = response.headers['content-type'] ?? 'application/octet-stream';
      this.host.logResponse(url.href, response.status, response.headers);
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
      const type = bodyTypeOf(contentType, url, undefined);
      // A search index's entry and metadata name every chunk; the render fetched one query's.
      if (type === 'css' || type === 'search-index')
        this.host.discover(asset, contentType, response.body, url.href);
    }
    // Links that exist only once the scripts have run.
    this.host.discover(task, entry.contentType, Buffer.from(result.html), result.finalUrl);
  }
}

/** How a candidate for a page's copy compares with the page as rendered. */
async function judge(form: RenderForm, rendered: PageProbe, loaded: PageProbe): Promise<Candidate> {
  // The picture code loads with the first page measured: most runs render none.
  const { decodePng, differingPixels, textSimilarity } = await import('../fidelity/compare.js');
  const before = decodePng(rendered.screenshot);
  const after = decodePng(loaded.screenshot);
  const differing = differingPixels(before, after);
  return {
    form,
    pixels: differing.count / (differing.width * differing.height),
    text: textSimilarity(rendered.text, loaded.text),
    errors: Math.max(0, loaded.errors - rendered.errors),
  };
}

function fits(candidate: Candidate): boolean {
  return (
    candidate.pixels <= CANDIDATE_BOUNDS.pixels &&
    candidate.text >= CANDIDATE_BOUNDS.text &&
    candidate.errors === 0
  );
}

function distance(candidate: Candidate): number {
  return candidate.pixels + (1 - candidate.text) + (candidate.errors > 0 ? 0.01 : 0);
}

/** e.g. "0.4% of the first screen differs, text 99% alike, 1 new script error". */
function said(candidate: Candidate): string {
  const errors =
    candidate.errors > 0
      ? `, ${candidate.errors} new script error${candidate.errors === 1 ? '' : 's'}`
      : '';
  return `${(candidate.pixels * 100).toFixed(1)}% of the first screen differs, text ${Math.round(candidate.text * 100)}% alike${errors}`;
}
