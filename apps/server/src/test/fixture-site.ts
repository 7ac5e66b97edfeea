import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small website on 127.0.0.1 whose content can change between mirror runs (`version`) and whose
 * answers can be slowed down (`delayMs`), for tests of the mirroring service.
 */
export interface FixtureSite {
  url: string;
  version: number;
  delayMs: number;
  requests: number;
  close(): Promise<void>;
}

/**
 * `form`: each page has a newsletter form posting to the site (`/subscribe.php`), as a copy's
 * forms are taken by the sites host.
 */
export async function startFixtureSite(
  pages = 3,
  options: { form?: boolean } = {},
): Promise<FixtureSite> {
  const form = options.form
    ? '<form action="/subscribe.php" method="post"><input type="email" name="email"><button>Subscribe</button></form>'
    : '';
  const state: FixtureSite = {
    url: '',
    version: 1,
    delayMs: 0,
    requests: 0,
    close: async () => undefined,
  };
  const server = http.createServer((req, res) => {
    state.requests++;
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const send = (type: string, body: string) =>
      setTimeout(() => res.writeHead(200, { 'content-type': type }).end(body), state.delayMs);
    if (path === '/' || /^\/page-\d+\.html$/.test(path)) {
      const links = Array.from(
        { length: pages },
        (_, i) => `<a href="/page-${i + 1}.html">Page ${i + 1}</a>`,
      ).join(' ');
      return send(
        'text/html; charset=utf-8',
        `<!doctype html><html><head><title>Fixture v${state.version}</title><link rel="stylesheet" href="/style.css"></head>` +
          `<body><h1>Version ${state.version} ${path}</h1><nav>${links}</nav><img src="/logo.svg" alt="logo">${form}</body></html>`,
      );
    }
    if (path === '/style.css')
      return send('text/css', `h1 { color: rgb(${state.version * 40}, 20, 20); }`);
    if (path === '/logo.svg')
      return send(
        'image/svg+xml',
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>',
      );
    if (path === '/robots.txt') return send('text/plain', 'User-agent: *\nAllow: /\n');
    setTimeout(() => res.writeHead(404).end('not found'), state.delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())));
  return state;
}
