/**
 * A thumbnail of a live website. Chromium itself never touches the network: every request the
 * page makes is fetched from Node by the engine's HTTP client, whose connections are checked by the
 * address policy when they open (the checked address is the one connected to, so DNS rebinding
 * gains nothing) and whose redirects are re-checked hop by hop, then handed to the page with
 * `route.fulfill`. Refused or failed requests are aborted; the page is drawn with what it got.
 */
import { setMaxListeners } from 'node:events';
import {
  createHttpClient,
  settledLocally,
  type HttpClient,
  type SafeLookupOptions,
} from '@mirror/engine';
import type { Page, Route } from 'playwright-core';
import type { BrowserLauncher } from '../../platform/browser/browser-launcher.js';
import { takeThumbnail, THUMBNAIL_PAGE, trackNetworkIdle } from './thumbnail.js';

export const CAPTURE_DEFAULTS = {
  /** Everything: waiting for a free page, loading, settling, drawing. */
  timeoutMs: 15_000,
  /** Kept at the end of the budget for drawing the picture. */
  drawReserveMs: 2_500,
  /** After `load`: no request for this long, waited for at most `settleMaxMs`. */
  settleQuietMs: 400,
  settleMaxMs: 1_500,
  maxRedirects: 10,
  maxResponseBytes: 15 * 1024 * 1024,
  maxTotalBytes: 60 * 1024 * 1024,
} as const;

export interface CaptureOptions {
  browser: BrowserLauncher;
  /** The address policy (allowPrivateNetworks; tests hand in a resolver). */
  net: SafeLookupOptions;
  timeoutMs?: number;
  /**
   * Called with the headers of each main document the page shows (redirects are followed first):
   * the last call is the page drawn. The reference grid reads its framing rules from them.
   */
  onDocument?: (headers: Record<string, string>) => void;
}

/** The capture did not finish within its time limit. */
export class CaptureTimeoutError extends Error {
  constructor(url: string, timeoutMs: number) {
    super(`capturing ${url} took over ${timeoutMs} ms`);
    this.name = 'CaptureTimeoutError';
  }
}

/** The main document could not be loaded (network error, refused redirect, …). */
export class CaptureFailedError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CaptureFailedError';
  }
}

const REDIRECT = new Set([301, 302, 303, 307, 308]);
/** Not forwarded to the origin: the HTTP client frames and encodes requests itself. */
const SKIPPED_REQUEST_HEADERS = new Set([
  'host',
  'connection',
  'content-length',
  'accept-encoding',
  'transfer-encoding',
]);
/** Not handed back to Chromium: the body was decoded and is re-framed. */
const SKIPPED_RESPONSE_HEADERS = new Set([
  'content-encoding',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
]);

function pick(
  headers: Record<string, string>,
  skipped: ReadonlySet<string>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!skipped.has(name.toLowerCase())) out[name.toLowerCase()] = value;
  }
  return out;
}

async function collect(body: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return Buffer.concat(chunks);
}

interface Session {
  client: HttpClient;
  signal: AbortSignal;
  totalBytes: number;
  /** Set when the main document answered with a redirect: followed by a new `goto`. */
  pendingNavigation: string | undefined;
  /** Why the main document failed, for the error message. */
  mainError: unknown;
  onDocument: ((headers: Record<string, string>) => void) | undefined;
}

function isMainNavigation(page: Page, route: Route): boolean {
  const request = route.request();
  try {
    return request.isNavigationRequest() && request.frame() === page.mainFrame();
  } catch {
    return false; // Requests of workers have no frame.
  }
}

async function serve(page: Page, route: Route, session: Session): Promise<void> {
  if (await settledLocally(route)) return;
  const request = route.request();
  const url = request.url();
  const method = request.method();
  // A thumbnail has no business posting forms.
  if (method !== 'GET' && method !== 'HEAD') return route.abort('blockedbyclient');
  const main = isMainNavigation(page, route);
  try {
    const response = await session.client.request(url, {
      method,
      headers: pick(request.headers(), SKIPPED_REQUEST_HEADERS),
      // The main document's redirects become navigations, so the page's URL (and the base of its
      // relative links) is the final one; other redirects are followed here, each hop checked.
      followRedirects: !main,
      maxBytes: CAPTURE_DEFAULTS.maxResponseBytes,
      signal: session.signal,
    });
    const location = response.headers.location;
    if (main && REDIRECT.has(response.status) && location !== undefined) {
      await response.discard();
      session.pendingNavigation = new URL(location, url).href;
      return route.abort('aborted');
    }
    if (main) session.onDocument?.(pick(response.headers, SKIPPED_RESPONSE_HEADERS));
    const body = await collect(response.body);
    session.totalBytes += body.length;
    if (session.totalBytes > CAPTURE_DEFAULTS.maxTotalBytes) return route.abort('failed');
    await route.fulfill({
      status: response.status,
      headers: pick(response.headers, SKIPPED_RESPONSE_HEADERS),
      body,
    });
  } catch (error) {
    if (main) session.mainError = error;
    const refused = (error as { code?: unknown }).code === 'EREFUSEDADDRESS';
    await route.abort(refused ? 'blockedbyclient' : 'failed');
  }
}

/**
 * Loads `url` (already checked by `assertPublicUrl`) and returns a JPEG of its first screen.
 * Throws CaptureTimeoutError past the time limit, CaptureFailedError when the page cannot load.
 */
export async function captureUrl(url: string, options: CaptureOptions): Promise<Buffer> {
  const timeoutMs = options.timeoutMs ?? CAPTURE_DEFAULTS.timeoutMs;
  const deadline = Date.now() + timeoutMs;
  const remaining = () => deadline - Date.now();
  const controller = new AbortController();
  // Every request of the page listens to it: dozens at once are expected.
  setMaxListeners(0, controller.signal);
  const timer = setTimeout(
    () => controller.abort(new CaptureTimeoutError(url, timeoutMs)),
    timeoutMs,
  );
  const client = createHttpClient({
    ...options.net,
    timeoutMs: Math.min(10_000, timeoutMs),
    maxRedirects: CAPTURE_DEFAULTS.maxRedirects,
  });
  const session: Session = {
    client,
    signal: controller.signal,
    totalBytes: 0,
    pendingNavigation: undefined,
    mainError: undefined,
    onDocument: options.onDocument,
  };
  try {
    return await options.browser.withPage(
      { ...THUMBNAIL_PAGE, signal: controller.signal },
      async (page, context) => {
        await context.route('**/*', (route) =>
          serve(page, route, session).catch(() => route.abort('failed').catch(() => undefined)),
        );
        const waitForIdle = trackNetworkIdle(page);
        let target = url;
        for (let hop = 0; ; hop++) {
          session.pendingNavigation = undefined;
          session.mainError = undefined;
          try {
            await page.goto(target, {
              waitUntil: 'load',
              timeout: Math.max(1_000, remaining() - CAPTURE_DEFAULTS.drawReserveMs),
            });
            break;
          } catch (error) {
            const next = session.pendingNavigation;
            if (next !== undefined && hop < CAPTURE_DEFAULTS.maxRedirects) {
              target = next;
              continue;
            }
            // A slow image held `load` back: draw what has arrived.
            const timedOut = error instanceof Error && error.name === 'TimeoutError';
            if (timedOut && page.url() !== 'about:blank' && session.mainError === undefined) break;
            controller.signal.throwIfAborted();
            if (timedOut && session.mainError === undefined) {
              throw new CaptureTimeoutError(url, timeoutMs);
            }
            const cause = session.mainError ?? error;
            const reason = cause instanceof Error ? cause.message.split('\n')[0] : String(cause);
            throw new CaptureFailedError(`could not load ${target}: ${reason}`, { cause });
          }
        }
        await waitForIdle(
          CAPTURE_DEFAULTS.settleQuietMs,
          Math.min(CAPTURE_DEFAULTS.settleMaxMs, remaining() - CAPTURE_DEFAULTS.drawReserveMs),
        );
        controller.signal.throwIfAborted();
        return await takeThumbnail(page, remaining());
      },
    );
  } catch (error) {
    // Work cut short by the time limit fails with whatever Playwright says: report the limit.
    if (controller.signal.aborted) throw controller.signal.reason as Error;
    throw error;
  } finally {
    clearTimeout(timer);
    // Not awaited: closing waits for requests in flight, which the abort is already ending.
    void client.close().catch(() => undefined);
  }
}
