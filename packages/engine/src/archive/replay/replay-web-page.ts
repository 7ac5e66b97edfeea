/**
 * ReplayWeb.page (webrecorder's web archive viewer, the npm `replaywebpage` package) on loopback,
 * for tests and benches that prove a WACZ opens in the field's own replay tool (issue 35).
 *
 * `startReplayWebPage` serves the package's prebuilt `ui.js` and `sw.js`, a page that embeds the
 * `<replay-web-page>` element as ReplayWeb.page's embedding guide describes, and the WACZ itself
 * with HTTP Range support (ReplayWeb.page reads a WACZ by ranges: the zip directory, the index,
 * then each record). `screenshotInReplay` opens that page in Chromium and takes a picture of the
 * archived page alone, without the viewer's own chrome.
 *
 * The embed in `replayonly` mode is the archived page's iframe and nothing else; it fills the
 * viewport, so the archived page lays out at the same width and height as the original would.
 * Test support: `replaywebpage` is a devDependency of the repository root.
 */
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Browser, Frame } from 'playwright-core';

export interface ReplayWebPage {
  /** `http://127.0.0.1:<port>`: a secure context, as service workers require. */
  origin: string;
  /** The embed page that replays `url` (at `ts`, 14 digits, when given) from the WACZ. */
  pageUrl(url: string, ts?: string): string;
  /** Requests the server answered, in order (`METHOD path range`), for checks and debugging. */
  requests: string[];
  close(): Promise<void>;
}

/** Where the viewer's service worker lives; its scope is this path (the embed's `replayBase`). */
const REPLAY_BASE = '/replay/';
const WACZ_PATH = '/archive.wacz';

/** The folder of the installed `replaywebpage` package (its `ui.js` and `sw.js`). */
export function replayWebPageDir(): string {
  const require = createRequire(import.meta.url);
  // The package's exports name index.html but not package.json.
  return path.dirname(require.resolve('replaywebpage/index.html'));
}

export async function startReplayWebPage(options: {
  waczPath: string;
  /** Port to listen on; default: any free one. */
  port?: number;
}): Promise<ReplayWebPage> {
  const dir = replayWebPageDir();
  const [uiJs, swJs, wacz] = await Promise.all([
    fs.readFile(path.join(dir, 'ui.js')),
    fs.readFile(path.join(dir, 'sw.js')),
    fs.stat(options.waczPath),
  ]);
  const waczSize = wacz.size;
  const requests: string[] = [];

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push(
      `${req.method} ${url.pathname}${req.headers.range ? ` ${req.headers.range}` : ''}`,
    );
    res.setHeader('Cache-Control', 'no-store');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    const head = req.method === 'HEAD';
    switch (url.pathname) {
      case '/':
      case '/index.html': {
        const body = Buffer.from(
          embedHtml(url.searchParams.get('url') ?? '', url.searchParams.get('ts') ?? ''),
        );
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
        res.end(head ? undefined : body);
        return;
      }
      // The viewer's own page, in the embed's iframe: the service worker serves it once it
      // controls the scope (`serveIndex=1`), but the iframe can load before the worker has
      // activated; then it comes from here, the same page, and registers the worker itself.
      case REPLAY_BASE:
      case `${REPLAY_BASE}index.html`:
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
        res.end(head ? undefined : VIEWER_HTML);
        return;
      // The embed page loads /ui.js; the viewer's own page inside the scope loads ./ui.js.
      case '/ui.js':
      case `${REPLAY_BASE}ui.js`:
        res.writeHead(200, { 'Content-Type': 'application/javascript; charset=utf-8' });
        res.end(head ? undefined : uiJs);
        return;
      // Registered as the service worker (scope REPLAY_BASE) and also started as a web worker.
      case `${REPLAY_BASE}sw.js`:
        res.writeHead(200, {
          'Content-Type': 'application/javascript; charset=utf-8',
          'Service-Worker-Allowed': REPLAY_BASE,
        });
        res.end(head ? undefined : swJs);
        return;
      case WACZ_PATH:
        serveRange(req, res, options.waczPath, waczSize, head);
        return;
      default:
        res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
    }
  });
  server.listen(options.port ?? 0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    requests,
    pageUrl(url: string, ts?: string): string {
      const query = new URLSearchParams({ url });
      if (ts !== undefined) query.set('ts', ts);
      return `${origin}/?${query.toString()}`;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function escapeAttribute(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('"', '&quot;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;');
}

/** What the service worker serves at its scope's root (wabac's `getIndexHtml`). */
const VIEWER_HTML = `<!doctype html>
<html>
<head><script src="./ui.js"></script></head>
<body>
<replay-app-main></replay-app-main>
</body></html>
`;

/** The embedding guide's page: ui.js and one `<replay-web-page>` that fills the viewport. */
function embedHtml(url: string, ts: string): string {
  const attributes = [
    `source="${WACZ_PATH}"`,
    `replayBase="${REPLAY_BASE}"`,
    'embed="replayonly"',
    url ? `url="${escapeAttribute(url)}"` : '',
    ts ? `ts="${escapeAttribute(ts)}"` : '',
  ]
    .filter(Boolean)
    .join(' ');
  return `<!doctype html>
<html>
<head>
<meta charset="utf-8">
<title>ReplayWeb.page</title>
<script src="/ui.js"></script>
<style>
html, body { margin: 0; padding: 0; overflow: hidden; }
replay-web-page { display: block; position: fixed; inset: 0; width: 100vw; height: 100vh; }
</style>
</head>
<body>
<replay-web-page ${attributes}></replay-web-page>
</body>
</html>
`;
}

/** One `bytes=` range of the file (the first, when several are asked), or the whole file. */
function serveRange(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  file: string,
  size: number,
  head: boolean,
): void {
  const common = { 'Content-Type': 'application/wacz+zip', 'Accept-Ranges': 'bytes' };
  const range = req.headers.range;
  let start = 0;
  let end = size - 1;
  let partial = false;
  if (range !== undefined) {
    const match = /^bytes=(\d*)-(\d*)/.exec(range.trim());
    if (match === null || (match[1] === '' && match[2] === '')) {
      res.writeHead(416, { ...common, 'Content-Range': `bytes */${size}` }).end();
      return;
    }
    if (match[1] === '') {
      start = Math.max(0, size - Number(match[2]));
    } else {
      start = Number(match[1]);
      if (match[2] !== '') end = Math.min(end, Number(match[2]));
    }
    if (start >= size || start > end) {
      res.writeHead(416, { ...common, 'Content-Range': `bytes */${size}` }).end();
      return;
    }
    partial = true;
  }
  const length = size === 0 ? 0 : end - start + 1;
  res.writeHead(partial ? 206 : 200, {
    ...common,
    'Content-Length': String(length),
    ...(partial ? { 'Content-Range': `bytes ${start}-${end}/${size}` } : {}),
  });
  if (head || length === 0) {
    res.end();
    return;
  }
  const stream = createReadStream(file, { start, end });
  stream.on('error', () => res.destroy());
  res.on('close', () => stream.destroy());
  stream.pipe(res);
}

export interface ReplayShotOptions {
  width: number;
  height: number;
  /** Limit for the whole replay (viewer start, WACZ load, page load); default 60 s. */
  timeoutMs?: number;
  /** Quiet time after load before the picture (late layout, fonts); default 300 ms. */
  settleMs?: number;
  /** Told every URL the browser context requests (the pages' and the service worker's). */
  onRequest?: (url: string) => void;
}

/**
 * Resolves once the page's web fonts are in and its images decoded, or after 5 s (a font that never
 * loads must not hold the picture forever); a string: no DOM types here.
 */
const SETTLED_SCRIPT = `Promise.race([
  new Promise((done) => setTimeout(done, 5000)),
  Promise.all([
    document.fonts.ready,
    ...Array.from(document.images, (image) => image.complete ? null : image.decode().catch(() => null)),
  ]),
]).then(() => true)`;

/**
 * The archived page inside the replay: ReplayWeb.page shows it in a nested iframe whose address
 * is `<replayBase>w/<collection>/<ts>mp_/<url>`.
 */
function isArchivedFrame(frame: Frame, url: string): boolean {
  const address = frame.url();
  const at = address.indexOf('mp_/');
  if (at < 0) return false;
  return sameUrl(address.slice(at + 'mp_/'.length), url);
}

function sameUrl(a: string, b: string): boolean {
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return a === b;
  }
}

/**
 * A PNG of `url` as ReplayWeb.page replays it from the WACZ, `width` × `height` (the viewport, not
 * the full page): the embed fills the viewport, so the picture is the archived page's frame alone.
 * The browser context is the caller's browser's, new for this picture, with service workers on.
 */
export async function screenshotInReplay(
  browser: Browser,
  replay: Pick<ReplayWebPage, 'pageUrl'>,
  url: string,
  options: ReplayShotOptions & { ts?: string },
): Promise<Buffer> {
  const { width, height } = options;
  const timeout = options.timeoutMs ?? 60_000;
  const deadline = Date.now() + timeout;
  const left = (): number => Math.max(1_000, deadline - Date.now());
  const context = await browser.newContext({
    viewport: { width, height },
    deviceScaleFactor: 1,
    serviceWorkers: 'allow',
  });
  const { onRequest } = options;
  if (onRequest !== undefined) context.on('request', (request) => onRequest(request.url()));
  // The viewer's complaints, for the error when the page does not come.
  const complaints: string[] = [];
  context.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') {
      complaints.push(`${message.type()}: ${message.text()}`.slice(0, 300));
    }
  });
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(timeout);
    await page.goto(replay.pageUrl(url, options.ts), { waitUntil: 'load', timeout: left() });

    // The viewer registers its service worker, loads the WACZ's index, then opens the iframe.
    let frame: Frame | undefined;
    while (frame === undefined) {
      frame = page.frames().find((candidate) => isArchivedFrame(candidate, url));
      if (frame !== undefined) break;
      if (Date.now() > deadline) {
        throw new Error(
          `ReplayWeb.page did not open ${url} within ${timeout} ms; frames: ${page
            .frames()
            .map((f) => f.url())
            .join(', ')}; console: ${complaints.slice(-10).join(' | ') || 'nothing'}`,
        );
      }
      await page.waitForTimeout(100);
    }
    await frame.waitForLoadState('load', { timeout: left() });
    await frame.waitForLoadState('networkidle', { timeout: left() }).catch(() => undefined);
    // Images decoded and web fonts in before the picture.
    await frame.evaluate(SETTLED_SCRIPT);
    await page.waitForTimeout(options.settleMs ?? 300);

    const element = await frame.frameElement();
    const box = await element.boundingBox();
    if (box === null) throw new Error(`The replay frame of ${url} is not shown`);
    if (Math.round(box.width) !== width || Math.round(box.height) !== height) {
      // The embed did not fill the viewport: the page would lay out at another size.
      throw new Error(
        `The replay frame of ${url} is ${box.width}×${box.height}, not ${width}×${height}`,
      );
    }
    return await page.screenshot({
      clip: { x: box.x, y: box.y, width, height },
      animations: 'disabled',
      caret: 'hide',
    });
  } finally {
    await context.close();
  }
}
