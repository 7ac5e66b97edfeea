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
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { generateSite } from '../mirror/site.mjs';
import { serve, snapshot, withNoise } from './origin.mjs';

const { values: args } = parseArgs({
  options: { pages: { type: 'string', default: '100' }, latency: { type: 'string', default: '0' } },
});
const pages = Number(args.pages);
const latencyMs = Number(args.latency);
const engine = await import('../../packages/engine/dist/index.js');

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

const base = generateSite({ pages, assets: pages * 5 });
const first = new Map(withNoise(base, { date: 'November 28, 2026', views: '1,204' }));
const state = { files: snapshot(first) };
const origin = await serve(state, latencyMs);
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
