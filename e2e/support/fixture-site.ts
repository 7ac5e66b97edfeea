import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const fixtures = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../packages/engine/test/fixtures',
);

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
  '.vtt': 'text/vtt',
  '.webm': 'video/webm',
};
const TEMPLATED = new Set(['.html', '.css', '.js', '.xml', '.webmanifest', '.txt']);

export interface StaticSite {
  /** `http://127.0.0.1:{port}` */
  origin: string;
  close: () => Promise<void>;
}

/** A static server on 127.0.0.1 for one fixture folder; `{{NAME}}` in text files becomes vars[NAME]. */
async function serveDir(dir: string, vars: () => Record<string, string>): Promise<StaticSite> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fixture');
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
    let body = fs.readFileSync(file);
    if (TEMPLATED.has(ext) && !file.endsWith('cyrillic.html')) {
      const values = vars();
      body = Buffer.from(
        body.toString('utf8').replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name] ?? ''),
      );
    }
    res.writeHead(200, { 'content-type': TYPES[ext] ?? 'application/octet-stream' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The engine's `basic` fixture (h1 "Mirror fixture") with its `{{CDN}}` assets on a second server,
 * as a website for the e2e server to mirror (it runs with MIRROR_ALLOW_PRIVATE_NETWORKS=true).
 */
export async function startFixtureSite(): Promise<StaticSite> {
  const cdn = await serveDir(path.join(fixtures, 'cdn'), () => ({}));
  const site = await serveDir(path.join(fixtures, 'basic'), () => ({ CDN: cdn.origin }));
  return {
    origin: site.origin,
    close: async () => {
      await Promise.all([site.close(), cdn.close()]);
    },
  };
}
