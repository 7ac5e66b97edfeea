/**
 * The render tier: loads a page in headless Chromium, lets its scripts build the DOM, and
 * serializes the result. Every request the page makes goes through one route handler, which serves
 * already-captured bodies and answers the rest with the engine's HTTP client (redirect hop by
 * redirect hop), recording each response, so the crawler can store what the page's scripts read at
 * run time. The client checks each address when it connects and connects to that address, so a
 * name that rebinds gains nothing; Chromium itself reaches no network (see chromium.ts).
 */
import { setMaxListeners } from 'node:events';
import type { Browser, BrowserContext, Request, Route } from 'playwright-core';
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
import { EVIDENCE_SCRIPT, INIT_SCRIPT, SCROLL_SCRIPT, SERIALIZE_SCRIPT } from './in-page.js';

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
}

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
  /** Images whose URL the static HTML does not mention. */
  addedImages: number;
  /** http(s) links the static HTML does not have (the first 200). */
  addedLinks: string[];
  /** Shadow roots beyond the static HTML's declarative ones. */
  shadowRoots: number;
  /** Style elements and style-sheet links inserted, sheets edited through the CSSOM, adopted sheets. */
  insertedStyles: number;
  /** Canvases something was drawn on. */
  drawnCanvases: number;
  /** History API calls, popstate/hashchange listeners, or a location that changed after load. */
  clientRouting: boolean;
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

export interface Renderer {
  render(url: string): Promise<RenderResult>;
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

  async function render(url: string): Promise<RenderResult> {
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
      const deadline = Date.now() + timeoutMs;
      const work = renderIn(context, url, deadline, fetches.signal);
      const expiry = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new RenderTimeout(`rendering ${url} took over ${timeoutMs} ms`)),
          timeoutMs + 2_000,
        );
      });
      work.catch(() => undefined);
      return await Promise.race([work, expiry]);
    } finally {
      clearTimeout(timer);
      fetches.abort();
      await context.close().catch(() => undefined);
    }
  }

  async function renderIn(
    context: BrowserContext,
    startUrl: string,
    deadline: number,
    signal: AbortSignal,
  ): Promise<RenderResult> {
    const remaining = () => deadline - Date.now();
    const responses: RecordedResponse[] = [];
    let fetchedBytes = 0;
    const getCache = new Map<string, Promise<Served>>();
    let inFlight = 0;
    let lastActivity = Date.now();
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
    await context.route('**/*', async (route) => {
      try {
        await handle(route);
      } catch (error) {
        await route.abort(abortReason(error)).catch(() => undefined);
      }
    });
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

    context.on('page', (popup) => {
      if (popup !== main) popup.close().catch(() => undefined);
    });

    const waitForIdle = async () => {
      const until =
        Date.now() +
        Math.min(RENDER_DEFAULTS.idleMaxMs, remaining() - RENDER_DEFAULTS.serializeReserveMs);
      while (Date.now() < until) {
        if (inFlight === 0 && Date.now() - lastActivity >= RENDER_DEFAULTS.idleQuietMs) return;
        await sleep(Math.min(50, until - Date.now()));
      }
    };

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
    let height = 0;
    for (let round = 0; round < RENDER_DEFAULTS.scrollMaxRounds; round++) {
      const scrollBudget =
        remaining() - RENDER_DEFAULTS.serializeReserveMs - RENDER_DEFAULTS.idleMaxMs;
      const maxSteps = Math.min(
        RENDER_DEFAULTS.scrollMaxSteps,
        Math.floor(scrollBudget / RENDER_DEFAULTS.scrollStepDelayMs),
      );
      if (maxSteps <= 0) break;
      const args = JSON.stringify({ maxSteps, delay: RENDER_DEFAULTS.scrollStepDelayMs });
      const reached = Number(
        await main.evaluate(`(${SCROLL_SCRIPT})(${args})`).catch(() => height),
      );
      await waitForIdle();
      const grown = Number(
        await main
          .evaluate('(document.scrollingElement || document.documentElement).scrollHeight')
          .catch(() => reached),
      );
      // The page stopped growing: everything a visitor can scroll to has loaded.
      if (grown <= height || grown <= reached) break;
      height = grown;
    }
    await main.evaluate('window.scrollTo(0, 0)').catch(() => undefined);
    // One frame for scroll-linked layout, then snapshot.
    await sleep(50);

    const compared =
      staticHtml && staticHtml.length <= RENDER_DEFAULTS.maxCompareBytes
        ? staticHtml.toString('base64')
        : null;
    const changes = (await main
      .evaluate(`(${EVIDENCE_SCRIPT})(${JSON.stringify({ html: compared, url: target })})`)
      .catch(() => null)) as Omit<RenderEvidence, 'newRequests'> | null;
    const serialized = (await main.evaluate(
      `(${SERIALIZE_SCRIPT})(${JSON.stringify({ maxProbeChars: 1_000_000 })})`,
    )) as { html: string; textLength: number };
    const finalUrl = main.url();
    const newRequests = responses
      .filter((r) => r.method === 'GET' && r.status >= 200 && r.status < 300)
      .map((r) => r.url)
      .filter((url) => !navigations.has(url));
    return {
      html: serialized.html,
      finalUrl,
      textLength: serialized.textLength,
      responses,
      evidence: {
        newRequests,
        // A page the comparison failed on counts all its text as added: a wrong "no" loses content.
        ...(changes ?? {
          addedText: serialized.textLength,
          addedImages: 0,
          addedLinks: [],
          shadowRoots: 0,
          insertedStyles: 0,
          drawnCanvases: 0,
          clientRouting: false,
        }),
        clientRouting: (changes?.clientRouting ?? false) || new URL(finalUrl).href !== target,
      },
    };
  }

  return {
    render,
    async close() {
      closed = true;
      const pending = browserPromise;
      browserPromise = undefined;
      if (pending) await pending.then((b) => b.close()).catch(() => undefined);
    },
  };
}
