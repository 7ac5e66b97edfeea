/**
 * Renders of pages for the fidelity check, made to agree with another render of the same page:
 * the same frozen clock and seeded `Math.random`, answers delivered in the order Chromium asked
 * for them, CSS animations finished or cancelled and the clock paused when the screenshot is
 * taken. Every request goes through the route handler and is answered from Node (the original's
 * by the caller's pinned client, the copy's only from the copy's origin), so Chromium reaches no
 * network of its own (render/chromium.ts); the handler also counts failed requests and, for the
 * copy, requests that leave its origin. Uncaught errors of the page's scripts are kept too.
 *
 * Renders run in lanes: a browser context and its tab, kept for one side (original or copy) and
 * one viewport, so the next page of the same site loads in the renderer process already running
 * (a new context costs a process: more than half the CPU of a render). Between renders a lane
 * forgets the visit: cookies, local and session storage cleared, the tab sent to about:blank and
 * the clock set back. At most `maxOpen` lanes are open; a lane whose render failed is closed, and
 * one that served `visitsPerLane` renders too (a renderer's memory grows with the pages it shows).
 */
import { setMaxListeners } from 'node:events';
import type { Browser, BrowserContext, CDPSession, Page, Request, Route } from 'playwright-core';
import type { HttpClient } from '../net/http-client.js';
import {
  cleanHeaders,
  forwardedHeaders,
  openContext,
  REDIRECT_STATUSES,
  userAgentOf,
} from '../render/chromium.js';
import { corsAllows, corsOriginOf, originAfterRedirect, preflightAllows } from '../render/cors.js';
import { FIDELITY_SCRIPT_ERRORS } from './verdict.js';

export interface RenderSide {
  /**
   * Tells lanes apart: a lane serves one side (the fidelity check's original and copy, the visual
   * diff's versions before and after).
   */
  name: 'original' | 'copy' | 'before' | 'after';
  client: HttpClient;
  /** Set for the copy: requests to any other origin are refused and listed as external. */
  ownOrigin?: string;
}

export interface RenderRequest {
  url: string;
  viewport: { width: number; height: number };
  mobile: boolean;
  side: RenderSide;
  maxHeight: number;
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface PageCapture {
  /** Full page, up to `maxHeight`, at the viewport's width. */
  png: Buffer;
  /** Visible text: the body's `innerText` and that of open shadow roots. */
  text: string;
  /** The document's scroll height, uncut. */
  height: number;
  failed: { url: string; reason: string }[];
  external: string[];
  /**
   * Uncaught errors of the page's scripts (Playwright's `pageerror`), each message once, in the
   * order they happened: `TypeError: Cannot read properties of undefined (reading 'title')`.
   */
  errors: string[];
}

export interface RenderLanes {
  capture(request: RenderRequest): Promise<PageCapture>;
  close(): Promise<void>;
}

const RANDOM_SEED_SCRIPT = `(() => {
  let seed = 0x5eed1234;
  Math.random = function random() {
    seed ^= seed << 13; seed ^= seed >>> 17; seed ^= seed << 5;
    return (seed >>> 0) / 4294967296;
  };
})();`;

const VISIBLE_TEXT_SCRIPT = `(() => {
  const parts = [document.body ? document.body.innerText : ''];
  const visit = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (!el.shadowRoot) continue;
      parts.push(Array.from(el.shadowRoot.childNodes, (node) =>
        node.nodeType === Node.TEXT_NODE ? node.textContent
          : node instanceof HTMLElement && !['STYLE', 'SCRIPT'].includes(node.tagName) ? node.innerText : '').join(' '));
      visit(el.shadowRoot);
    }
  };
  visit(document);
  return parts.join('\\n');
})()`;

const HEIGHT_SCRIPT =
  'Math.max((document.scrollingElement || document.documentElement).scrollHeight, document.body ? document.body.scrollHeight : 0)';
const IMAGES_DONE_SCRIPT =
  'Array.from(document.images).every((img) => !img.currentSrc || img.complete)';
const FORGET_SCRIPT = 'try { localStorage.clear(); sessionStorage.clear(); } catch {}';
/**
 * Before the screenshot, on both sides alike: CSS animations and transitions that end are
 * finished (an element fading in is shown as it ends up; a style sheet with `animation: none`
 * would leave it invisible), endless ones cancelled, and the text caret hidden.
 */
const STILL_SCRIPT = `(() => {
  for (const animation of document.getAnimations()) {
    try {
      const end = animation.effect ? animation.effect.getComputedTiming().endTime : Infinity;
      if (Number.isFinite(end)) animation.finish(); else animation.cancel();
    } catch {}
  }
  const style = document.createElement('style');
  style.textContent = '*, *::before, *::after { caret-color: transparent !important; }';
  (document.head || document.documentElement).appendChild(style);
  return true;
})()`;

export const RENDER_PAGE_DEFAULTS = {
  /** Network idle: nothing in flight for this long… */
  quietMs: 150,
  /** …waited for at most this long after load. */
  settleMaxMs: 3_000,
  /** After each scroll step (lazy images). */
  scrollSettleMaxMs: 1_000,
  maxBody: 50 * 1024 * 1024,
  maxTotal: 200 * 1024 * 1024,
  maxRedirects: 10,
  /** Renders before a lane's context (and renderer process) is closed and opened afresh. */
  visitsPerLane: 25,
  /** Uncaught script errors kept per render (distinct messages)… */
  maxErrors: 100,
  /** …each cut to this many characters. */
  maxErrorLength: FIDELITY_SCRIPT_ERRORS.maxLength,
} as const;

interface Served {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

type Outcome = { served: Served } | { abort: string } | { continue: true };

/** What one render of a lane keeps: its requests, answers and counters. */
interface Visit {
  side: RenderSide;
  deadline: number;
  signal: AbortSignal;
  failed: PageCapture['failed'];
  external: string[];
  errors: string[];
  cache: Map<string, Promise<Served>>;
  fetchedBytes: number;
  inFlight: number;
  lastActivity: number;
  pendingNavigation: string | undefined;
  /** Answers are handed to Chromium in the order it asked, one after the other. */
  delivered: Promise<void>;
}

interface Lane {
  key: string;
  context: BrowserContext;
  page: Page;
  /**
   * The tab's DevTools session: page scripts are evaluated and screenshots taken through it, not
   * through Playwright's `evaluate`, which sends and compiles its own helper script in every new
   * document (a third of the check's CPU when measured).
   */
  cdp: CDPSession;
  visit: Visit | undefined;
  visits: number;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}

function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'failed';
}

/**
 * The instant every render of one check starts at (its minute): both sides read one date, so a
 * page that prints the time shows the same time on both.
 */
export function frozenMinute(ms: number): number {
  return Math.floor(ms / 60_000) * 60_000;
}

/**
 * Lanes on `browser` for one check: every render starts with `Date.now()` at `frozenTime`.
 * `capture` waits for a lane when `maxOpen` are busy.
 */
export function createRenderLanes(
  browser: Browser,
  options: { maxOpen: number; frozenTime: number },
): RenderLanes {
  const idle: Lane[] = [];
  let open = 0;
  const waiting: (() => void)[] = [];
  let closed = false;

  const laneKey = (request: RenderRequest) =>
    `${request.side.name} ${request.viewport.width}x${request.viewport.height} ${request.mobile}`;

  async function openLane(key: string, request: RenderRequest): Promise<Lane> {
    const context = await openContext(browser, {
      viewport: request.viewport,
      deviceScaleFactor: 1,
      isMobile: request.mobile,
      hasTouch: request.mobile,
      userAgent: userAgentOf(browser, request.mobile),
      reducedMotion: 'reduce',
      timezoneId: 'UTC',
      locale: 'en-US',
      colorScheme: 'light',
    });
    try {
      await context.clock.install({ time: options.frozenTime });
      await context.addInitScript({ content: RANDOM_SEED_SCRIPT });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      const lane: Lane = { key, context, page, cdp, visit: undefined, visits: 0 };
      page.on('pageerror', (error) => {
        const visit = lane.visit;
        if (visit) keepError(visit.errors, error);
      });
      context.on('page', (popup) => {
        if (popup !== page) popup.close().catch(() => undefined);
      });
      const owner = new WeakMap<Request, Visit>();
      context.on('request', (req) => {
        const visit = lane.visit;
        if (!visit) return;
        owner.set(req, visit);
        visit.inFlight++;
        visit.lastActivity = Date.now();
      });
      const settled = (req: Request) => {
        const visit = owner.get(req);
        if (!visit) return;
        visit.inFlight = Math.max(0, visit.inFlight - 1);
        visit.lastActivity = Date.now();
      };
      context.on('requestfinished', settled);
      context.on('requestfailed', settled);
      await context.route('**/*', (route: Route) => {
        const visit = lane.visit;
        if (!visit) return void route.abort('aborted').catch(() => undefined);
        const outcome = answer(lane, visit, route.request());
        visit.delivered = visit.delivered
          .then(async () => {
            const result = await outcome.catch((): Outcome => ({ abort: 'failed' }));
            if ('served' in result) await route.fulfill(result.served);
            else if ('abort' in result) await route.abort(result.abort);
            else await route.continue();
          })
          // A request Chromium gave up on meanwhile cannot be answered: the next one goes on.
          .catch(() => undefined);
      });
      return lane;
    } catch (error) {
      await context.close().catch(() => undefined);
      throw error;
    }
  }

  /** Open lanes of each kind, busy or idle. */
  const openByKey = new Map<string, number>();
  const count = (key: string, delta: number) =>
    openByKey.set(key, (openByKey.get(key) ?? 0) + delta);

  async function acquire(key: string, request: RenderRequest): Promise<Lane> {
    for (;;) {
      if (closed) throw new Error('the fidelity check is over');
      const same = idle.findIndex((lane) => lane.key === key);
      if (same !== -1) return idle.splice(same, 1)[0]!;
      // Room for a new lane; else an idle lane of another kind makes room, unless a lane of this
      // kind is busy and will be free soon (closing lanes back and forth is what lanes avoid).
      const room = open < options.maxOpen;
      const evict = !room && (openByKey.get(key) ?? 0) === 0 ? idle.shift() : undefined;
      if (room || evict) {
        if (evict) {
          count(evict.key, -1);
          await evict.context.close().catch(() => undefined);
        } else open++;
        count(key, 1);
        try {
          return await openLane(key, request);
        } catch (error) {
          release(key, undefined);
          throw error;
        }
      }
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
  }

  /** A lane back for the next render, or (undefined) its place given up. */
  function release(key: string, lane: Lane | undefined): void {
    if (lane && !closed) idle.push(lane);
    else {
      open--;
      count(key, -1);
      if (lane) void lane.context.close().catch(() => undefined);
    }
    // Everyone waiting looks again: the lane freed may suit one, the room another.
    for (const wake of waiting.splice(0)) wake();
  }

  async function capture(request: RenderRequest): Promise<PageCapture> {
    const key = laneKey(request);
    const lane = await acquire(key, request);
    const fetches = new AbortController();
    setMaxListeners(0, fetches.signal);
    const stop = () => fetches.abort();
    request.signal?.addEventListener('abort', stop, { once: true });
    let timer: NodeJS.Timeout | undefined;
    let healthy = false;
    try {
      const work = renderIn(lane, request, fetches.signal, options.frozenTime);
      work.catch(() => undefined);
      const expiry = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`rendering ${request.url} took over ${request.timeoutMs} ms`)),
          request.timeoutMs,
        );
      });
      const result = await Promise.race([work, expiry]);
      healthy = true;
      return result;
    } finally {
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', stop);
      fetches.abort();
      // A renderer grows with every page it shows: a lane is renewed now and then.
      if (healthy)
        healthy = ++lane.visits < RENDER_PAGE_DEFAULTS.visitsPerLane && (await forget(lane));
      lane.visit = undefined;
      if (!healthy) await lane.context.close().catch(() => undefined);
      release(key, healthy ? lane : undefined);
    }
  }

  return {
    capture,
    async close() {
      closed = true;
      for (const lane of idle.splice(0)) await lane.context.close().catch(() => undefined);
      for (const wake of waiting.splice(0)) wake();
    },
  };
}

/**
 * The value of a script in the tab's page (awaited when it is a promise). A page that navigates
 * itself meanwhile (a script's redirect) is asked again in its new document.
 */
async function evaluate(lane: Lane, expression: string): Promise<unknown> {
  for (let attempt = 1; ; attempt++) {
    try {
      const answer = await lane.cdp.send('Runtime.evaluate', {
        expression,
        returnByValue: true,
        awaitPromise: true,
      });
      if (answer.exceptionDetails) {
        const { exception, text } = answer.exceptionDetails;
        throw Object.assign(new Error(exception?.description ?? text), { inPage: true });
      }
      return answer.result.value as unknown;
    } catch (error) {
      if (attempt >= 3 || (error as { inPage?: boolean }).inPage) throw error;
      await sleep(100);
    }
  }
}

/** An uncaught error's message as the console shows it (`TypeError: …`), once, up to the limits. */
function keepError(errors: string[], error: Error): void {
  const { name, message } = error;
  const text = (name && message ? `${name}: ${message}` : message || name || String(error)).slice(
    0,
    RENDER_PAGE_DEFAULTS.maxErrorLength,
  );
  if (errors.length < RENDER_PAGE_DEFAULTS.maxErrors && !errors.includes(text)) errors.push(text);
}

/** Leaves the page and forgets the visit. False when the lane no longer answers. */
async function forget(lane: Lane): Promise<boolean> {
  try {
    await evaluate(lane, FORGET_SCRIPT);
    await lane.page.goto('about:blank', { timeout: 5_000 });
    await lane.context.clearCookies();
    return true;
  } catch {
    return false;
  }
}

/** One hop, not following redirects; GETs once per visit. */
function obtain(lane: Lane, visit: Visit, url: string, req: Request, method: string) {
  const cached = method === 'GET' ? visit.cache.get(url) : undefined;
  if (cached) return cached;
  const promise = (async (): Promise<Served> => {
    const bodyless = method === 'GET' || method === 'HEAD';
    const response = await visit.side.client.request(url, {
      method,
      headers: await forwardedHeaders(lane.context, url, req),
      body: bodyless ? undefined : (req.postDataBuffer() ?? undefined),
      followRedirects: false,
      maxBytes: RENDER_PAGE_DEFAULTS.maxBody,
      maxRequestMs: Math.max(1_000, visit.deadline - Date.now()),
      signal: visit.signal,
    });
    const chunks: Uint8Array[] = [];
    for await (const chunk of response.body) {
      visit.fetchedBytes += chunk.byteLength;
      if (visit.fetchedBytes > RENDER_PAGE_DEFAULTS.maxTotal) {
        throw Object.assign(new Error('the page fetched too much'), { code: 'ETOOLARGE' });
      }
      chunks.push(chunk);
    }
    return {
      status: response.status,
      headers: cleanHeaders(response.headers),
      body: Buffer.concat(chunks),
    };
  })();
  if (method === 'GET') {
    visit.cache.set(url, promise);
    promise.catch(() => visit.cache.delete(url));
  }
  return promise;
}

async function answer(lane: Lane, visit: Visit, req: Request): Promise<Outcome> {
  let current = req.url();
  if (current.startsWith('data:') || current.startsWith('blob:')) return { continue: true };
  if (!/^https?:/i.test(current)) return { abort: 'blockedbyclient' };
  if (req.resourceType() === 'eventsource') return { abort: 'blockedbyclient' };
  let mainNavigation = false;
  try {
    mainNavigation = req.isNavigationRequest() && req.frame() === lane.page.mainFrame();
  } catch {
    // Requests of workers have no frame.
  }
  const own = visit.side.ownOrigin;
  let method = req.method();
  // A cross-origin request of a script is answered as a browser would (issue 30, item 10): its
  // preflight asked first, an answer that does not allow the page's origin refused (unread).
  let corsOrigin = corsOriginOf(req, current);
  for (let hop = 0; ; hop++) {
    if (own !== undefined && new URL(current).origin !== own) {
      visit.external.push(current);
      return { abort: 'blockedbyclient' };
    }
    let served: Served;
    try {
      if (
        hop === 0 &&
        corsOrigin !== null &&
        !(await preflightAllows(visit.side.client, current, corsOrigin, method, req, {
          signal: visit.signal,
          maxRequestMs: Math.max(1_000, visit.deadline - Date.now()),
        }))
      ) {
        visit.failed.push({ url: current, reason: 'CORS' });
        return { abort: 'failed' };
      }
      served = await obtain(lane, visit, current, req, method);
    } catch (error) {
      visit.failed.push({ url: current, reason: errorCode(error) });
      return { abort: 'failed' };
    }
    if (corsOrigin !== null && !corsAllows(corsOrigin, served.headers)) {
      visit.failed.push({ url: current, reason: 'CORS' });
      return { abort: 'failed' };
    }
    const location = REDIRECT_STATUSES.has(served.status) ? served.headers.location : undefined;
    if (location === undefined || hop >= RENDER_PAGE_DEFAULTS.maxRedirects) {
      if (served.status >= 400)
        visit.failed.push({ url: current, reason: `HTTP ${served.status}` });
      return { served };
    }
    const next = new URL(location, current).href;
    if (mainNavigation) {
      // Chromium would follow a fulfilled redirect past the route handler: navigate instead.
      visit.pendingNavigation = next;
      return { abort: 'aborted' };
    }
    if (
      served.status === 303 ||
      ((served.status === 301 || served.status === 302) && method === 'POST')
    )
      method = 'GET';
    if (corsOrigin !== null) corsOrigin = originAfterRedirect(corsOrigin, current, next);
    current = next;
  }
}

async function renderIn(
  lane: Lane,
  request: RenderRequest,
  signal: AbortSignal,
  frozenTime: number,
): Promise<PageCapture> {
  const { page, context } = lane;
  const visit: Visit = {
    side: request.side,
    deadline: Date.now() + request.timeoutMs,
    signal,
    failed: [],
    external: [],
    errors: [],
    cache: new Map(),
    fetchedBytes: 0,
    inFlight: 0,
    lastActivity: Date.now(),
    pendingNavigation: undefined,
    delivered: Promise.resolve(),
  };
  lane.visit = visit;
  // Every visit starts at the same instant, the clock running (the last one left it paused).
  await context.clock.setSystemTime(frozenTime);
  await context.clock.resume();

  const remaining = () => visit.deadline - Date.now();
  const waitForQuiet = async (maxMs: number) => {
    const until = Date.now() + Math.min(maxMs, remaining() - 2_000);
    while (Date.now() < until) {
      if (visit.inFlight === 0 && Date.now() - visit.lastActivity >= RENDER_PAGE_DEFAULTS.quietMs)
        return;
      await sleep(25);
    }
  };

  let target = request.url;
  for (let hop = 0; ; hop++) {
    visit.pendingNavigation = undefined;
    try {
      await page.goto(target, { waitUntil: 'load', timeout: Math.max(1_000, remaining() - 3_000) });
      break;
    } catch (error) {
      const next: string | undefined = visit.pendingNavigation;
      if (next !== undefined && hop < RENDER_PAGE_DEFAULTS.maxRedirects) {
        target = next;
        continue;
      }
      const timedOut = error instanceof Error && error.name === 'TimeoutError';
      if (timedOut && page.url() !== 'about:blank') break;
      throw error;
    }
  }
  await waitForQuiet(RENDER_PAGE_DEFAULTS.settleMaxMs);

  // Lazy images and observers below the fold, down to the height cap, then back to the top.
  const viewportHeight = request.viewport.height;
  const fullHeight = Number(await evaluate(lane, HEIGHT_SCRIPT));
  const reach = Math.min(fullHeight, request.maxHeight);
  if (reach > viewportHeight) {
    for (let y = viewportHeight; y < reach; y += viewportHeight) {
      await evaluate(lane, `window.scrollTo(0, ${y})`);
      await waitForQuiet(RENDER_PAGE_DEFAULTS.scrollSettleMaxMs);
    }
    await evaluate(lane, 'window.scrollTo(0, 0)');
    await waitForQuiet(RENDER_PAGE_DEFAULTS.scrollSettleMaxMs);
  }
  await settleImagesAndFonts(lane);
  await pauseClock(lane);

  const height = Number(await evaluate(lane, HEIGHT_SCRIPT));
  const text = String(await evaluate(lane, VISIBLE_TEXT_SCRIPT).catch(() => ''));
  await evaluate(lane, STILL_SCRIPT);
  const shot = await lane.cdp.send('Page.captureScreenshot', {
    format: 'png',
    clip: {
      x: 0,
      y: 0,
      width: request.viewport.width,
      height: Math.max(1, Math.min(height, request.maxHeight)),
      scale: 1,
    },
    captureBeyondViewport: true,
    optimizeForSpeed: true,
  });
  const png = Buffer.from(shot.data, 'base64');
  return {
    png,
    text,
    height,
    failed: visit.failed,
    external: visit.external,
    // A copy: errors of the page's unload (the lane leaving it) are not this render's.
    errors: [...visit.errors],
  };
}

/**
 * From here no timer fires: nothing moves between the last look and the screenshot. The page's
 * clock runs on while we ask it the time, so the pause is set a little ahead (timers due in that
 * moment fire first); a page too busy to answer in time is shot without the pause.
 */
async function pauseClock(lane: Lane): Promise<void> {
  for (const ahead of [100, 1_000]) {
    const pageNow = Number(await evaluate(lane, 'Date.now()'));
    try {
      await lane.context.clock.pauseAt(pageNow + ahead);
      return;
    } catch {
      // "Cannot fast-forward to the past": try once more, further ahead.
    }
  }
}

/** Until every image that has a source is loaded (or broken) and the fonts are ready, up to 2 s. */
async function settleImagesAndFonts(lane: Lane): Promise<void> {
  const until = Date.now() + 2_000;
  while (Date.now() < until) {
    if (await evaluate(lane, IMAGES_DONE_SCRIPT).catch(() => true)) break;
    await sleep(50);
  }
  await Promise.race([
    evaluate(lane, 'document.fonts.ready.then(() => true)').catch(() => undefined),
    sleep(Math.max(0, until - Date.now())),
  ]);
}
