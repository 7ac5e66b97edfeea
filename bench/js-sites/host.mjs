// A static host for the corpus' originals, as typical hosts (Netlify, GitHub Pages, nginx with
// try_files) serve a generator's output:
//   - a file answers its path; the query string is ignored (`index.txt?_rsc=…` finds index.txt);
//   - `/x` answers `/x.html` when that file exists (clean URLs: Next.js export, VitePress), else a
//     folder `/x` redirects to `/x/` and `/x/` answers `/x/index.html`;
//   - anything else answers the site's `404.html` with status 404 (or, with `appShell`, that file
//     with status 200, like the hosts single-page apps are deployed on);
//   - keep-alive, a listen backlog of 511, Last-Modified and ETag with 304s (wget -N uses them).
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.cjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.xml': 'application/xml',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.eot': 'application/vnd.ms-fontobject',
  '.wasm': 'application/wasm',
  '.pf_fragment': 'application/octet-stream',
  '.pf_index': 'application/octet-stream',
  '.pf_meta': 'application/octet-stream',
};

const isFile = (f) => {
  try {
    return fs.statSync(f).isFile();
  } catch {
    return false;
  }
};
const isDir = (f) => {
  try {
    return fs.statSync(f).isDirectory();
  } catch {
    return false;
  }
};

/** Serves `root` on 127.0.0.1; resolves with { origin, requests, close }. */
export async function serveStaticHost(root, { appShell } = {}) {
  root = path.resolve(root);
  const state = { origin: '', requests: [], close: async () => undefined };
  const send = (req, res, status, file) => {
    const stat = fs.statSync(file);
    const etag = `"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
    const headers = {
      'content-type': TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
      'last-modified': stat.mtime.toUTCString(),
      etag,
      'cache-control': 'public, max-age=0, must-revalidate',
    };
    if (status === 200 && req.headers['if-none-match'] === etag)
      return void res.writeHead(304, headers).end();
    const since = Date.parse(req.headers['if-modified-since'] ?? '');
    if (
      status === 200 &&
      !req.headers['if-none-match'] &&
      since >= Math.floor(stat.mtimeMs / 1000) * 1000
    )
      return void res.writeHead(304, headers).end();
    headers['content-length'] = String(stat.size);
    res.writeHead(status, headers);
    if (req.method === 'HEAD') return void res.end();
    fs.createReadStream(file).pipe(res);
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://host');
    state.requests.push(`${url.pathname}${url.search}`);
    if (req.method !== 'GET' && req.method !== 'HEAD') return void res.writeHead(405).end();
    let pathname;
    try {
      pathname = decodeURIComponent(url.pathname);
    } catch {
      return void res.writeHead(400).end();
    }
    const file = path.join(root, pathname);
    if (file !== root && !file.startsWith(root + path.sep)) return void res.writeHead(403).end();
    if (pathname.endsWith('/')) {
      if (isFile(path.join(file, 'index.html')))
        return send(req, res, 200, path.join(file, 'index.html'));
    } else {
      if (isFile(file)) return send(req, res, 200, file);
      if (isFile(`${file}.html`)) return send(req, res, 200, `${file}.html`);
      if (isDir(file) && isFile(path.join(file, 'index.html')))
        return void res
          .writeHead(301, { location: `${url.pathname}/${url.search}`, 'content-length': '0' })
          .end();
    }
    if (appShell && isFile(path.join(root, appShell)))
      return send(req, res, 200, path.join(root, appShell));
    if (isFile(path.join(root, '404.html')))
      return send(req, res, 404, path.join(root, '404.html'));
    res.writeHead(404, { 'content-type': 'text/plain', 'content-length': '9' }).end('not found');
  });
  server.keepAliveTimeout = 30_000;
  await new Promise((resolve) =>
    server.listen({ port: 0, host: '127.0.0.1', backlog: 511 }, resolve),
  );
  state.origin = `http://127.0.0.1:${server.address().port}`;
  let closing;
  state.close = () =>
    (closing ??= new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }));
  return state;
}

// `node bench/js-sites/host.mjs DIR [PORT]`: serve a built site to look at it by hand.
if (import.meta.url === `file://${process.argv[1]}`) {
  const s = await serveStaticHost(process.argv[2]);
  console.log(`${process.argv[2]} on ${s.origin}`);
}
