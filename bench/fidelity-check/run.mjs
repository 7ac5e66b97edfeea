#!/usr/bin/env node
// The fidelity check's cost: a generated site (a home page, article and listing templates, real
// PNG pictures, pages one to three screens tall) served on 127.0.0.1, mirrored by the engine into
// a folder, then checked in a child process — node, Chromium and everything they start — as the
// server's worker would run it. Prints per run: pages on the site, pages checked (× 2 viewports ×
// 3 renders), wall time of the child (node start, Chromium launch, check), the check's own time,
// CPU-seconds of the whole process tree (user + system, /usr/bin/time), peak memory (PSS of the
// tree, sampled from /proc every 50 ms or less often when a sample is slow; node's own share
// beside it, the rest is Chromium), and the score.
//
//   npx tsc -b packages/engine && node bench/fidelity-check/run.mjs [--runs 10:10,100:10,100:100]
//
// --runs SITE:CHECKED,…   site sizes in pages and how many of their pages are checked (default
//                         10:10 — the issue's budget, 20 s — 100:10, the default sample of a
//                         larger site, and 100:100, every page of it)
// --concurrency N         Chromium pages open at once (default: the checker's, 4)
// BENCH_NODE_FLAGS='--cpu-prof --cpu-prof-dir=/tmp/prof' profiles the checking process.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { PNG } from 'pngjs';
import { childrenOf } from '../measure.mjs';

const repoRoot = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const engineEntry = path.join(repoRoot, 'packages/engine/dist/index.js');

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '10:10,100:10,100:100' },
    concurrency: { type: 'string' },
    child: { type: 'boolean' },
    blobs: { type: 'string' },
    out: { type: 'string' },
    origin: { type: 'string' },
    pages: { type: 'string' },
  },
});

// ---- the child: one check, as a worker would run it ------------------------------------------

if (values.child) {
  const engine = await import(engineEntry);
  const store = engine.createFsBlobStore(values.blobs);
  const manifest = JSON.parse(fs.readFileSync(path.join(values.blobs, 'manifest.json'), 'utf8'));
  const pages = await engine.sampleManifest(manifest, store, { maxPages: Number(values.pages) });
  const copy = await engine.serveCopyFolder(values.out);
  const client = engine.createHttpClient({ allowPrivateNetworks: true });
  const report = await engine.checkFidelity({
    original: { url: `${values.origin}/`, client },
    copy: { url: copy.url },
    pages,
    ...(values.concurrency ? { limits: { concurrency: Number(values.concurrency) } } : {}),
  });
  await copy.close();
  await client.close();
  process.stdout.write(
    JSON.stringify({
      checkMs: report.durationMs,
      nodeCpu: (process.cpuUsage().user + process.cpuUsage().system) / 1e6,
      pages: pages.length,
      views: report.pages.length,
      score: report.score,
      below: report.summary.belowThreshold,
    }),
  );
  process.exit(0);
}

// ---- the site --------------------------------------------------------------------------------

function picture(seed) {
  const width = 800;
  const height = 300;
  const png = new PNG({ width, height });
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      png.data[i] = (x * 255) / width;
      png.data[i + 1] = (y * 255) / height;
      png.data[i + 2] = (seed * 53) % 256;
      png.data[i + 3] = 255;
    }
  }
  return PNG.sync.write(png);
}

const WORDS =
  'harbour light keeper tide north wind boat rope lantern stone cliff gull storm calm sea map'.split(
    ' ',
  );
const sentence = (n, k) =>
  Array.from({ length: 12 }, (_, i) => WORDS[(n * 7 + k * 3 + i * 5) % WORDS.length]).join(' ');

function generateSite(pages) {
  const files = new Map();
  const css = `body{margin:0;font:16px/1.6 sans-serif;color:#222}header{background:#14213d;color:#fff;padding:12px 24px}
header a{color:#fca311;margin-right:12px}main{max-width:860px;margin:0 auto;padding:16px}
.hero{width:100%;height:auto;display:block}.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(180px,1fr));gap:12px}
.card{border:1px solid #ddd;padding:8px;border-radius:6px}footer{background:#eee;padding:16px 24px;margin-top:24px}`;
  files.set('/site.css', { type: 'text/css', body: Buffer.from(css) });
  for (let i = 0; i < 5; i++) files.set(`/img/p${i}.png`, { type: 'image/png', body: picture(i) });
  const pathOf = (n) => (n === 0 ? '/' : n % 5 === 0 ? `/list/${n}` : `/article/${n}`);
  for (let n = 0; n < pages; n++) {
    const links = [1, 2, 3, 5, 8].map((d) => pathOf((n + d) % pages));
    const nav = `<header><nav><a href="/">Home</a><a href="${pathOf(5 % pages)}">List</a><a href="${pathOf(1 % pages)}">Latest</a></nav></header>`;
    const paragraphs = Array.from(
      { length: 4 + (n % 3) * 6 },
      (_, k) => `<p>${sentence(n, k)}</p>`,
    ).join('');
    const main =
      n === 0
        ? `<section class="home"><h1>The lighthouse</h1><img class="hero" src="/img/p0.png" alt="">${paragraphs}</section>`
        : n % 5 === 0
          ? `<section class="listing"><h1>List ${n}</h1><div class="cards">${links.map((l) => `<div class="card"><a href="${l}">${l}</a><p>${sentence(n, 1)}</p></div>`).join('')}</div></section>`
          : `<article class="post"><h1>Article ${n}</h1><img class="hero" src="/img/p${n % 5}.png" alt="">${paragraphs}<ul>${links.map((l) => `<li><a href="${l}">${l}</a></li>`).join('')}</ul></article>`;
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Page ${n}</title><link rel="stylesheet" href="/site.css"></head><body>${nav}<main>${main}</main><footer>© The lighthouse</footer></body></html>`;
    files.set(pathOf(n), { type: 'text/html; charset=utf-8', body: Buffer.from(html) });
  }
  return files;
}

async function serve(files) {
  const server = http.createServer((req, res) => {
    const file = files.get(new URL(req.url, 'http://x').pathname);
    if (!file) return void res.writeHead(404).end();
    res
      .writeHead(200, { 'content-type': file.type, 'content-length': file.body.length })
      .end(file.body);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${server.address().port}`,
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(resolve))),
  };
}

// ---- measuring a process tree ----------------------------------------------------------------

/** PSS of a process tree (shared pages counted once between its processes), the wrapper left out. */
function treeMemory(rootPid) {
  let pss = 0;
  let node = 0;
  const walk = (pid, depth) => {
    try {
      if (depth > 0) {
        const rollup = fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
        const own = Number(/Pss:\s+(\d+)/.exec(rollup)?.[1] ?? 0) * 1024;
        pss += own;
        // The wrapper's one child is node; everything below it is Chromium.
        if (depth === 1) node = own;
      }
      for (const c of childrenOf(pid)) walk(c, depth + 1);
    } catch {
      // gone
    }
  };
  walk(rootPid, 0);
  return { pss, node };
}

function measure(args) {
  return new Promise((resolve) => {
    const cpuFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-cpu-')), 'times');
    const started = process.hrtime.bigint();
    const flags = process.env.BENCH_NODE_FLAGS ? process.env.BENCH_NODE_FLAGS.split(' ') : [];
    const child = spawn(
      '/usr/bin/time',
      ['-f', '%U %S', '-o', cpuFile, process.execPath, ...flags, ...args],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let stdout = '';
    child.stdout.on('data', (c) => (stdout += c));
    const seen = { peak: 0, nodePeak: 0 };
    let timer;
    const sample = () => {
      const t = performance.now();
      const { pss, node } = treeMemory(child.pid);
      seen.peak = Math.max(seen.peak, pss);
      seen.nodePeak = Math.max(seen.nodePeak, node);
      timer = setTimeout(sample, Math.max(50, 20 * (performance.now() - t)));
    };
    timer = setTimeout(sample, 50);
    child.on('exit', (code) => {
      clearTimeout(timer);
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const [user, sys] = fs
        .readFileSync(cpuFile, 'utf8')
        .trim()
        .split('\n')
        .at(-1)
        .split(/\s+/)
        .map(Number);
      fs.rmSync(path.dirname(cpuFile), { recursive: true, force: true });
      resolve({
        code,
        seconds,
        cpu: user + sys,
        ...seen,
        result: stdout ? JSON.parse(stdout) : null,
      });
    });
  });
}

// ---- runs ------------------------------------------------------------------------------------

if (!fs.existsSync(engineEntry)) {
  console.error('Build the engine first: npx tsc -b packages/engine');
  process.exit(2);
}
const engine = await import(engineEntry);
const rows = [];
for (const run of values.runs.split(',')) {
  const [sitePages, checked] = run.split(':').map(Number);
  const site = await serve(generateSite(sitePages));
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-fidelity-'));
  const blobs = path.join(work, 'blobs');
  const out = path.join(work, 'out');
  const store = engine.createFsBlobStore(blobs);
  const manifest = await engine.mirror({
    url: `${site.origin}/`,
    store,
    allowPrivateNetworks: true,
    render: 'never',
    maxPages: sitePages + 10,
  });
  fs.writeFileSync(path.join(blobs, 'manifest.json'), JSON.stringify(manifest));
  await engine.exportStatic(manifest, store, out, { placeBlobs: 'link' });
  const self = new URL(import.meta.url).pathname;
  const figures = await measure([
    self,
    '--child',
    '--blobs',
    blobs,
    '--out',
    out,
    '--origin',
    site.origin,
    '--pages',
    String(checked),
    ...(values.concurrency ? ['--concurrency', values.concurrency] : []),
  ]);
  await site.close();
  fs.rmSync(work, { recursive: true, force: true });
  if (figures.code !== 0 || !figures.result) {
    console.error(`run ${run} failed (exit ${figures.code})`);
    process.exit(1);
  }
  rows.push({ sitePages, ...figures });
  const r = figures.result;
  console.error(
    `site ${sitePages} pages, checked ${r.pages}: ${figures.seconds.toFixed(1)} s wall, ${figures.cpu.toFixed(1)} CPU-s, ${(figures.peak / 2 ** 20).toFixed(0)} MiB`,
  );
}

const header = [
  'site pages',
  'checked (×2 viewports)',
  'wall s',
  'check s',
  'CPU-s',
  'node CPU-s',
  'peak PSS',
  'node PSS',
  'score',
];
const table = [
  header,
  ...rows.map((r) => [
    String(r.sitePages),
    `${r.result.pages} (${r.result.views})`,
    r.seconds.toFixed(1),
    (r.result.checkMs / 1000).toFixed(1),
    r.cpu.toFixed(1),
    r.result.nodeCpu.toFixed(1),
    `${(r.peak / 2 ** 20).toFixed(0)} MiB`,
    `${(r.nodePeak / 2 ** 20).toFixed(0)} MiB`,
    r.result.score.toFixed(1),
  ]),
];
const widths = header.map((_, c) => Math.max(...table.map((row) => row[c].length)));
for (const row of table) console.log(row.map((cell, c) => cell.padStart(widths[c])).join('  '));
const cpuModel = /model name\s*:\s*(.*)/.exec(fs.readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? '?';
console.log(
  `\n${os.cpus().length} cores (${cpuModel}), load ${os.loadavg()[0].toFixed(1)}, Node ${process.version}; ` +
    'renders: the original and the copy per page and viewport, the original again where they differ',
);
