#!/usr/bin/env node
// npm run bench:changes — what a change report costs (issue 33, item 6). A generated site of
// --pages pages (bench/mirror/site.mjs, 5 assets per page) is served on 127.0.0.1 with ETag and
// Last-Modified validators and --latency ms per response; the engine (built, packages/engine/dist)
// mirrors it once, then syncs it three ways, each from the first version as a sync does:
//   unchanged   nothing changed on the origin: conditional requests (304s), then the report
//   noise       only a date and a visit counter changed on every page: the report must say so
//   edited      a price edited on 3 pages, 1 page added (linked from the home page), 1 removed
// and prints per run: wall s, CPU-s of this process (the engine runs in it), requests, bytes
// served, 304s, then the report's time, CPU, size (JSON bytes) and summary.
// Options: --pages N (100)  --latency MS (0)
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { generateSite } from '../mirror/site.mjs';

const { values: args } = parseArgs({
  options: { pages: { type: 'string', default: '100' }, latency: { type: 'string', default: '0' } },
});
const pages = Number(args.pages);
const latencyMs = Number(args.latency);
const engine = await import('../../packages/engine/dist/index.js');

/** The site as the origin has it now: path → { type, body, etag, modified }. */
function snapshot(files) {
  const now = new Date().toUTCString();
  const out = new Map();
  for (const [p, f] of files) {
    const body = Buffer.isBuffer(f.body) ? f.body : Buffer.from(f.body);
    const etag = `"${crypto.createHash('sha1').update(body).digest('hex').slice(0, 16)}"`;
    out.set(p, { type: f.type, body, etag, modified: f.modified ?? now });
  }
  return out;
}

async function serve(state) {
  const stats = { requests: 0, bytes: 0, notModified: 0 };
  const answer = (req, res) => {
    const file = state.files.get(decodeURIComponent(new URL(req.url, 'http://x').pathname));
    if (!file) return res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    const headers = { etag: file.etag, 'last-modified': file.modified };
    if (req.headers['if-none-match'] === file.etag) {
      stats.notModified++;
      return res.writeHead(304, headers).end();
    }
    stats.bytes += file.body.length;
    res
      .writeHead(200, { ...headers, 'content-type': file.type, 'content-length': file.body.length })
      .end(file.body);
  };
  const server = http.createServer((req, res) => {
    stats.requests++;
    if (latencyMs > 0) setTimeout(answer, latencyMs, req, res);
    else answer(req, res);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/`,
    stats,
    reset: () => Object.assign(stats, { requests: 0, bytes: 0, notModified: 0 }),
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(resolve))),
  };
}

async function measure(fn) {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const value = await fn();
  const used = process.cpuUsage(cpu);
  return {
    value,
    wall: (performance.now() - started) / 1000,
    cpu: (used.user + used.system) / 1e6,
  };
}

/** The generated site with a date and a counter on every page (what changes on every visit). */
function withNoise(files, stamp) {
  const out = new Map();
  for (const [p, f] of files) {
    if (!f.type.startsWith('text/html')) out.set(p, f);
    else
      out.set(p, {
        ...f,
        body: String(f.body).replace(
          '</body>',
          `<footer>Updated ${stamp.date} · ${stamp.views} views</footer></body>`,
        ),
      });
  }
  return out;
}

const base = generateSite({ pages, assets: pages * 5 });
const first = new Map(withNoise(base, { date: 'November 28, 2026', views: '1,204' }));
const state = { files: snapshot(first) };
const origin = await serve(state);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-changes-'));
const store = engine.createFsBlobStore(dir);
const read = (hash) => engine.readBlob(store, hash);
const run = (previous) =>
  engine.mirror({
    url: origin.url,
    store,
    allowPrivateNetworks: true,
    render: 'never',
    maxPages: pages + 10,
    maxFiles: pages * 10,
    ...(previous ? { previous } : {}),
  });

const rows = [];
origin.reset();
const v1 = await measure(() => run());
rows.push({ run: 'first mirror', ...v1, ...origin.stats, report: null });

async function sync(name, change) {
  change();
  origin.reset();
  const v2 = await measure(() => run(v1.value));
  const served = { ...origin.stats };
  const refetch = async (entry) => (await fetch(entry.url)).text();
  const report = await measure(() =>
    engine.compareVersions({ manifest: v1.value, read }, { manifest: v2.value, read }, { refetch }),
  );
  rows.push({ run: name, ...v2, ...served, report });
}

await sync('sync, unchanged', () => undefined);
await sync('sync, a date and a counter', () => {
  state.files = snapshot(withNoise(base, { date: 'November 29, 2026', views: '1,377' }));
});
await sync('sync, 3 prices, 1 page added, 1 removed', () => {
  const edited = new Map(withNoise(base, { date: 'November 29, 2026', views: '1,377' }));
  const htmlPaths = [...edited.keys()].filter((p) => /^\/p\/\d+\.html$/.test(p));
  for (const p of htmlPaths.slice(1, 4)) {
    const f = edited.get(p);
    edited.set(p, {
      ...f,
      body: String(f.body).replace('<body>', '<body><p>Pro now costs $12</p>'),
    });
  }
  const removed = htmlPaths[htmlPaths.length - 1];
  edited.delete(removed);
  const home = edited.get('/');
  const withLink = {
    ...home,
    body: String(home.body).replace('<body>', '<body><a href="/new-post.html">New</a>'),
  };
  edited.set('/', withLink);
  edited.set('/p/0.html', withLink);
  edited.set('/new-post.html', {
    type: 'text/html; charset=utf-8',
    body: '<html><head><title>New post</title></head><body>A new post</body></html>',
  });
  state.files = snapshot(edited);
});
await origin.close();
fs.rmSync(dir, { recursive: true, force: true });

const pad = (s, n) => String(s).padEnd(n);
console.log(
  `\nChange reports on a generated site of ${pages} pages (${latencyMs} ms latency), Node ${process.version}\n`,
);
console.log(
  `${pad('run', 40)}${pad('wall s', 8)}${pad('CPU-s', 8)}${pad('requests', 10)}${pad('304s', 6)}${pad('bytes', 11)}${pad('report s', 10)}${pad('report CPU-s', 14)}${pad('report bytes', 14)}summary`,
);
for (const r of rows) {
  console.log(
    `${pad(r.run, 40)}${pad(r.wall.toFixed(2), 8)}${pad(r.cpu.toFixed(2), 8)}${pad(r.requests, 10)}${pad(r.notModified, 6)}${pad(r.bytes, 11)}` +
      (r.report
        ? `${pad(r.report.wall.toFixed(2), 10)}${pad(r.report.cpu.toFixed(2), 14)}${pad(JSON.stringify(r.report.value).length, 14)}${r.report.value.summary}`
        : ''),
  );
}
