/**
 * The server's one headless Chromium: launched on first use, shared by every caller of the process,
 * relaunched after a crash, closed with the app. Each use gets a fresh context (no cookies, storage
 * or cache shared between uses) and at most `maxPages` run at once; the rest wait in line.
 *
 * Chromium is launched and its contexts opened by the engine (`launchChromium`, `openContext`), as
 * for the render tier: it never reaches the network on its own (a dead proxy, WebRTC without
 * sockets of its own), service workers are blocked and WebSockets refused. Callers serve every
 * request themselves with `route.fulfill` — from Node under the address policy, or from stored
 * blobs — after `settledLocally`, which refuses schemes other than http(s).
 */
import { launchChromium, openContext } from '@mirror/engine';
import type { FastifyBaseLogger } from 'fastify';
import type { Browser, BrowserContext, Page } from 'playwright-core';

export interface BrowserLauncherOptions {
  chromiumPath: string;
  /** Pages open at once across the process. Default 2. */
  maxPages?: number;
  log?: FastifyBaseLogger;
}

export interface PageOptions {
  viewport: { width: number; height: number };
  /** Below 1 renders a smaller image of the same layout (0.5: a 1280 px wide page as 640 px). */
  deviceScaleFactor?: number;
  userAgent?: string;
  /** Aborting gives up the place in line, or closes the page while it is in use. */
  signal?: AbortSignal;
}

export interface BrowserStats {
  /** Chromium processes started so far. */
  launches: number;
  /** Pages handed out so far. */
  pages: number;
  active: number;
  waiting: number;
}

export interface BrowserLauncher {
  /** Runs `use` with a new page in its own context; the context is closed afterwards. */
  withPage<T>(
    options: PageOptions,
    use: (page: Page, context: BrowserContext) => Promise<T>,
  ): Promise<T>;
  /**
   * The Chromium itself (launched now if it is not running), for a caller that opens its own
   * contexts on it: a fidelity check's render lanes, beside the pages of `withPage`.
   */
  browser(): Promise<Browser>;
  stats(): BrowserStats;
  close(): Promise<void>;
}

export const BROWSER_DEFAULTS = {
  maxPages: 2,
  launchTimeoutMs: 30_000,
} as const;

export class BrowserClosedError extends Error {
  constructor() {
    super('the browser is closed');
    this.name = 'BrowserClosedError';
  }
}

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('aborted');
}

export function createBrowserLauncher(options: BrowserLauncherOptions): BrowserLauncher {
  const maxPages = options.maxPages ?? BROWSER_DEFAULTS.maxPages;
  let browserPromise: Promise<Browser> | undefined;
  let closed = false;
  let active = 0;
  const waiting: { resolve: () => void; reject: (error: Error) => void }[] = [];
  const stats = { launches: 0, pages: 0 };

  function browser(): Promise<Browser> {
    if (!browserPromise) {
      stats.launches++;
      const launching = launchChromium({
        executablePath: options.chromiumPath,
        timeoutMs: BROWSER_DEFAULTS.launchTimeoutMs,
      });
      browserPromise = launching;
      launching.then(
        (b) =>
          b.on('disconnected', () => {
            if (browserPromise === launching) browserPromise = undefined;
            if (!closed) options.log?.warn('chromium exited; it is relaunched on the next use');
          }),
        () => {
          if (browserPromise === launching) browserPromise = undefined;
        },
      );
    }
    return browserPromise;
  }

  async function acquire(signal: AbortSignal | undefined): Promise<void> {
    if (closed) throw new BrowserClosedError();
    signal?.throwIfAborted();
    if (active < maxPages) {
      active++;
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const waiter = {
        resolve: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        reject,
      };
      const onAbort = () => {
        const at = waiting.indexOf(waiter);
        if (at !== -1) waiting.splice(at, 1);
        reject(abortReason(signal!));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      waiting.push(waiter);
    });
  }

  function release(): void {
    const next = waiting.shift();
    if (next) next.resolve();
    else active--;
  }

  async function withPage<T>(
    pageOptions: PageOptions,
    use: (page: Page, context: BrowserContext) => Promise<T>,
  ): Promise<T> {
    const { signal } = pageOptions;
    await acquire(signal);
    let context: BrowserContext | undefined;
    const closeContext = () => {
      void context?.close().catch(() => undefined);
    };
    try {
      const b = await browser();
      signal?.throwIfAborted();
      context = await openContext(b, {
        viewport: pageOptions.viewport,
        deviceScaleFactor: pageOptions.deviceScaleFactor ?? 1,
        userAgent:
          pageOptions.userAgent ??
          `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${b.version()} Safari/537.36`,
        reducedMotion: 'reduce',
        timezoneId: 'UTC',
        locale: 'en-US',
      });
      signal?.addEventListener('abort', closeContext, { once: true });
      const page = await context.newPage();
      stats.pages++;
      // Popups would be pages nobody watches.
      context.on('page', (popup) => {
        if (popup !== page) popup.close().catch(() => undefined);
      });
      signal?.throwIfAborted();
      return await use(page, context);
    } finally {
      signal?.removeEventListener('abort', closeContext);
      await context?.close().catch(() => undefined);
      release();
    }
  }

  return {
    withPage,
    browser() {
      return closed ? Promise.reject(new BrowserClosedError()) : browser();
    },
    stats: () => ({ ...stats, active, waiting: waiting.length }),
    async close() {
      closed = true;
      for (const waiter of waiting.splice(0)) waiter.reject(new BrowserClosedError());
      const pending = browserPromise;
      browserPromise = undefined;
      if (pending) await pending.then((b) => b.close()).catch(() => undefined);
    },
  };
}
