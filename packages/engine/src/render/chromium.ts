/**
 * How Chromium runs pages that someone else wrote: the engine's render tier and the server's
 * thumbnails launch and open contexts through here only. Chromium must never open a connection of
 * its own. The caller answers every http(s) request from Node (`route.fulfill`), with the engine's
 * pinned HTTP client or from stored blobs; anything Chromium would fetch itself goes to a proxy
 * that does not exist and fails.
 */
import type {
  Browser,
  BrowserContext,
  BrowserContextOptions,
  Request,
  Route,
} from 'playwright-core';

/**
 * Features Playwright turns off (its `chromiumSwitches`, 1.65), repeated here because Chromium
 * honours only the last `--disable-features` of a command line: ours, after Playwright's, must
 * name them again. `chromium.test.ts` fails when Playwright's list grows.
 */
const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * Headless Chromium opens each new context's page in a window of its own and preloads that
 * window's omnibox popups: two WebUI renderers (`chrome://omnibox-popup.top-chrome/`) per page
 * that no one sees. In the e2e suite they used almost three times the CPU of the pages themselves.
 */
export const CHROMIUM_DISABLED_FEATURES = [
  ...PLAYWRIGHT_DISABLED_FEATURES,
  'WebUIOmniboxPopup',
  'WebUIOmniboxAimPopup',
];

export const CHROMIUM_ARGS = [
  // No GPU, and no calls home on a closed network. Chromium's own sandbox is chosen per launch.
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // WebRTC opens its own sockets (STUN, TURN over UDP/TCP/TLS, ICE checks to remote candidates),
  // which no route handler sees: with proxied traffic only, it has nothing but the dead proxy. The
  // first spelling is the one Debian's headless Chromium 156 honours: with only the second (Chrome's
  // own), STUN and TURN over UDP still reached 127.0.0.3 (rebinding.test.ts fails that way).
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  `--disable-features=${CHROMIUM_DISABLED_FEATURES.join(',')}`,
];

/**
 * Nothing listens on port 9 (discard) of the unspecified address, so whatever Chromium fetches
 * itself (a preconnect, a WebSocket that escaped `routeWebSocket`, WebRTC over TCP) fails. With a
 * fixed proxy Chromium does not resolve names either. `<-loopback>` removes loopback from Chromium's
 * implicit bypass list, which would otherwise connect to 127.0.0.0/8 and ::1 directly.
 */
const CHROMIUM_PROXY = { server: 'http://0.0.0.0:9', bypass: '<-loopback>' };

let sandboxByDefault = false;

/**
 * Whether Chromium runs with its own sandbox (renderers in namespaces of their own, under
 * seccomp) when a launch does not say. Off by default: Chromium refuses it as root, and without
 * unprivileged user namespaces it cannot start with it. The server's sandboxed runs turn it on
 * where their user can have it (`apps/server/src/platform/sandbox/run-user.ts`).
 */
export function setChromiumSandbox(enabled: boolean): void {
  sandboxByDefault = enabled;
}

export async function launchChromium(options: {
  executablePath: string;
  timeoutMs?: number;
  /** Chromium's own sandbox; default: as `setChromiumSandbox` said (off). */
  sandbox?: boolean;
}): Promise<Browser> {
  // playwright-core is large: loaded only when a page is actually opened.
  const { chromium } = await import('playwright-core');
  const sandbox = options.sandbox ?? sandboxByDefault;
  return chromium.launch({
    executablePath: options.executablePath,
    // Without it Playwright adds --no-sandbox itself.
    chromiumSandbox: sandbox,
    args: sandbox ? CHROMIUM_ARGS : ['--no-sandbox', ...CHROMIUM_ARGS],
    proxy: CHROMIUM_PROXY,
    // The process that launched it decides what a signal means (Playwright's own handlers would
    // keep a process alive after SIGTERM, relaunching browsers); Chromium ends when its pipe closes.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
    ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
  });
}

/**
 * A context for one page: no service workers (their requests would not be routed to the caller),
 * no downloads, and WebSockets refused (they bypass `route`, and a socket has nothing to record).
 */
export async function openContext(
  browser: Browser,
  options: BrowserContextOptions,
): Promise<BrowserContext> {
  const context = await browser.newContext({
    ...options,
    serviceWorkers: 'block',
    acceptDownloads: false,
  });
  await context.routeWebSocket(/.*/, (ws) => ws.close().catch(() => undefined));
  return context;
}

/**
 * The first step of every route handler: data: and blob: URLs are the page's own bytes and go on;
 * any other scheme but http(s) is refused. True when the request was settled here.
 */
export async function settledLocally(route: Route): Promise<boolean> {
  const url = route.request().url();
  if (url.startsWith('data:') || url.startsWith('blob:')) {
    await route.continue();
    return true;
  }
  if (!/^https?:/i.test(url)) {
    await route.abort('blockedbyclient');
    return true;
  }
  return false;
}

/**
 * Response headers dropped before an answer is recorded or handed to Chromium: the body is
 * already decoded and is re-framed.
 */
export const HOP_HEADERS: ReadonlySet<string> = new Set([
  'content-encoding',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
]);

/** Request headers not forwarded: the client frames the request and asks only for encodings it can decode. */
export const SKIPPED_REQUEST_HEADERS: ReadonlySet<string> = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'accept-encoding',
]);

/** Statuses whose `location` a route handler follows itself, hop by hop. */
export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** Response headers to record or hand to Chromium: names in lower case, hop headers dropped. */
export function cleanHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const key = name.toLowerCase();
    if (!HOP_HEADERS.has(key)) out[key] = value;
  }
  return out;
}

/**
 * The headers to send for a request of the page to `url`: its own, without those the client sets,
 * and the context's cookies for `url`. Playwright leaves cookies out of `headers()`; the page's own
 * (set by its responses or its scripts) are what Chromium would have sent.
 */
export async function forwardedHeaders(
  context: BrowserContext,
  url: string,
  request: Request,
): Promise<Record<string, string>> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers())) {
    if (!SKIPPED_REQUEST_HEADERS.has(name.toLowerCase())) headers[name.toLowerCase()] = value;
  }
  const cookies = await context.cookies(url);
  if (cookies.length > 0) {
    headers.cookie = cookies.map(({ name, value }) => `${name}=${value}`).join('; ');
  }
  return headers;
}

/** The browser's user agent without "Headless": a desktop Linux one, or a phone's. */
export function userAgentOf(browser: Browser, mobile = false): string {
  const chrome = `Chrome/${browser.version()}`;
  return mobile
    ? `Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) ${chrome} Mobile Safari/537.36`
    : `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) ${chrome} Safari/537.36`;
}
