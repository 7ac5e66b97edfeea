/**
 * The render tier: loads a page in headless Chromium, lets its scripts build the DOM, and
 * serializes the result. Every request the page makes goes through one route handler, which asks
 * the caller's address policy first, serves already-captured bodies, and otherwise fetches the
 * response once (from Node, redirect hop by redirect hop, each hop checked) and records it, so the
 * crawler can store what the page's scripts read at run time.
 */
import type { APIResponse, Browser, BrowserContext, Request, Route } from 'playwright-core';
import { INIT_SCRIPT, SCROLL_SCRIPT, SERIALIZE_SCRIPT } from './in-page.js';

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
}

export interface CapturedResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export interface RendererOptions {
  /** Default /usr/bin/chromium. */
  chromiumPath?: string;
  /** Called for every request (and every redirect hop) the page makes; false → aborted. */
  isAllowed(url: string): Promise<boolean>;
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
  /** Bodies above this are served to the page but not recorded. */
  maxRecordedBody: 50 * 1024 * 1024,
  /** All recorded bodies of one page together. */
  maxRecordedTotal: 256 * 1024 * 1024,
  maxRedirects: 10,
  /** Network idle: no request in flight for this long… */
  idleQuietMs: 500,
  /** …waited for at most this long each time. */
  idleMaxMs: 5_000,
  scrollMaxSteps: 40,
  scrollStepDelayMs: 100,
  /** Kept for serialization at the end of the time budget. */
  serializeReserveMs: 3_000,
} as const;

/** Flags Chromium needs here: headless as root, no GPU, and no calls home on a closed network. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Dropped from recorded and served headers: the body is already decoded and re-framed. */
const HOP_HEADERS = new Set([
  'content-encoding',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
]);

const REDIRECT = new Set([301, 302, 303, 307, 308]);

class RenderTimeout extends Error {}

type Served = CapturedResponse;

function cleanHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const key = name.toLowerCase();
    if (!HOP_HEADERS.has(key)) out[key] = value;
  }
  return out;
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
      // playwright-core is large: load it only when a page is actually rendered.
      const launching = import('playwright-core').then(({ chromium }) =>
        chromium.launch({ executablePath, args: CHROMIUM_ARGS }),
      );
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
    const userAgent =
      options.userAgent ??
      `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${b.version()} Safari/537.36`;
    const context = await b.newContext({
      viewport,
      userAgent,
      serviceWorkers: 'block',
      bypassCSP: true,
      reducedMotion: 'reduce',
      acceptDownloads: false,
      timezoneId: 'UTC',
    });
    let timer: NodeJS.Timeout | undefined;
    try {
      const deadline = Date.now() + timeoutMs;
      const work = renderIn(context, url, deadline);
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
      await context.close().catch(() => undefined);
    }
  }

  async function renderIn(
    context: BrowserContext,
    startUrl: string,
    deadline: number,
  ): Promise<RenderResult> {
    const remaining = () => deadline - Date.now();
    const responses: RecordedResponse[] = [];
    let recordedBytes = 0;
    const allowedCache = new Map<string, Promise<boolean>>();
    const getCache = new Map<string, Promise<Served>>();
    let inFlight = 0;
    let lastActivity = Date.now();
    /** Set when the main frame's navigation answered with a redirect: followed by `goto`. */
    let pendingNavigation: string | undefined;

    const allowed = (url: string): Promise<boolean> => {
      let result = allowedCache.get(url);
      if (!result) {
        result = options.isAllowed(url).catch(() => false);
        allowedCache.set(url, result);
      }
      return result;
    };

    const record = (
      url: string,
      method: string,
      response: APIResponse,
      body: Buffer,
      resourceType: string,
    ) => {
      const headers = cleanHeaders(response.headers());
      if (
        body.length <= RENDER_DEFAULTS.maxRecordedBody &&
        recordedBytes + body.length <= RENDER_DEFAULTS.maxRecordedTotal
      ) {
        recordedBytes += body.length;
        responses.push({ url, method, status: response.status(), headers, body, resourceType });
      }
      return headers;
    };

    /** One hop: captured, or fetched from Node without following redirects, recorded once. */
    const obtain = (
      url: string,
      request: Request,
      route: Route | undefined,
      method: string,
    ): Promise<Served> => {
      const cacheable = method === 'GET';
      const cached = cacheable ? getCache.get(url) : undefined;
      if (cached) return cached;
      const promise = (async (): Promise<Served> => {
        if (method === 'GET' || method === 'HEAD') {
          const hit = await options.captured(url).catch(() => undefined);
          if (hit)
            return {
              status: hit.status,
              headers: cleanHeaders(hit.headers),
              body: hit.body,
            };
        }
        const timeout = Math.max(1_000, remaining());
        const response = route
          ? await route.fetch({ maxRedirects: 0, timeout })
          : await context.request.fetch(url, {
              method,
              headers: Object.fromEntries(
                Object.entries(request.headers()).filter(
                  ([name]) => !['host', 'content-length', 'cookie'].includes(name),
                ),
              ),
              data:
                method === 'GET' || method === 'HEAD'
                  ? undefined
                  : (request.postDataBuffer() ?? undefined),
              maxRedirects: 0,
              timeout,
            });
        const body = await response.body();
        const headers = record(url, method, response, body, request.resourceType());
        return { status: response.status(), headers, body };
      })();
      if (cacheable) {
        getCache.set(url, promise);
        promise.catch(() => getCache.delete(url));
      }
      return promise;
    };

    const handle = async (route: Route): Promise<void> => {
      const request = route.request();
      const url = request.url();
      if (url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
      // WebSocket handshakes are routed too: policed, then left to the browser (nothing to record).
      if (/^wss?:/i.test(url))
        return (await allowed(url)) ? route.continue() : route.abort('blockedbyclient');
      if (!/^https?:/i.test(url) || request.resourceType() === 'eventsource')
        return route.abort('blockedbyclient');
      let mainNavigation = false;
      try {
        mainNavigation = request.isNavigationRequest() && request.frame() === main.mainFrame();
      } catch {
        // Requests of workers have no frame.
      }
      let current = url;
      let method = request.method();
      for (let hop = 0; ; hop++) {
        if (!(await allowed(current))) return route.abort('blockedbyclient');
        const served = await obtain(current, request, hop === 0 ? route : undefined, method);
        const location = REDIRECT.has(served.status) ? served.headers.location : undefined;
        if (location === undefined || hop >= RENDER_DEFAULTS.maxRedirects) {
          return route.fulfill({
            status: served.status,
            headers: served.headers,
            body: served.body,
          });
        }
        const next = new URL(location, current).href;
        if (mainNavigation) {
          // Chromium follows a fulfilled redirect without routing the next hop, so the policy would
          // be bypassed: abort here and navigate to the target ourselves (routed like any request).
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
      } catch {
        await route.abort('failed').catch(() => undefined);
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
    let target = startUrl;
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
    const scrollBudget =
      remaining() - RENDER_DEFAULTS.serializeReserveMs - RENDER_DEFAULTS.idleMaxMs;
    const maxSteps = Math.min(
      RENDER_DEFAULTS.scrollMaxSteps,
      Math.floor(scrollBudget / RENDER_DEFAULTS.scrollStepDelayMs),
    );
    if (maxSteps > 0) {
      const args = JSON.stringify({ maxSteps, delay: RENDER_DEFAULTS.scrollStepDelayMs });
      await main.evaluate(`(${SCROLL_SCRIPT})(${args})`).catch(() => undefined);
    }
    await waitForIdle();
    await main.evaluate('window.scrollTo(0, 0)').catch(() => undefined);
    // One frame for scroll-linked layout, then snapshot.
    await sleep(50);

    const serialized = (await main.evaluate(
      `(${SERIALIZE_SCRIPT})(${JSON.stringify({ maxProbeChars: 1_000_000 })})`,
    )) as { html: string; textLength: number };
    return {
      html: serialized.html,
      finalUrl: main.url(),
      textLength: serialized.textLength,
      responses,
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
