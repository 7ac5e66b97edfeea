import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ttf': 'font/ttf',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
  '.vtt': 'text/vtt',
  '.webm': 'video/webm',
};
const TEMPLATED = new Set(['.html', '.css', '.js', '.xml', '.json', '.webmanifest', '.txt']);

export type Handler = (
  req: http.IncomingMessage,
  res: http.ServerResponse,
  server: FixtureServer,
) => boolean | void;

export interface FixtureServer {
  origin: string;
  host: string;
  /** Every request path (with query) in arrival order. */
  requests: string[];
  vars: Record<string, string>;
  close(): Promise<void>;
}

/**
 * Serves a fixture folder on 127.0.0.1 with `{{VAR}}` substitution in text files, optional extra
 * routes, and a log of every request, so tests can assert what was (and was not) fetched.
 */
export async function serveFixture(
  dir: string | null,
  routes: Record<string, Handler> = {},
  options: { cache?: boolean; template?: boolean } = {},
): Promise<FixtureServer> {
  const template = options.template ?? true;
  const state: FixtureServer = {
    origin: '',
    host: '',
    requests: [],
    vars: {},
    close: async () => undefined,
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fixture');
    state.requests.push(`${url.pathname}${url.search}`);
    const route = routes[url.pathname] ?? routes[`${url.pathname}${url.search}`];
    if (route && route(req, res, state) !== false) return;
    if (!dir) return void res.writeHead(404).end('not found');
    let file = path.join(dir, decodeURIComponent(url.pathname));
    if (!file.startsWith(dir)) return void res.writeHead(403).end();
    if (fs.existsSync(file) && fs.statSync(file).isDirectory()) {
      if (!url.pathname.endsWith('/'))
        return void res.writeHead(301, { location: `${url.pathname}/` }).end();
      file = path.join(file, 'index.html');
    }
    if (!fs.existsSync(file))
      return void res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
    const ext = path.extname(file);
    let body: Buffer = fs.readFileSync(file);
    if (template && TEMPLATED.has(ext) && !file.endsWith('cyrillic.html')) {
      body = Buffer.from(
        body
          .toString('utf8')
          .replace(/\{\{(\w+)\}\}/g, (_, name: string) => state.vars[name] ?? ''),
      );
    }
    const type = file.endsWith('cyrillic.html')
      ? 'text/html'
      : (TYPES[ext] ?? 'application/octet-stream');
    // Fixtures are fetched cross-origin by the SPA fixture, as an API would be.
    const headers: Record<string, string> = {
      'content-type': type,
      'content-length': String(body.length),
      'access-control-allow-origin': '*',
    };
    if (options.cache) {
      const etag = `"${body.length}-${fs.statSync(file).mtimeMs}"`;
      headers['etag'] = etag;
      if (req.headers['if-none-match'] === etag) return void res.writeHead(304, { etag }).end();
    }
    res.writeHead(200, headers).end(req.method === 'HEAD' ? undefined : body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  state.origin = `http://127.0.0.1:${port}`;
  state.host = `127.0.0.1:${port}`;
  state.vars.ORIGIN = state.origin;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}

/** A plain static file server for an exported copy, like `python3 -m http.server`. */
export function serveDirectory(dir: string): Promise<FixtureServer> {
  return serveFixture(dir, {}, { template: false });
}
