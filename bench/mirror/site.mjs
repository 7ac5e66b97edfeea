// Sites for the mirror benchmark, served on 127.0.0.1 with a fixed added latency per response,
// counting requests and bytes.
// - createSite: a generated site (deterministic): PAGES pages, each linking to a handful of other
//   pages and using a stylesheet, scripts and images from a pool of ASSETS assets. Bodies are built
//   on request from a small per-asset plan, so a 20,000-page site costs a few MB, not gigabytes.
// - generateSite: the same site as a Map of path → { type, body } (bench/hosting edits it).
// - loadDirectory: a folder on disk (a real documentation site), read into memory.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

const assetPath = (i) => {
  const kind = i % 10;
  if (kind === 0) return `/static/css/s${i}.css`;
  if (kind === 1) return `/static/js/m${i}.js`;
  return `/static/img/i${i}.png`;
};

/** Each asset's size and (stylesheets) the image it references, in the order they were drawn. */
function assetPlan(assets, seed) {
  let state = seed;
  const rand = (n) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % n;
  };
  const sizes = new Uint32Array(assets);
  const images = new Float64Array(assets);
  for (let i = 0; i < assets; i++) {
    sizes[i] = 4000 + rand(20000);
    if (i % 10 === 0) images[i] = 2 + 10 * rand(assets / 10);
  }
  return { sizes, images };
}

// Image i's bytes are (i * 31 + b * 7) & 0xff, that is 7 * (b + k) mod 256 with
// k = 31 * 183 * i mod 256 (183 is the inverse of 7 mod 256): a slice of one shared buffer.
const IMAGE_BYTES = Buffer.alloc(256 + 24000);
for (let j = 0; j < IMAGE_BYTES.length; j++) IMAGE_BYTES[j] = (j * 7) & 0xff;
const image = (i, size) => {
  const k = (i * 31 * 183) & 0xff;
  return IMAGE_BYTES.subarray(k, k + size);
};

/** A text asset: head, `size` filler characters, tail (all ASCII, so length = characters). */
const textAsset = (type, head, filler, size, tail) => ({
  type,
  length: head.length + size + tail.length,
  body: () => Buffer.from(head + filler.repeat(size) + tail),
});

const INDEX = /^(0|[1-9]\d*)$/;

export function createSite({ pages = 2000, assets = 10000, seed = 42 } = {}) {
  const { sizes, images } = assetPlan(assets, seed);
  const perPage = Math.ceil(assets / pages);

  const asset = (i) => {
    const size = sizes[i];
    if (i % 10 === 0)
      return textAsset(
        'text/css',
        `.c${i}{background:url(${assetPath(images[i])})}\n/* `,
        'x',
        size,
        ' */',
      );
    if (i % 10 === 1) return textAsset('text/javascript', `window.m${i}=${i};//`, 'y', size, '');
    return { type: 'image/png', length: size, body: () => image(i, size) };
  };

  const pageHtml = (i) => {
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
    return `<!doctype html><html><head><meta charset="utf-8"><title>Page ${i}</title></head><body><h1>Page ${i}</h1><nav>${links}</nav>${own.join('')}<p>${'Lorem ipsum dolor sit amet. '.repeat(40)}</p></body></html>`;
  };
  const page = (i) => ({ type: 'text/html; charset=utf-8', body: () => Buffer.from(pageHtml(i)) });
  const robots = { type: 'text/plain', body: () => Buffer.from('User-agent: *\nAllow: /\n') };

  /** A file's description ({ type, body(), length? }) or undefined. */
  const lookup = (p) => {
    if (p === '/') return page(0);
    if (p === '/robots.txt') return robots;
    const m = /^\/(?:p\/(\d+)\.html|static\/(css\/s|js\/m|img\/i)(\d+)\.(css|js|png))$/.exec(p);
    if (!m) return undefined;
    if (m[1] !== undefined) {
      const i = Number(m[1]);
      return INDEX.test(m[1]) && i < pages ? page(i) : undefined;
    }
    const i = Number(m[3]);
    const kind = { 'css/s': 'css', 'js/m': 'js', 'img/i': 'png' }[m[2]];
    const ok = INDEX.test(m[3]) && i < assets && kind === m[4] && assetPath(i).endsWith(`.${kind}`);
    return ok ? asset(i) : undefined;
  };

  function* paths() {
    for (let i = 0; i < assets; i++) yield assetPath(i);
    for (let i = 0; i < pages; i++) yield `/p/${i}.html`;
    yield '/';
    yield '/robots.txt';
  }

  return {
    pages,
    assets,
    paths,
    get(p) {
      const file = lookup(p);
      return file && { type: file.type, body: file.body() };
    },
    /** Bytes of every file once (the home page is counted as /p/0.html), without building assets. */
    totalBytes() {
      let total = 0;
      for (let i = 0; i < assets; i++) total += asset(i).length;
      for (let i = 0; i < pages; i++) total += Buffer.byteLength(pageHtml(i));
      return total + robots.body().length;
    },
  };
}

/** The generated site as a Map of path → { type, body } ('/' is the same object as /p/0.html). */
export function generateSite(options = {}) {
  const site = createSite(options);
  const files = new Map();
  for (const p of site.paths()) files.set(p, p === '/' ? files.get('/p/0.html') : site.get(p));
  return files;
}

const TYPES = {
  html: 'text/html; charset=utf-8',
  htm: 'text/html; charset=utf-8',
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  json: 'application/json',
  map: 'application/json',
  txt: 'text/plain; charset=utf-8',
  py: 'text/plain; charset=utf-8',
  buildinfo: 'text/plain; charset=utf-8',
  xml: 'application/xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  ico: 'image/x-icon',
  woff: 'font/woff',
  woff2: 'font/woff2',
  ttf: 'font/ttf',
  pdf: 'application/pdf',
  zip: 'application/zip',
  gz: 'application/gzip',
  bz2: 'application/x-bzip2',
};
const typeOf = (file) =>
  TYPES[path.extname(file).slice(1).toLowerCase()] ?? 'application/octet-stream';

/**
 * Every file under `root` (symlinks followed) as a Map of URL path → { type, body };
 * a folder's index.html also answers for the folder ('/', '/library/').
 */
export function loadDirectory(root) {
  const files = new Map();
  const walk = (dir, prefix) => {
    for (const name of fs.readdirSync(dir)) {
      const full = path.join(dir, name);
      const stat = fs.statSync(full, { throwIfNoEntry: false });
      if (stat?.isDirectory()) walk(full, `${prefix}${name}/`);
      else if (stat?.isFile()) {
        const file = { type: typeOf(name), body: fs.readFileSync(full) };
        files.set(`${prefix}${name}`, file);
        if (name === 'index.html') files.set(prefix, file);
      }
    }
  };
  walk(root, '/');
  return files;
}

/** Serves `files` (anything with get(path) → { type, body } | undefined: a Map or createSite). */
export async function serveSite(files, { latencyMs = 20 } = {}) {
  const stats = { requests: 0, bytes: 0, notFound: [] };
  const answer = (req, res) => {
    let file;
    try {
      file = files.get(decodeURIComponent(new URL(req.url, 'http://x').pathname));
    } catch {
      return res.writeHead(400, { 'content-type': 'text/plain' }).end('bad request');
    }
    if (!file) {
      stats.notFound.push(req.url);
      return res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
    stats.bytes += file.body.length;
    res
      .writeHead(200, { 'content-type': file.type, 'content-length': file.body.length })
      .end(file.body);
  };
  const server = http.createServer((req, res) => {
    stats.requests++;
    // setTimeout(…, 0) waits 1 ms: with no latency asked for, answer at once.
    if (latencyMs > 0) setTimeout(answer, latencyMs, req, res);
    else answer(req, res);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/`,
    stats,
    reset() {
      stats.requests = 0;
      stats.bytes = 0;
      stats.notFound = [];
    },
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(resolve))),
  };
}
