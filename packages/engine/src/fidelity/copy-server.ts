/**
 * A tiny static server for an exported copy (`exportStatic`'s folder), on 127.0.0.1 only, for the
 * duration of a fidelity check. It answers like the static hosts the export is made for: the file,
 * else the folder's `index.html`, else the name with `.html`, else the page's export name (a query
 * folded in: `/list?page=2` → `/list@page=2.html`), else `404.html` with status 404.
 */
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { exportPathOf } from '../export/export-static.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.mp3': 'audio/mpeg',
  '.ogg': 'audio/ogg',
  '.vtt': 'text/vtt',
  '.pdf': 'application/pdf',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
};

export interface CopyServer {
  /** `http://127.0.0.1:PORT`. */
  url: string;
  close(): Promise<void>;
}

async function isFile(file: string): Promise<boolean> {
  return fs.stat(file).then(
    (s) => s.isFile(),
    () => false,
  );
}

/** Serves `dir` on 127.0.0.1 at a free port until `close`. */
export async function serveCopyFolder(dir: string): Promise<CopyServer> {
  const root = path.resolve(dir);
  const inside = (relative: string) => {
    const file = path.join(root, ...relative.split('/'));
    return file === root || file.startsWith(root + path.sep) ? file : null;
  };
  const find = async (pathname: string, search: string): Promise<string | null> => {
    const candidates = pathname.endsWith('/')
      ? [`${pathname}index.html`]
      : [pathname, `${pathname}/index.html`, `${pathname}.html`];
    if (search) {
      const exported = exportPathOf({
        path: `${pathname}${search}`,
        contentType: 'text/html',
        status: 200,
      });
      candidates.unshift(exported);
    }
    for (const candidate of candidates) {
      const file = inside(candidate);
      if (file && (await isFile(file))) return file;
    }
    return null;
  };
  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://copy');
      let pathname = url.pathname;
      try {
        pathname = decodeURIComponent(pathname);
      } catch {
        // served as written
      }
      let status = 200;
      let file = await find(pathname, url.search);
      if (!file) {
        status = 404;
        file = inside('/404.html');
        if (file && !(await isFile(file))) file = null;
      }
      if (!file) {
        res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found');
        return;
      }
      const { size } = await fs.stat(file);
      res.writeHead(status, {
        'content-type': TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
        'content-length': String(size),
        'cache-control': 'no-store',
      });
      if (req.method === 'HEAD') res.end();
      else
        createReadStream(file)
          .on('error', () => res.destroy())
          .pipe(res);
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
