import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserLauncher } from '../platform/browser/browser-launcher.js';

/** Width and height from a JPEG's start-of-frame marker; throws when the bytes are not a JPEG. */
export function jpegSize(image: Buffer): { width: number; height: number } {
  if (image[0] !== 0xff || image[1] !== 0xd8) throw new Error('not a JPEG (no SOI marker)');
  let at = 2;
  while (at + 9 < image.length) {
    if (image[at] !== 0xff) throw new Error(`not a JPEG (bad marker at ${at})`);
    const marker = image[at + 1]!;
    const length = image.readUInt16BE(at + 2);
    // SOF0..SOF15, except DHT (c4), JPG (c8) and DAC (cc).
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
      return { height: image.readUInt16BE(at + 5), width: image.readUInt16BE(at + 7) };
    }
    at += 2 + length;
  }
  throw new Error('not a JPEG (no frame header)');
}

/** The colour of one pixel of an image, decoded by Chromium itself (no JPEG decoder in Node). */
export async function pixelAt(
  browser: BrowserLauncher,
  image: Buffer,
  x: number,
  y: number,
): Promise<[number, number, number]> {
  return browser.withPage({ viewport: { width: 100, height: 100 } }, async (page) => {
    const src = `data:image/jpeg;base64,${image.toString('base64')}`;
    return (await page.evaluate(
      `(async () => {
        const img = new Image();
        img.src = ${JSON.stringify(src)};
        await img.decode();
        const canvas = document.createElement('canvas');
        canvas.width = img.naturalWidth;
        canvas.height = img.naturalHeight;
        const ctx = canvas.getContext('2d');
        ctx.drawImage(img, 0, 0);
        const [r, g, b] = ctx.getImageData(${x}, ${y}, 1, 1).data;
        return [r, g, b];
      })()`,
    )) as [number, number, number];
  });
}

/** Whether two colours are equal within JPEG's loss. */
export function closeTo(actual: readonly number[], expected: readonly number[], tolerance = 24) {
  return actual.every((value, i) => Math.abs(value - expected[i]!) <= tolerance);
}

export interface ScreenshotSite {
  /** `http://127.0.0.1:{port}`. */
  url: string;
  port: number;
  /** Requests by path (with query). */
  hits: Map<string, number>;
  /** When each path (with query) was first asked for (`Date.now()`). */
  firstAsked: Map<string, number>;
  close(): Promise<void>;
}

/**
 * A website for screenshot tests: `/` is a red page with a stylesheet and an image, `/slow` never
 * answers, `/redirect` sends to `/`, `/leaky` reaches for `internalUrl` (a server that must never be
 * contacted) in every way a page can. `/deny` is a page sent with `X-Frame-Options: DENY`,
 * `/ancestors?allow=…` one with CSP `frame-ancestors {allow}`. Listens on `host` (127.0.0.1).
 */
export async function startScreenshotSite(
  internalUrl = 'http://127.0.0.2:9',
  host = '127.0.0.1',
): Promise<ScreenshotSite> {
  const hits = new Map<string, number>();
  const firstAsked = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const target = req.url ?? '/';
    hits.set(target, (hits.get(target) ?? 0) + 1);
    if (!firstAsked.has(target)) firstAsked.set(target, Date.now());
    const path = new URL(target, 'http://x').pathname;
    const html = (body: string) =>
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(`<!doctype html><html><head><title>Shot</title>${body}`);
    if (path === '/')
      return html(
        '<link rel="stylesheet" href="/style.css"></head><body><h1>Hello</h1><img src="/dot.svg"></body></html>',
      );
    if (path === '/style.css')
      return res
        .writeHead(200, { 'content-type': 'text/css' })
        .end('html, body { background: rgb(220, 30, 30); margin: 0; }');
    if (path === '/dot.svg')
      return res
        .writeHead(200, { 'content-type': 'image/svg+xml' })
        .end('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>');
    if (path === '/deny' || path === '/ancestors') {
      const headers: Record<string, string> =
        path === '/deny'
          ? { 'x-frame-options': 'DENY' }
          : {
              'content-security-policy': `frame-ancestors ${new URL(target, 'http://x').searchParams.get('allow') ?? "'none'"}`,
            };
      return res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...headers })
        .end('<!doctype html><title>Framing</title><body style="background: rgb(30, 160, 30)">');
    }
    if (path === '/redirect') return res.writeHead(302, { location: '/' }).end();
    if (path === '/to-internal')
      return res.writeHead(302, { location: `${internalUrl}/redirected` }).end();
    if (path === '/leaky')
      return html(
        `<style>body { background: rgb(30, 30, 220); }</style></head><body>` +
          `<img src="${internalUrl}/img"><img src="http://169.254.169.254/latest/meta-data/">` +
          `<img src="/to-internal"><iframe src="${internalUrl}/frame"></iframe>` +
          `<script src="${internalUrl}/script.js"></script>` +
          `<script>fetch(${JSON.stringify(`${internalUrl}/fetch`)}).catch(() => {});` +
          `try { new WebSocket(${JSON.stringify(internalUrl.replace('http', 'ws'))}); } catch {}</script>` +
          `</body></html>`,
      );
    if (path === '/slow') return; // never answers
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host}:${port}`,
    port,
    hits,
    firstAsked,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A server that counts every request it gets: nothing should ever reach it. */
export async function startInternalServer(
  host = '127.0.0.2',
): Promise<{ url: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? '/');
    res.writeHead(200, { 'content-type': 'text/plain' }).end('secret');
  });
  server.on('upgrade', (req, socket) => {
    requests.push(`upgrade ${req.url ?? '/'}`);
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    url: `http://${host}:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
