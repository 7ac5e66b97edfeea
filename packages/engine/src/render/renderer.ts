/**
 * The render tier: loads a page in headless Chromium, lets its scripts build the DOM, and
 * serializes the result. Every request the page makes goes through one route handler, which serves
 * already-captured bodies and answers the rest with the engine's HTTP client (redirect hop by
 * redirect hop), recording each response, so the crawler can store what the page's scripts read at
 * run time. The client checks each address when it connects and connects to that address, so a
 * name that rebinds gains nothing; Chromium itself reaches no network (see chromium.ts).
 */
import { setMaxListeners } from 'node:events';
import type { Browser, BrowserContext, Page, Request, Route } from 'playwright-core';
import { NetError } from '../net/errors.js';
import type { HttpClient, HttpResponse } from '../net/http-client.js';
import {
  cleanHeaders,
  forwardedHeaders,
  launchChromium,
  openContext,
  REDIRECT_STATUSES,
  settledLocally,
  userAgentOf,
} from './chromium.js';
import { runBehaviours } from './behaviours.js';
import { FORM_HANDLER_LIMITS, findFormHandlers, type RenderedForm } from './form-handlers.js';
import { EVIDENCE_SCRIPT, INIT_SCRIPT, SCROLL_SCRIPT, SERIALIZE_SCRIPT } from './in-page.js';
import { trackerMatcher } from './trackers.js';

export { runtimeShim, toCopyUrl } from './runtime-shim.js';

export interface RecordedResponse {
  url: string;
  /** Request method (the page's scripts may POST; the crawler usually keeps only GET). */
  method: string;
  status: number;
  /** Lower-case names; content-encoding/length dropped (the body is decoded). */
  headers: Record<string, string>;
  body: Buffer;
  resourceType: string;
}

export interface RenderResult {
  /** Serialized rendered DOM: the full document, with the original doctype (none in quirks mode). */
  html: string;
  /** URL of the document after redirects (and history.pushState). */
  finalUrl: string;
  /** `innerText` length of `<body>`. */
  textLength: number;
  /** Every response the page made that was not served from `captured`, each once. */
  responses: RecordedResponse[];
  /** What the page's scripts did that a copy of the static HTML would lack. */
  evidence: RenderEvidence;
  /** How the page looked once rendered, for a sample (`sample: true`). */
  probe?: PageProbe;
  /**
   * The page's forms (the first 50, in document order) and which of them a script handles
   * (`findFormHandlers`), read once its behaviours ran; absent when they could not be read.
   */
  forms?: RenderedForm[];
}

/** A rendered page's first screen, visible text and script errors: what candidates are held to. */
export interface PageProbe {
  /** PNG of the viewport, scrolled to the top. */
  screenshot: Buffer;
  /** `innerText` of `<body>` (the first 200,000 characters). */
  text: string;
  /** Uncaught exceptions the page's scripts threw. */
  errors: number;
}

/** Answers a candidate's requests offline: the copy's files, or undefined (the request fails). */
export type OfflineFiles = (url: string) => Promise<CapturedResponse | undefined>;

/**
 * What running the page's scripts changed, against its static HTML. The crawler decides from it
 * whether the render joins the copy (see docs/engine.md, step 4).
 */
export interface RenderEvidence {
  /**
   * GET requests answered 2xx that `captured` did not serve, so the crawl had not stored them
   * when the page asked (the main document excluded), in the order they were answered.
   */
  newRequests: string[];
  /** Characters of visible words the static HTML does not have. */
  addedText: number;
  /**
   * Images whose URL the static HTML does not mention, shown at least 4×4 pixels, trackers left out
   * (a tracking pixel is not content).
   */
  addedImages: number;
  /** http(s) links the static HTML does not have (the first 200). */
  addedLinks: string[];
  /** Shadow roots beyond the static HTML's declarative ones. */
  shadowRoots: number;
  /** Style elements and style-sheet links inserted, sheets edited through the CSSOM, adopted sheets. */
  insertedStyles: number;
  /** Canvases something was drawn on. */
  drawnCanvases: number;
  /**
   * History API calls that change the path, popstate listeners, or a location that changed after
   * load (besides its fragment). Recorded, but no evidence by itself: a copy that keeps the
   * scripts routes as the original does, and what its routes fetch shows in `newRequests`.
   */
  clientRouting: boolean;
  /** Trackers (analytics, ads, consent, chat) the page requested, by name: never evidence. */
  trackers: string[];
}

export interface CapturedResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export interface RendererOptions {
  /** Default /usr/bin/chromium. */
  chromiumPath?: string;
  /**
   * Answers every request (and every redirect hop) the page makes that `captured` does not: its
   * address policy refuses what the page may not reach. The crawler hands in its own.
   */
  client: HttpClient;
  /** Already-captured bodies: served to the page instead of being fetched again. */
  captured(url: string): Promise<CapturedResponse | undefined>;
  /** Per page, default 30 s. */
  timeoutMs?: number;
  /** Default 1280×800. */
  viewport?: { width: number; height: number };
  /** Default: Chromium's own, without "Headless". */
  userAgent?: string;
}

export interface RenderCall {
  /**
   * The render samples a template: it also takes the page's `probe` (first screen, text, errors)
   * for `loadOffline` to compare with, and then does what a visitor does (`runBehaviours`: search,
   * hover and follow links, open tabs, menus and theme switches), so that the files a site loads
   * only on interaction are recorded too.
   */
  sample?: boolean;
}

export interface Renderer {
  render(url: string, call?: RenderCall): Promise<RenderResult>;
  /**
   * Loads `html` as the document at `url` with its scripts running, every other request answered
   * by `files` alone (nothing reaches the network), as a visitor of the copy would see it; returns
   * its probe. Used to choose what a rendered page's copy keeps (docs/engine.md, step 4).
   */
  loadOffline(url: string, html: Buffer, files: OfflineFiles): Promise<PageProbe>;
  close(): Promise<void>;
}

export const RENDER_DEFAULTS = {
  chromiumPath: '/usr/bin/chromium',
  timeoutMs: 30_000,
  viewport: { width: 1280, height: 800 },
  /** One fetched body: a larger one is aborted. */
  maxBody: 50 * 1024 * 1024,
  /** All fetched bodies of one page together: past it, requests are aborted. */
  maxTotal: 256 * 1024 * 1024,
  maxRedirects: 10,
  /** Network idle: no request in flight for this long… */
  idleQuietMs: 500,
  /** …waited for at most this long each time. */
  idleMaxMs: 5_000,
  scrollMaxSteps: 40,
  scrollStepDelayMs: 100,
  /**
   * Scrolls to the bottom, each after the network settled: a page that grows when scrolled to its
   * end (infinite scroll) loads this many more screens of content, and the copy holds their data.
   */
  scrollMaxRounds: 10,
  /** Kept for serialization at the end of the time budget. */
  serializeReserveMs: 3_000,
  /** A sample's visitor behaviours (search, links, tabs) take at most this long. */
  behaviourMs: 10_000,
  /** A larger static document is not compared with the rendered DOM: all its text counts as added. */
  maxCompareBytes: 8 * 1024 * 1024,
} as const;

/** How a failed fetch is reported to the page (Chromium's net::ERR_… names). */
const ABORT_REASONS: Record<string, string> = {
  EREFUSEDADDRESS: 'blockedbyclient',
  EBADSCHEME: 'blockedbyclient',
  ETIMEDOUT: 'timedout',
  ENOTFOUND: 'namenotresolved',
  ECONNREFUSED: 'connectionrefused',
};

class RenderTimeout extends Error {}

type Served = CapturedResponse;

function abortReason(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return (typeof code === 'string' && ABORT_REASONS[code]) || 'failed';
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}

export function createRenderer(options: RendererOptions): Renderer {
  const executablePath = options.chromiumPath ?? RENDER_DEFAULTS.chromiumPath;
  const timeoutMs = options.timeoutMs ?? RENDER_DEFAULTS.timeoutMs;
  const viewport = options.viewport ?? RENDER_DEFAULTS.viewport;
  let browserPromise: Promise<Browser> | undefined;
  let closed = false;

  function browser(): Promise<Browser> {
    if (closed) return Promise.reject(new Error('renderer is closed'));
    if (!browserPromise) {
      const launching = launchChromium({ executablePath });
      browserPromise = launching;
      launching.then(
        (b) =>
          b.on('disconnected', () => {
            if (browserPromise === launching) browserPromise = undefined;
          }),
        () => {
          if (browserPromise === launching) browserPromise = undefined;
        },
      );
    }
    return browserPromise;
  }

  /**
   * Runs `work` in a fresh context of the browser within the time limit; the context (and the
   * fetches still in flight) end with it.
   */
  async function inContext<T>(
    url: string,
    work: (context: BrowserContext, deadline: number, signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    const b = await browser();
    const userAgent = options.userAgent ?? userAgentOf(b);
    const context = await openContext(b, {
      viewport,
      userAgent,
      bypassCSP: true,
      reducedMotion: 'reduce',
      timezoneId: 'UTC',
    });
    // Ends the fetches still in flight when the page is done with (or given up on).
    const fetches = new AbortController();
    setMaxListeners(0, fetches.signal);
    let timer: NodeJS.Timeout | undefined;
    try {
      const running = work(context, Date.now() + timeoutMs, fetches.signal);
      const expiry = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new RenderTimeout(`rendering ${url} took over ${timeoutMs} ms`)),
          timeoutMs + 2_000,
        );
      });
      running.catch(() => undefined);
      return await Promise.race([running, expiry]);
    } finally {
      clearTimeout(timer);
      fetches.abort();
      await context.close().catch(() => undefined);
    }
  }

  function render(url: string, call: RenderCall = {}): Promise<RenderResult> {
    return inContext(url, (context, deadline, signal) =>
      renderIn(context, url, deadline, signal, call),
    );
  }

  function loadOffline(url: string, html: Buffer, files: OfflineFiles): Promise<PageProbe> {
    return inContext(url, async (context, deadline) => {
      const target = new URL(url).href;
      await context.addInitScript({ content: INIT_SCRIPT });
      const main = await context.newPage();
      let errors = 0;
      main.on('pageerror', () => errors++);
      const activity = watchActivity(context);
      await context.route('**/*', async (route) => {
        try {
          if (await settledLocally(route)) return;
          const request = route.request();
          const requested = new URL(request.url());
          requested.hash = '';
          if (requested.href === target && request.isNavigationRequest())
            return await route.fulfill({
              status: 200,
              headers: { 'content-type': 'text/html; charset=utf-8' },
              body: html,
            });
          const file =
            request.method() === 'GET'
              ? await files(requested.href).catch(() => undefined)
              : undefined;
          if (!file) return await route.abort('internetdisconnected');
          await route.fulfill({
            status: file.status,
            headers: cleanHeaders(file.headers),
            body: file.body,
          });
        } catch {
          await route.abort('failed').catch(() => undefined);
        }
      });
      context.on('page', (popup) => {
        if (popup !== main) popup.close().catch(() => undefined);
      });
      const remaining = () => deadline - Date.now();
      await main
        .goto(target, { waitUntil: 'load', timeout: Math.max(1_000, remaining() / 2) })
        .catch((error: unknown) => {
          if (main.url() === 'about:blank') throw error;
        });
      await activity.idle(remaining() - RENDER_DEFAULTS.serializeReserveMs);
      await scrollThrough(main, activity, remaining);
      return probeOf(main, () => errors);
    });
  }

  async function renderIn(
    context: BrowserContext,
    startUrl: string,
    deadline: number,
    signal: AbortSignal,
    call: RenderCall,
  ): Promise<RenderResult> {
    const remaining = () => deadline - Date.now();
    const responses: RecordedResponse[] = [];
    let fetchedBytes = 0;
    const getCache = new Map<string, Promise<Served>>();
    let errors = 0;
    /** Set when the main frame's navigation answered with a redirect: followed by `goto`. */
    let pendingNavigation: string | undefined;
    /** Every hop of the main frame's navigation, and the body of its last one (the static HTML). */
    const navigations = new Set<string>();
    let staticHtml: Buffer | undefined;

    /** The whole body, within the per-response (client) and per-page limits. */
    const readBody = async (response: HttpResponse): Promise<Buffer> => {
      const chunks: Uint8Array[] = [];
      for await (const chunk of response.body) {
        fetchedBytes += chunk.byteLength;
        if (fetchedBytes > RENDER_DEFAULTS.maxTotal) {
          throw new NetError(
            'ETOOLARGE',
            `The page fetched over ${RENDER_DEFAULTS.maxTotal} bytes (at ${response.url})`,
            { url: response.url },
          );
        }
        chunks.push(chunk);
      }
      return Buffer.concat(chunks);
    };

    /** One hop: captured, or fetched by the client without following redirects, recorded once. */
    const obtain = (url: string, request: Request, method: string): Promise<Served> => {
      const cacheable = method === 'GET';
      const cached = cacheable ? getCache.get(url) : undefined;
      if (cached) return cached;
      const promise = (async (): Promise<Served> => {
        const bodyless = method === 'GET' || method === 'HEAD';
        if (bodyless) {
          const hit = await options.captured(url).catch(() => undefined);
          if (hit)
            return {
              status: hit.status,
              headers: cleanHeaders(hit.headers),
              body: hit.body,
            };
        }
        const response = await options.client.request(url, {
          method,
          headers: await forwardedHeaders(context, url, request),
          body: bodyless ? undefined : (request.postDataBuffer() ?? undefined),
          followRedirects: false,
          maxBytes: RENDER_DEFAULTS.maxBody,
          signal,
        });
        const body = await readBody(response);
        const headers = cleanHeaders(response.headers);
        const status = response.status;
        responses.push({
          url,
          method,
          status,
          headers,
          body,
          resourceType: request.resourceType(),
        });
        return { status, headers, body };
      })();
      if (cacheable) {
        getCache.set(url, promise);
        promise.catch(() => getCache.delete(url));
      }
      return promise;
    };

    const handle = async (route: Route): Promise<void> => {
      if (await settledLocally(route)) return;
      const request = route.request();
      if (request.resourceType() === 'eventsource') return route.abort('blockedbyclient');
      let mainNavigation = false;
      try {
        mainNavigation = request.isNavigationRequest() && request.frame() === main.mainFrame();
      } catch {
        // Requests of workers have no frame.
      }
      let current = request.url();
      let method = request.method();
      for (let hop = 0; ; hop++) {
        if (mainNavigation) navigations.add(current);
        const served = await obtain(current, request, method);
        const location = REDIRECT_STATUSES.has(served.status) ? served.headers.location : undefined;
        if (location === undefined || hop >= RENDER_DEFAULTS.maxRedirects) {
          if (mainNavigation) staticHtml = served.body;
          return route.fulfill({
            status: served.status,
            headers: served.headers,
            body: served.body,
          });
        }
        const next = new URL(location, current).href;
        if (mainNavigation) {
          // Chromium would follow a fulfilled redirect on its own, past the route handler (into the
          // dead proxy): abort here and navigate to the target, routed like any request.
          pendingNavigation = next;
          return route.abort('aborted');
        }
        if (
          served.status === 303 ||
          ((served.status === 301 || served.status === 302) && method === 'POST')
        )
          method = 'GET';
        current = next;
      }
    };

    await context.addInitScript({ content: INIT_SCRIPT });
    const main = await context.newPage();
    main.on('pageerror', () => errors++);
    await context.route('**/*', async (route) => {
      try {
        await handle(route);
      } catch (error) {
        await route.abort(abortReason(error)).catch(() => undefined);
      }
    });
    const activity = watchActivity(context);

    context.on('page', (popup) => {
      if (popup !== main) popup.close().catch(() => undefined);
    });

    const waitForIdle = () => activity.idle(remaining() - RENDER_DEFAULTS.serializeReserveMs);

    // Load, following main-frame redirects one policed hop at a time.
    let target = new URL(startUrl).href;
    for (let hop = 0; ; hop++) {
      pendingNavigation = undefined;
      try {
        await main.goto(target, {
          waitUntil: 'load',
          timeout: Math.max(
            1_000,
            remaining() - RENDER_DEFAULTS.serializeReserveMs - RENDER_DEFAULTS.idleMaxMs,
          ),
        });
        break;
      } catch (error) {
        const next: string | undefined = pendingNavigation;
        if (next !== undefined && hop < RENDER_DEFAULTS.maxRedirects) {
          target = next;
          continue;
        }
        // A slow subresource held `load` back: go on with what has rendered.
        const timedOut = error instanceof Error && error.name === 'TimeoutError';
        if (timedOut && main.url() !== 'about:blank') break;
        throw error;
      }
    }

    await waitForIdle();
    await scrollThrough(main, activity, remaining);
    const probe = call.sample ? await probeOf(main, () => errors) : undefined;

    const compared =
      staticHtml && staticHtml.length <= RENDER_DEFAULTS.maxCompareBytes
        ? staticHtml.toString('base64')
        : null;
    const changes = (await main
      .evaluate(`(${EVIDENCE_SCRIPT})(${JSON.stringify({ html: compared, url: target })})`)
      .catch(() => null)) as InPageChanges | null;
    const serialized = (await main.evaluate(
      `(${SERIALIZE_SCRIPT})(${JSON.stringify({ maxProbeChars: 1_000_000 })})`,
    )) as { html: string; textLength: number };
    const finalUrl = main.url();
    // The DOM is kept: what a visitor does from here on only adds recorded responses.
    if (call.sample)
      await runBehaviours(main, {
        deadline: Math.min(
          deadline - RENDER_DEFAULTS.serializeReserveMs,
          Date.now() + RENDER_DEFAULTS.behaviourMs,
        ),
        signal,
        waitForIdle,
      }).catch(() => undefined);
    // Which forms its scripts send, on the page as a visitor leaves it (a behaviour may have
    // loaded the script that handles one); never on another document a behaviour left it on.
    const forms =
      withoutFragment(main.url()) === withoutFragment(finalUrl)
        ? await findFormHandlers(
            main,
            Math.min(FORM_HANDLER_LIMITS.budgetMs, remaining() - RENDER_DEFAULTS.idleQuietMs),
          )
        : undefined;
    const isTracker = await trackerMatcher();
    const trackers = new Set<string>();
    const content = (url: string) => {
      const tracker = isTracker(url, finalUrl);
      if (tracker) trackers.add(tracker);
      return tracker === null;
    };
    const newRequests = responses
      .filter((r) => r.method === 'GET' && r.status >= 200 && r.status < 300)
      .filter((r) => content(r.url) && !isPixel(r) && !navigations.has(r.url))
      .map((r) => r.url);
    const addedImages = (changes?.addedImageUrls ?? []).filter(content).length;
    const moved = withoutFragment(finalUrl) !== withoutFragment(target);
    return {
      html: serialized.html,
      finalUrl,
      textLength: serialized.textLength,
      responses,
      evidence: {
        newRequests,
        // A page the comparison failed on counts all its text as added: a wrong "no" loses content.
        addedText: changes?.addedText ?? serialized.textLength,
        addedImages,
        addedLinks: changes?.addedLinks ?? [],
        shadowRoots: changes?.shadowRoots ?? 0,
        insertedStyles: changes?.insertedStyles ?? 0,
        drawnCanvases: changes?.drawnCanvases ?? 0,
        clientRouting: (changes?.clientRouting ?? false) || moved,
        trackers: [...trackers],
      },
      ...(probe ? { probe } : {}),
      ...(forms ? { forms } : {}),
    };
  }

  return {
    render,
    loadOffline,
    async close() {
      closed = true;
      const pending = browserPromise;
      browserPromise = undefined;
      if (pending) await pending.then((b) => b.close()).catch(() => undefined);
    },
  };
}

/** What EVIDENCE_SCRIPT returns (see in-page.ts). */
type InPageChanges = Omit<RenderEvidence, 'newRequests' | 'addedImages' | 'trackers'> & {
  addedImageUrls: string[];
};

/**
 * A tracking pixel: an image of at most 2×2 pixels (read from a GIF's or PNG's header), or any
 * image under 100 bytes. It shows nothing, wherever it comes from.
 */
function isPixel(response: RecordedResponse): boolean {
  if (!(response.headers['content-type'] ?? '').toLowerCase().startsWith('image/')) return false;
  const body = response.body;
  if (body.length < 100) return true;
  const small = (width: number, height: number) => width <= 2 && height <= 2;
  if (body.subarray(0, 4).toString('latin1') === 'GIF8')
    return small(body.readUInt16LE(6), body.readUInt16LE(8));
  if (body.length >= 24 && body.readUInt32BE(0) === 0x89504e47)
    return small(body.readUInt32BE(16), body.readUInt32BE(20));
  return false;
}

function withoutFragment(url: string): string {
  const parsed = new URL(url);
  parsed.hash = '';
  return parsed.href;
}

/** Requests in flight in a context, and when the last one started or ended. */
interface Activity {
  /** Waits for the network to be quiet, at most `idleMaxMs` and at most `budgetMs`. */
  idle(budgetMs: number): Promise<void>;
}

function watchActivity(context: BrowserContext): Activity {
  let inFlight = 0;
  let lastActivity = Date.now();
  context.on('request', () => {
    inFlight++;
    lastActivity = Date.now();
  });
  const settled = () => {
    inFlight = Math.max(0, inFlight - 1);
    lastActivity = Date.now();
  };
  context.on('requestfinished', settled);
  context.on('requestfailed', settled);
  return {
    async idle(budgetMs) {
      const until = Date.now() + Math.min(RENDER_DEFAULTS.idleMaxMs, budgetMs);
      while (Date.now() < until) {
        if (inFlight === 0 && Date.now() - lastActivity >= RENDER_DEFAULTS.idleQuietMs) return;
        await sleep(Math.min(50, until - Date.now()));
      }
    },
  };
}

/**
 * Scrolls to the bottom, each time after the network settled, until the page stops growing (lazy
 * images, infinite lists), then back to the top for one frame.
 */
async function scrollThrough(
  main: Page,
  activity: Activity,
  remaining: () => number,
): Promise<void> {
  let height = Number(
    await main
      .evaluate('(document.scrollingElement || document.documentElement).scrollHeight')
      .catch(() => 0),
  );
  for (let round = 0; round < RENDER_DEFAULTS.scrollMaxRounds; round++) {
    const scrollBudget =
      remaining() - RENDER_DEFAULTS.serializeReserveMs - RENDER_DEFAULTS.idleMaxMs;
    const maxSteps = Math.min(
      RENDER_DEFAULTS.scrollMaxSteps,
      Math.floor(scrollBudget / RENDER_DEFAULTS.scrollStepDelayMs),
    );
    if (maxSteps <= 0) break;
    const args = JSON.stringify({ maxSteps, delay: RENDER_DEFAULTS.scrollStepDelayMs });
    const reached = Number(await main.evaluate(`(${SCROLL_SCRIPT})(${args})`).catch(() => height));
    await activity.idle(remaining() - RENDER_DEFAULTS.serializeReserveMs);
    const grown = Number(
      await main
        .evaluate('(document.scrollingElement || document.documentElement).scrollHeight')
        .catch(() => reached),
    );
    // The page did not grow in a whole round (its scroll and the quiet after it): everything a
    // visitor can scroll to has loaded. Growth that came during the scroll counts too, so an
    // infinite list whose next page lands before the scroll ends gets its next round.
    if (Math.max(grown, reached) <= height) break;
    height = Math.max(grown, reached);
  }
  await main.evaluate('window.scrollTo(0, 0)').catch(() => undefined);
  // One frame for scroll-linked layout, then snapshot.
  await sleep(50);
}

/** The page's first screen, text and errors so far. */
async function probeOf(main: Page, errors: () => number): Promise<PageProbe> {
  const screenshot = await main.screenshot({ type: 'png', timeout: 10_000 });
  const text = String(
    await main
      .evaluate('document.body ? document.body.innerText.slice(0, 200000) : ""')
      .catch(() => ''),
  );
  return { screenshot, text, errors: errors() };
}
