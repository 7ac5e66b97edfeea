// The hostile origins of the hostile-origin suite (bench/hostile/run.mjs): web servers on 127.0.0.1
// written with raw node:net, HTTP by hand, so each controls its framing byte by byte (no
// Content-Length, a lying one, bad chunks, a drip, a flood of headers, a garbage status line…), and
// one real `python3 -m http.server` on a generated static site.
//
// Every origin counts its requests and knows which connections are still being answered (`busy()`:
// a handler that has not returned, e.g. a drip still dripping), so the suite can tell whether the
// service let go of a connection once its run ended. `close()` stops everything at once: every
// socket destroyed, every timer cleared, every pending sleep resolved `false`.
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import zlib from 'node:zlib';

export const KiB = 1024;
export const MiB = 1024 * KiB;
export const GiB = 1024 * MiB;

export const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

/** A status line and headers (`version` e.g. `HTTP/1.0`); values written as given (latin1). */
export function head(status, headers = {}, version = 'HTTP/1.1') {
  const reason = { 200: 'OK', 301: 'Moved Permanently', 302: 'Found', 307: 'Temporary Redirect' };
  let text = `${version} ${status} ${reason[status] ?? 'Status'}\r\n`;
  for (const [name, value] of Object.entries(headers)) text += `${name}: ${value}\r\n`;
  return Buffer.from(`${text}\r\n`, 'latin1');
}

/** A small HTML page. */
export function html(title, body) {
  return Buffer.from(
    `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head>` +
      `<body><h1>${title}</h1>${body}</body></html>\n`,
  );
}

// ---- the raw origin ---------------------------------------------------------------------------

/**
 * A web server on 127.0.0.1 and a free port that reads each request's head by hand and lets
 * `handler(req, res)` write whatever bytes it likes. `req`: { method, path, headers }. `res`:
 *   write(bytes) → Promise<boolean>  (waits for drain; false once the peer or the suite is gone)
 *   writeAll(bytes, chunk = 64 KiB)   the same in pieces, so big bodies go through backpressure
 *   sleep(ms) → Promise<boolean>      (false as soon as the connection closes or the origin stops)
 *   alive                             the connection is open and the origin not stopping
 *   keepAlive()                       after the handler returns, read the next request on this
 *                                     connection (otherwise the origin ends the connection)
 *   destroy()                         reset the connection
 * A handler that throws resets the connection.
 */
export async function startRawOrigin(name, handler) {
  const sockets = new Set();
  const timers = new Set();
  const sleepers = new Set();
  const stats = { requests: 0, connections: 0, paths: new Map(), bytesOut: 0 };
  let stopping = false;

  const server = net.createServer((socket) => {
    stats.connections++;
    sockets.add(socket);
    socket.busy = false;
    socket.setNoDelay(true);
    socket.on('error', () => undefined);
    socket.on('close', () => {
      sockets.delete(socket);
      for (const wake of [...sleepers]) if (wake.socket === socket) wake(false);
    });
    let buffered = Buffer.alloc(0);
    let answering = false;

    const next = () => {
      if (answering || stopping || socket.destroyed) return;
      const end = buffered.indexOf('\r\n\r\n');
      if (end < 0) {
        if (buffered.length > 256 * KiB) socket.destroy();
        return;
      }
      const lines = buffered.subarray(0, end).toString('latin1').split('\r\n');
      buffered = buffered.subarray(end + 4);
      const [method = '', target = '/'] = lines[0].split(' ');
      const headers = {};
      for (const line of lines.slice(1)) {
        const colon = line.indexOf(':');
        if (colon > 0)
          headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const pathname = target.split('?')[0];
      const req = { method, path: target, pathname, headers };
      stats.requests++;
      stats.paths.set(pathname, (stats.paths.get(pathname) ?? 0) + 1);
      answering = true;
      socket.busy = true;
      let keep = false;
      const res = {
        get alive() {
          return !stopping && !socket.destroyed && socket.writable;
        },
        write(bytes) {
          if (!res.alive) return Promise.resolve(false);
          const data = typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : bytes;
          stats.bytesOut += data.length;
          if (socket.write(data)) return Promise.resolve(true);
          return new Promise((resolve) => {
            const done = () => {
              socket.off('drain', done);
              socket.off('close', done);
              resolve(res.alive);
            };
            socket.on('drain', done);
            socket.on('close', done);
          });
        },
        async writeAll(bytes, chunk = 64 * KiB) {
          for (let at = 0; at < bytes.length; at += chunk) {
            if (!(await res.write(bytes.subarray(at, at + chunk)))) return false;
          }
          return true;
        },
        sleep(ms) {
          if (!res.alive) return Promise.resolve(false);
          return new Promise((resolve) => {
            const wake = (value) => {
              clearTimeout(timer);
              timers.delete(timer);
              sleepers.delete(wake);
              resolve(value && res.alive);
            };
            wake.socket = socket;
            const timer = setTimeout(() => wake(true), ms);
            timers.add(timer);
            sleepers.add(wake);
          });
        },
        keepAlive() {
          keep = true;
        },
        destroy() {
          socket.destroy();
        },
      };
      Promise.resolve()
        .then(() => handler(req, res))
        .then(
          () => {
            answering = false;
            socket.busy = false;
            if (socket.destroyed) return;
            if (keep && !stopping) next();
            else socket.end();
          },
          () => {
            answering = false;
            socket.busy = false;
            socket.destroy();
          },
        );
    };
    socket.on('data', (chunk) => {
      buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
      next();
    });
  });
  server.maxConnections = 2000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    name,
    port,
    url: `http://127.0.0.1:${port}/`,
    stats,
    /** Connections whose answer is still being written (or held open) by a handler. */
    busy: () => [...sockets].filter((s) => s.busy && !s.destroyed).length,
    open: () => sockets.size,
    close() {
      stopping = true;
      for (const wake of [...sleepers]) wake(false);
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** A whole answer with a Content-Length, on a connection kept open for the next request. */
async function sendWhole(res, status, type, body, extra = {}) {
  res.keepAlive();
  await res.write(head(status, { 'Content-Type': type, 'Content-Length': body.length, ...extra }));
  await res.writeAll(body);
}

const notFound = (res) => sendWhole(res, 404, 'text/plain', Buffer.from('not found\n'));

// ---- legitimate sites with awkward framing (cases 1 and 2) --------------------------------------

/** Sizes in KiB of the assets: 100 KiB to 2 MiB, about 30 MiB in all (under the demo's 50 MiB). */
const ASSET_KIB = [
  100, 2048, 700, 1500, 250, 1200, 400, 1800, 150, 900, 2000, 600, 1100, 300, 1700, 500, 1900, 120,
  800, 1400, 220, 1300, 450, 1600, 180, 1000, 2048, 650, 1250, 350, 1750, 550,
];

/**
 * A site of 8 pages (each ~256 KiB of HTML ending in `end of <path>`) and 32 incompressible images
 * of 100 KiB–2 MiB, 4 per page, plus a stylesheet: every body is larger than a socket buffer.
 * `files` maps each path to its bytes and type; `pages` / `assets` list the paths.
 */
export function buildAssetSite() {
  const files = new Map();
  const pages = ['/', ...Array.from({ length: 7 }, (_, i) => `/page-${i + 1}.html`)];
  const assets = ASSET_KIB.map((_, i) => `/assets/a${i}.png`);
  ASSET_KIB.forEach((kib, i) =>
    files.set(assets[i], { type: 'image/png', body: randomBytes(kib * KiB) }),
  );
  files.set('/style.css', {
    type: 'text/css',
    body: Buffer.from('body { font-family: serif; }\nh1 { color: #333; }\n'),
  });
  const nav = pages.map((p) => `<a href="${p}">${p}</a>`).join(' ');
  const filler = `<p>${'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(60)}</p>\n`;
  pages.forEach((pagePath, n) => {
    const images = assets
      .slice(n * 4, n * 4 + 4)
      .map((a) => `<img src="${a}" alt="">`)
      .join('');
    const body = Buffer.from(
      `<!doctype html><html><head><meta charset="utf-8"><title>Page ${pagePath}</title>` +
        `<link rel="stylesheet" href="/style.css"></head><body><h1>Page ${pagePath}</h1>` +
        `<nav>${nav}</nav>${images}${filler.repeat(75)}<p>end of ${pagePath}</p></body></html>\n`,
    );
    files.set(pagePath, { type: 'text/html; charset=utf-8', body });
  });
  return { files, pages, assets };
}

/**
 * Case 1 / 2: the site above with bodies delimited only by closing the connection — `HTTP/1.0`
 * answers (no keep-alive) or `HTTP/1.1` with `Connection: close`; never a Content-Length.
 */
export function closeDelimitedOrigin(site, version) {
  return startRawOrigin(`close-delimited ${version}`, async (req, res) => {
    const file = site.files.get(req.pathname);
    const extra = version === 'HTTP/1.1' ? { Connection: 'close' } : {};
    if (!file) {
      await res.write(head(404, { 'Content-Type': 'text/plain', ...extra }, version));
      await res.write('not found\n');
      return;
    }
    await res.write(head(200, { 'Content-Type': file.type, ...extra }, version));
    // Odd pieces, so the body arrives in reads of every size.
    await res.writeAll(file.body, 48 * KiB + 17);
  });
}

// ---- python3 -m http.server (case 3) ---------------------------------------------------------

/**
 * A static site of `pages` pages in `dir`: index.html links every page; each page links its
 * neighbours and 8 others, and has a stylesheet, a script, a logo and 12 images of its own
 * (`img/p<n>.png`, 16–315 KiB, `pages` of them), so even the demo's 10 pages make ~140 requests
 * to a server that takes 5 connections in its backlog. Returns the text every page carries.
 */
export function writeStaticSite(dir, pages = 240) {
  fs.mkdirSync(path.join(dir, 'img'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'site.css'), 'body { margin: 2em; }\n.card { padding: 1em; }\n');
  fs.writeFileSync(path.join(dir, 'site.js'), 'document.documentElement.dataset.ready = "1";\n');
  for (let i = 0; i < pages; i++) {
    fs.writeFileSync(
      path.join(dir, 'img', `p${i}.png`),
      randomBytes((16 + ((i * 37) % 300)) * KiB),
    );
  }
  fs.writeFileSync(path.join(dir, 'img', 'logo.png'), randomBytes(12 * KiB));
  const name = (i) => `page-${String(i).padStart(3, '0')}.html`;
  const marker = 'generated static site for the hostile-origin suite';
  for (let i = 1; i <= pages; i++) {
    const others = [
      i - 1,
      i + 1,
      ...Array.from({ length: 8 }, (_, k) => ((i * 7 + k * 31) % pages) + 1),
    ]
      .filter((n) => n >= 1 && n <= pages && n !== i)
      .map((n) => `<a href="${name(n)}">Page ${n}</a>`)
      .join(' ');
    fs.writeFileSync(
      path.join(dir, name(i)),
      `<!doctype html><html><head><meta charset="utf-8"><title>Page ${i}</title>` +
        '<link rel="stylesheet" href="site.css"><script src="site.js"></script></head><body>' +
        `<h1>Page ${i}</h1><img src="img/logo.png" alt="">` +
        Array.from(
          { length: 12 },
          (_, k) => `<img src="img/p${(i * 12 + k) % pages}.png" alt="">`,
        ).join('') +
        `<p>${'Some text. '.repeat(200)}</p>` +
        `<nav><a href="index.html">Home</a> ${others}</nav><p>${marker}</p></body></html>\n`,
    );
  }
  const all = Array.from(
    { length: pages },
    (_, k) => `<li><a href="${name(k + 1)}">Page ${k + 1}</a></li>`,
  );
  fs.writeFileSync(
    path.join(dir, 'index.html'),
    `<!doctype html><html><head><meta charset="utf-8"><title>Static site</title>` +
      `<link rel="stylesheet" href="site.css"></head><body><h1>Static site</h1>` +
      `<img src="img/logo.png" alt=""><ul>${all.join('')}</ul><p>${marker}</p></body></html>\n`,
  );
  return marker;
}

/**
 * `python3 -m http.server` on 127.0.0.1:`port` serving `dir`: HTTP/1.0, one connection per request,
 * a listen backlog of 5 (socketserver's default). Resolves once it accepts connections.
 */
export async function startPythonServer(dir, port) {
  const child = spawn(
    'python3',
    ['-m', 'http.server', String(port), '--bind', '127.0.0.1', '--directory', dir],
    { stdio: ['ignore', 'ignore', 'pipe'], detached: true },
  );
  let stderr = '';
  child.stderr.on('data', (c) => {
    stderr += c;
    if (stderr.length > 200_000) stderr = stderr.slice(-100_000);
  });
  const exited = new Promise((resolve) =>
    child.on('exit', (code, signal) => resolve(code ?? signal)),
  );
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // gone
    }
    await exited;
  };
  const deadline = Date.now() + 15_000;
  for (;;) {
    const up = await new Promise((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => (socket.destroy(), resolve(true)));
      socket.on('error', () => resolve(false));
    });
    if (up) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`python3 -m http.server did not start: ${stderr.slice(-500)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    name: 'python3 http.server',
    port,
    url: `http://127.0.0.1:${port}/`,
    pid: child.pid,
    stats: {
      get requests() {
        return (stderr.match(/" \d{3} /g) ?? []).length;
      },
    },
    busy: () => 0,
    open: () => 0,
    close: stop,
  };
}

// ---- a page with hundreds of thousands of links (case 4) ----------------------------------------

/**
 * `/` links `count` distinct same-site pages (`<a href="/l/N.html">`, ~22 bytes each: 380 000 make
 * ~8.3 MB, under the demo's 10 MiB per file, so the page is parsed and its links reach the queue
 * instead of being refused for its size); each of those is a small page linking back.
 */
export function linkFloodOrigin(count) {
  const parts = [
    Buffer.from('<!doctype html><html><head><title>Links</title></head><body><h1>Links</h1>\n'),
  ];
  let line = '';
  for (let i = 0; i < count; i++) {
    line += `<a href="/l/${i}.html">\n`;
    if (line.length > 64 * KiB) {
      parts.push(Buffer.from(line));
      line = '';
    }
  }
  parts.push(Buffer.from(`${line}</body></html>\n`));
  const page = Buffer.concat(parts);
  const origin = startRawOrigin('link flood', async (req, res) => {
    if (req.pathname === '/') return sendWhole(res, 200, 'text/html; charset=utf-8', page);
    if (req.pathname.startsWith('/l/')) {
      return sendWhole(
        res,
        200,
        'text/html; charset=utf-8',
        html(`Page ${req.pathname}`, '<a href="/">Home</a>'),
      );
    }
    return notFound(res);
  });
  return origin.then((o) => Object.assign(o, { pageBytes: page.length }));
}

// ---- drips (case 5) -----------------------------------------------------------------------------

/** `/` sends its headers, then one byte of body per second, forever (no length, Connection: close). */
export function dripBodyOrigin() {
  return startRawOrigin('drip body', async (req, res) => {
    if (req.pathname !== '/') return notFound(res);
    await res.write(head(200, { 'Content-Type': 'text/html', Connection: 'close' }));
    const start = Buffer.from('<!doctype html><html><body><p>');
    for (let i = 0; ; i++) {
      if (!(await res.write(i < start.length ? start.subarray(i, i + 1) : 'a'))) return;
      if (!(await res.sleep(1000))) return;
    }
  });
}

/** `/` sends its status line and headers one byte per second, forever (they never end). */
export function dripHeadersOrigin() {
  return startRawOrigin('drip headers', async (req, res) => {
    if (req.pathname !== '/') return notFound(res);
    const text = Buffer.from('HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n');
    for (let i = 0; ; i++) {
      const byte =
        i < text.length
          ? text.subarray(i, i + 1)
          : Buffer.from(i % 40 === 39 ? '\n' : i % 40 === 38 ? '\r' : i % 40 === 0 ? 'X' : 'a');
      if (!(await res.write(byte))) return;
      if (!(await res.sleep(1000))) return;
    }
  });
}

// ---- gzip bombs (case 6) ---------------------------------------------------------------------

/**
 * Raw deflate data for `mib` MiB of zeros: one fully flushed block of 1 MiB of zeros (~1 KB, which
 * does not depend on what came before it) repeated, then an empty final block.
 */
function deflatedZeros(mib) {
  const block = zlib.deflateRawSync(Buffer.alloc(MiB), {
    level: 9,
    finishFlush: zlib.constants.Z_FULL_FLUSH,
  });
  return Buffer.concat([...Array(mib).fill(block), Buffer.from([0x03, 0x00])]);
}

/** A gzip member around raw deflate data (the CRC is not the data's: nobody gets that far). */
function gzipMember(deflated, size) {
  const header = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 2, 3]);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(0, 0);
  trailer.writeUInt32LE(size % 2 ** 32, 4);
  return Buffer.concat([header, deflated, trailer]);
}

let bombs;
/**
 * `single`: one gzip layer, ~10.6 MB decoding to 10 GiB of zeros. `nested`: that, gzipped again
 * (~24 KB; `Content-Encoding: gzip, gzip` decodes it to 10 GiB).
 */
export function gzipBombs() {
  if (!bombs) {
    const single = gzipMember(deflatedZeros(10 * 1024), 10 * GiB);
    bombs = { single, nested: zlib.gzipSync(single, { level: 9 }), decoded: 10 * GiB };
  }
  return bombs;
}

/**
 * `/` is a page linking `/bomb.html` (`Content-Encoding: gzip, gzip`, ~24 KB with its length) and
 * showing `/bomb.png` and `/bomb.css` (`Content-Encoding: gzip`, ~10.6 MB without a length, the
 * connection closed after it): each decodes to 10 GiB.
 */
export function gzipBombOrigin() {
  const { single, nested } = gzipBombs();
  return startRawOrigin('gzip bomb', async (req, res) => {
    if (req.pathname === '/') {
      return sendWhole(
        res,
        200,
        'text/html; charset=utf-8',
        html(
          'Bombs',
          '<a href="/bomb.html">page</a><img src="/bomb.png" alt=""><link rel="stylesheet" href="/bomb.css">',
        ),
      );
    }
    if (req.pathname === '/bomb.html') {
      return sendWhole(res, 200, 'text/html; charset=utf-8', nested, {
        'Content-Encoding': 'gzip, gzip',
      });
    }
    if (req.pathname === '/bomb.png' || req.pathname === '/bomb.css') {
      const type = req.pathname.endsWith('.png') ? 'image/png' : 'text/css';
      await res.write(
        head(200, { 'Content-Type': type, 'Content-Encoding': 'gzip', Connection: 'close' }),
      );
      await res.writeAll(single);
      return;
    }
    return notFound(res);
  });
}

/**
 * A sitemap that is a gzip bomb: robots.txt names `/sitemap.xml`, whose body is raw gzip bytes
 * (~10.6 MB, no Content-Encoding: a `.xml.gz` sitemap as some sites serve it) that decode to 10 GiB.
 * `/` is a small ordinary page.
 */
export function sitemapBombOrigin() {
  const { single } = gzipBombs();
  return startRawOrigin('sitemap bomb', async (req, res) => {
    if (req.pathname === '/robots.txt') {
      return sendWhole(
        res,
        200,
        'text/plain',
        Buffer.from('User-agent: *\nAllow: /\nSitemap: /sitemap.xml\n'),
      );
    }
    if (req.pathname === '/sitemap.xml') return sendWhole(res, 200, 'application/xml', single);
    if (req.pathname === '/') {
      return sendWhole(
        res,
        200,
        'text/html; charset=utf-8',
        html('Home', '<a href="/about.html">About</a>'),
      );
    }
    if (req.pathname === '/about.html')
      return sendWhole(res, 200, 'text/html; charset=utf-8', html('About', ''));
    return notFound(res);
  });
}

// ---- a declared 10 GB body (case 7) -----------------------------------------------------------

/**
 * Content-Length: 10737418240 everywhere but `/`: robots.txt and `/big.png` then send nothing,
 * `/big.html` a trickle of 1 KiB a second. `/` is an ordinary page linking and showing them.
 */
export function declaredHugeOrigin() {
  const huge = 10 * GiB;
  return startRawOrigin('declared 10 GB', async (req, res) => {
    if (req.pathname === '/') {
      return sendWhole(
        res,
        200,
        'text/html; charset=utf-8',
        html('Huge', '<a href="/big.html">big</a><img src="/big.png" alt="">'),
      );
    }
    const type = req.pathname.endsWith('.png')
      ? 'image/png'
      : req.pathname.endsWith('.txt')
        ? 'text/plain'
        : 'text/html';
    await res.write(head(200, { 'Content-Type': type, 'Content-Length': huge }));
    if (req.pathname === '/big.html') {
      const chunk = Buffer.from(`<p>${'x'.repeat(KiB - 7)}</p>`);
      while (await res.sleep(1000)) if (!(await res.write(chunk))) return;
      return;
    }
    while (await res.sleep(1000)); // nothing, for as long as the peer waits
  });
}

// ---- redirects (case 8) -----------------------------------------------------------------------

/** `/` → `/r/1` → `/r/2` → … forever (alternating 301, 302, 307; relative and absolute). */
export function redirectChainOrigin() {
  return startRawOrigin('redirect chain', async (req, res) => {
    if (req.pathname === '/robots.txt') return notFound(res);
    const n = req.pathname === '/' ? 0 : Number(/^\/r\/(\d+)$/.exec(req.pathname)?.[1] ?? NaN);
    if (!Number.isFinite(n)) return notFound(res);
    const status = [301, 302, 307][n % 3];
    const location =
      n % 2 === 0
        ? `/r/${n + 1}`
        : `http://127.0.0.1:${req.headers.host?.split(':')[1]}/r/${n + 1}`;
    return sendWhole(res, status, 'text/html', html('Moved', `<a href="${location}">next</a>`), {
      Location: location,
    });
  });
}

/** `/` → `/loop/a` → `/loop/b` → `/loop/a` …, and `/loop/b` links back to `/loop/a` too. */
export function redirectLoopOrigin() {
  return startRawOrigin('redirect loop', async (req, res) => {
    const next = { '/': '/loop/a', '/loop/a': '/loop/b', '/loop/b': '/loop/a', '/self': '/self' }[
      req.pathname
    ];
    if (!next) return notFound(res);
    return sendWhole(
      res,
      302,
      'text/html',
      html('Moved', `<a href="${next}">next</a> <a href="/self">self</a>`),
      { Location: next },
    );
  });
}

// ---- an infinite link trap (case 9) ------------------------------------------------------------

/**
 * Every page links ever-deeper new URLs: a calendar (`/cal/YYYY/MM/DD` → next/previous day, month
 * and year, forever), `/a/a/a/…/` one level deeper plus 20 siblings, and `?page=N+1` of itself.
 */
export function linkTrapOrigin() {
  return startRawOrigin('link trap', async (req, res) => {
    if (req.pathname === '/robots.txt' || req.pathname === '/sitemap.xml') return notFound(res);
    const links = [];
    const cal = /^\/cal\/(-?\d+)\/(\d+)\/(\d+)$/.exec(req.pathname);
    const [y, m, d] = cal ? cal.slice(1).map(Number) : [2025, 1, 1];
    for (const [dy, dm, dd] of [
      [0, 0, 1],
      [0, 0, -1],
      [0, 1, 0],
      [0, -1, 0],
      [1, 0, 0],
      [-1, 0, 0],
    ]) {
      links.push(`/cal/${y + dy}/${m + dm}/${d + dd}`);
    }
    const base = req.pathname.startsWith('/a/') ? req.pathname.replace(/[^/]*$/, '') : '/a/';
    links.push(`${base}a/`);
    for (let i = 0; i < 20; i++) links.push(`${base}s${i}/`);
    const page = Number(/[?&]page=(\d+)/.exec(req.path)?.[1] ?? 0);
    links.push(`${req.pathname}?page=${page + 1}`);
    const body = links.map((l) => `<a href="${l}">${l}</a>`).join('\n');
    return sendWhole(res, 200, 'text/html; charset=utf-8', html(`Trap ${req.path}`, body));
  });
}

// ---- malformed HTTP (case 10) ----------------------------------------------------------------

const hubPage = (paths) =>
  html(
    'Hub',
    paths
      .map((p) => (p.endsWith('.png') ? `<img src="${p}" alt="">` : `<a href="${p}">${p}</a>`))
      .join('\n'),
  );

/**
 * `/` is an ordinary page (keep-alive) linking 5 pages and showing 5 images, all chunked wrongly,
 * each one of: a chunk size that is not hex (`zz`), a negative one, one of 2^72, a chunk longer than
 * its size, and a body whose last chunk never comes (the connection then stays open, silent).
 */
export function badChunksOrigin() {
  const paths = [];
  for (let i = 0; i < 5; i++) paths.push(`/c/${i}.html`, `/c/${i}.png`);
  return startRawOrigin('bad chunks', async (req, res) => {
    if (req.pathname === '/')
      return sendWhole(res, 200, 'text/html; charset=utf-8', hubPage(paths));
    const m = /^\/c\/(\d)\.(html|png)$/.exec(req.pathname);
    if (!m) return notFound(res);
    res.keepAlive();
    const type = m[2] === 'png' ? 'image/png' : 'text/html';
    await res.write(head(200, { 'Content-Type': type, 'Transfer-Encoding': 'chunked' }));
    const ok = (text) => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;
    switch (Number(m[1])) {
      case 0:
        return void (await res.write(`${ok('<p>first</p>')}zz\r\nbroken\r\n0\r\n\r\n`));
      case 1:
        return void (await res.write(`${ok('<p>first</p>')}-5\r\nbroken\r\n0\r\n\r\n`));
      case 2:
        await res.write(`ffffffffffffffffff\r\n${'x'.repeat(4096)}`);
        return void res.destroy();
      case 3:
        return void (await res.write(`5\r\n${'y'.repeat(100_000)}\r\n0\r\n\r\n`));
      default:
        await res.write(ok('<p>and then nothing</p>'));
        while (await res.sleep(1000));
    }
  });
}

/** `/` answers 200 with 10 000 header lines (~390 KB of headers), then a small page. */
export function headerFloodOrigin() {
  return startRawOrigin('header flood', async (req, res) => {
    if (req.pathname !== '/') return notFound(res);
    let text = 'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n';
    for (let i = 0; i < 10_000; i++) text += `X-Flood-${i}: ${'v'.repeat(24)}\r\n`;
    const body = html('Flooded', '<p>after 10 000 headers</p>');
    await res.writeAll(Buffer.from(`${text}Content-Length: ${body.length}\r\n\r\n`, 'latin1'));
    await res.write(body);
    res.keepAlive();
  });
}

/** `/` answers 200 with one header line of 1 MiB, then a small page. */
export function hugeHeaderOrigin() {
  return startRawOrigin('huge header', async (req, res) => {
    if (req.pathname !== '/') return notFound(res);
    const body = html('Huge header', '<p>after a 1 MiB header</p>');
    await res.writeAll(
      Buffer.from(
        `HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nX-Huge: ${'a'.repeat(MiB)}\r\n` +
          `Content-Length: ${body.length}\r\n\r\n`,
        'latin1',
      ),
    );
    await res.write(body);
    res.keepAlive();
  });
}

/** Every answer starts with a garbage status line (`HTTP/1.1 2147483648 ¿`, then binary noise). */
export function garbageStatusOrigin() {
  const noise = randomBytes(8 * KiB);
  return startRawOrigin('garbage status', async (req, res) => {
    await res.write(
      Buffer.from('HTTP/1.1 2147483648 \xbf\x00\r\nContent-Type: text/html\r\n\r\n', 'latin1'),
    );
    await res.write(noise);
  });
}

/**
 * Bodies longer than their Content-Length on kept-alive connections: robots.txt declares 10 bytes
 * and sends 64 KiB followed by a fake second answer; `/` declares 100 bytes and sends 200 KiB of
 * HTML linking 3 pages that do the same.
 */
export function overlongBodyOrigin() {
  return startRawOrigin('overlong body', async (req, res) => {
    res.keepAlive();
    if (req.pathname === '/robots.txt') {
      await res.write(head(200, { 'Content-Type': 'text/plain', 'Content-Length': 10 }));
      await res.write(`User-agent: *\nAllow: /\n${'#'.repeat(64 * KiB)}\n`);
      await res.write('HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello');
      return;
    }
    if (req.pathname === '/' || /^\/o\/\d\.html$/.test(req.pathname)) {
      const body = Buffer.from(
        `<!doctype html><html><body><h1>${req.pathname}</h1>` +
          '<a href="/o/1.html">1</a><a href="/o/2.html">2</a><a href="/o/3.html">3</a>' +
          `<p>${'z'.repeat(200 * KiB)}</p></body></html>`,
      );
      await res.write(head(200, { 'Content-Type': 'text/html', 'Content-Length': 100 }));
      await res.writeAll(body);
      return;
    }
    return notFound(res);
  });
}
