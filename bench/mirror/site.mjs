// A generated site (deterministic): PAGES pages, each linking to a handful of other pages and
// using a stylesheet, scripts and images from a pool of ASSETS assets. Served from memory on
// 127.0.0.1 with a fixed added latency per response, counting requests and bytes.
import http from 'node:http';

export function generateSite({ pages = 2000, assets = 10000, seed = 42 } = {}) {
  let state = seed;
  const rand = (n) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % n;
  };
  const files = new Map();
  const assetPath = (i) => {
    const kind = i % 10;
    if (kind === 0) return `/static/css/s${i}.css`;
    if (kind === 1) return `/static/js/m${i}.js`;
    return `/static/img/i${i}.png`;
  };
  for (let i = 0; i < assets; i++) {
    const p = assetPath(i);
    const size = 4000 + rand(20000);
    if (p.endsWith('.css')) {
      const img = assetPath(2 + 10 * rand(assets / 10));
      files.set(p, {
        type: 'text/css',
        body: Buffer.from(`.c${i}{background:url(${img})}\n/* ${'x'.repeat(size)} */`),
      });
    } else if (p.endsWith('.js')) {
      files.set(p, {
        type: 'text/javascript',
        body: Buffer.from(`window.m${i}=${i};//${'y'.repeat(size)}`),
      });
    } else {
      const body = Buffer.alloc(size);
      for (let b = 0; b < size; b++) body[b] = (i * 31 + b * 7) & 0xff;
      files.set(p, { type: 'image/png', body });
    }
  }
  const perPage = Math.ceil(assets / pages);
  for (let i = 0; i < pages; i++) {
    const links = [1, 2, 3, 7, 50]
      .map((d) => `<a href="/p/${(i + d) % pages}.html">Page ${(i + d) % pages}</a>`)
      .join(' ');
    const own = [];
    for (let k = 0; k < perPage; k++) {
      const a = i * perPage + k;
      if (a >= assets) break;
      const p = assetPath(a);
      own.push(
        p.endsWith('.css')
          ? `<link rel="stylesheet" href="${p}">`
          : p.endsWith('.js')
            ? `<script src="${p}"></script>`
            : `<img src="${p}" alt="">`,
      );
    }
    const html = `<!doctype html><html><head><meta charset="utf-8"><title>Page ${i}</title></head><body><h1>Page ${i}</h1><nav>${links}</nav>${own.join('')}<p>${'Lorem ipsum dolor sit amet. '.repeat(40)}</p></body></html>`;
    files.set(`/p/${i}.html`, { type: 'text/html; charset=utf-8', body: Buffer.from(html) });
  }
  files.set('/', files.get('/p/0.html'));
  files.set('/robots.txt', { type: 'text/plain', body: Buffer.from('User-agent: *\nAllow: /\n') });
  return files;
}

export async function serveSite(files, { latencyMs = 20 } = {}) {
  const stats = { requests: 0, bytes: 0 };
  const server = http.createServer((req, res) => {
    stats.requests++;
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const file = files.get(path);
    setTimeout(() => {
      if (!file) return res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      stats.bytes += file.body.length;
      res
        .writeHead(200, { 'content-type': file.type, 'content-length': file.body.length })
        .end(file.body);
    }, latencyMs);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/`,
    stats,
    reset() {
      stats.requests = 0;
      stats.bytes = 0;
    },
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(resolve))),
  };
}
