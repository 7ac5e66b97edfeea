#!/usr/bin/env node
// npm run bench:archives — web archives (issue 35, docs/archives.md), on generated sites served
// on 127.0.0.1 (bench/mirror/site.mjs) with no added latency:
// 1. Export: our CLI copies a --pages-page site (default 500 pages, 5 assets each) into a store
//    and a static folder, then the version is written as WARC and as WACZ in this process: time,
//    CPU-seconds and size of each, against the copy's own size (static folder, content store) and
//    the capture log's size (what a run now keeps to make the WARC). wget --warc-file of the same
//    site is beside it for reference.
// 2. Import: a site of photos of about --import-mib MiB (default 200) is copied and written as
//    WACZ, then `mirror import` makes a copy from that WACZ with the site stopped: wall time, CPU-seconds and
//    peak memory (PSS of the process tree).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { ensureTool, measure } from '../measure.mjs';
import { createSite, serveSite } from '../mirror/site.mjs';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '500' },
    'import-mib': { type: 'string', default: '200' },
    only: { type: 'string', default: 'export,import' },
  },
});
const repoRoot = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const cli = path.join(repoRoot, 'packages/engine/dist/cli.js');
spawnSync('npx', ['tsc', '-b', 'packages/engine'], { cwd: repoRoot, stdio: 'inherit' });
const engine = await import(path.join(repoRoot, 'packages/engine/dist/index.js'));

const mib = (n) => `${(n / 1024 ** 2).toFixed(1)} MiB`;
const scratch = () => fs.mkdtempSync(path.join(os.tmpdir(), 'bench-archives-'));
const cleanup = [];

function sizeOf(target) {
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.size;
  let total = 0;
  for (const name of fs.readdirSync(target)) total += sizeOf(path.join(target, name));
  return total;
}

/** Our CLI copies the site into `out`, keeping its content store and manifest in `blobs`. */
async function copySite(url, files, out, blobs, extra = []) {
  const count = String(files + 10);
  const run = await measure(process.execPath, [
    cli,
    url,
    '--out',
    out,
    '--blobs',
    blobs,
    '--allow-private-networks',
    '--ignore-robots',
    '--render',
    'never',
    '--quiet',
    '--max-pages',
    count,
    '--max-files',
    count,
    ...extra,
  ]);
  if (run.code !== 0) throw new Error(`mirror failed (${run.code}): ${run.stderr}`);
  return run;
}

/** Time and CPU of one call in this process. */
async function timed(fn) {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const result = await fn();
  const used = process.cpuUsage(cpu);
  return {
    result,
    seconds: (performance.now() - started) / 1000,
    cpu: (used.user + used.system) / 1e6,
  };
}

async function exportBench() {
  const pages = Number(values.pages);
  const site = createSite({ pages, assets: pages * 5 });
  const served = await serveSite(site, { latencyMs: 0 });
  const dir = scratch();
  cleanup.push(dir);
  const out = path.join(dir, 'copy');
  const blobs = path.join(dir, 'blobs');
  console.log(
    `Copying a generated site of ${pages} pages (${mib(site.totalBytes())}) at ${served.url}…`,
  );
  const copy = await copySite(served.url, pages * 6 + 2, out, blobs);
  const manifest = JSON.parse(fs.readFileSync(path.join(blobs, 'manifest.json'), 'utf8'));
  const store = engine.createFsBlobStore(blobs);
  const rows = [];
  for (const format of ['warc', 'wacz']) {
    const file = path.join(dir, `site.${format === 'warc' ? 'warc.gz' : 'wacz'}`);
    const { result, seconds, cpu } = await timed(() =>
      engine.writeVersionArchive({ manifest, store, file, format, software: 'Mirror bench' }),
    );
    rows.push({
      name: `${format.toUpperCase()} export`,
      seconds,
      cpu,
      bytes: result.bytes,
      records: result.records,
    });
  }
  let wget;
  if (ensureTool('wget', 'wget')) {
    served.reset();
    const base = path.join(dir, 'wget');
    wget = await measure('wget', [
      '-m',
      '-p',
      '-nH',
      '-q',
      '-e',
      'robots=off',
      '-P',
      path.join(dir, 'wget-files'),
      `--warc-file=${base}`,
      served.url,
    ]);
    wget.bytes = sizeOf(`${base}.warc.gz`);
  }
  await served.close();
  const entries = manifest.entries.length;
  console.log(`\n| what | time | CPU-s | size | size per file | records |`);
  console.log(`|---|---:|---:|---:|---:|---:|`);
  console.log(
    `| our copy (mirror run, ${entries} files) | ${copy.seconds.toFixed(1)} s | ${copy.cpu.toFixed(2)} | static folder ${mib(sizeOf(out))}, store ${mib(sizeOf(blobs))} | — | — |`,
  );
  console.log(
    `| capture log (kept by the run) | — | — | ${(manifest.capture.size / 1024).toFixed(0)} KiB (manifest ${(fs.statSync(path.join(blobs, 'manifest.json')).size / 1024).toFixed(0)} KiB) | ${(manifest.capture.size / entries).toFixed(0)} B | — |`,
  );
  for (const r of rows)
    console.log(
      `| ${r.name} | ${r.seconds.toFixed(1)} s | ${r.cpu.toFixed(2)} | ${mib(r.bytes)} | ${(r.bytes / entries / 1024).toFixed(1)} KiB | ${r.records} |`,
    );
  if (wget)
    console.log(
      `| wget --warc-file (crawl + WARC) | ${wget.seconds.toFixed(1)} s | ${wget.cpu.toFixed(2)} | ${mib(wget.bytes)} | — | — |`,
    );
}

/**
 * A site of photos, about `bytes` in all: pages of five 60 KB images of random bytes each (photos
 * do not compress, so the WACZ is about as large as the site), linked in a chain.
 */
function photoSite(bytes) {
  const imageBytes = 60_000;
  const pages = Math.max(2, Math.round(bytes / (5 * imageBytes)));
  const noise = crypto.randomBytes(4 * 1024 * 1024);
  const files = new Map();
  for (let p = 0; p < pages; p++) {
    const images = Array.from({ length: 5 }, (_, k) => `/img/${p}-${k}.jpg`);
    const next = p + 1 < pages ? `<a href="/p/${p + 1}.html">next</a>` : '';
    const html = `<!doctype html><title>Album ${p}</title><h1>Album ${p}</h1>${images.map((src) => `<img src="${src}" width="300">`).join('')}${next}`;
    files.set(p === 0 ? '/' : `/p/${p}.html`, {
      type: 'text/html; charset=utf-8',
      body: Buffer.from(html),
    });
    images.forEach((src, k) => {
      const at = ((p * 5 + k) * 7_919) % (noise.length - imageBytes);
      files.set(src, { type: 'image/jpeg', body: noise.subarray(at, at + imageBytes) });
    });
  }
  return { files, pages, totalBytes: () => pages * (5 * imageBytes + 200) };
}

async function importBench() {
  const target = Number(values['import-mib']) * 1024 ** 2;
  const { files, pages, totalBytes } = photoSite(target);
  const site = { get: (p) => files.get(p), totalBytes };
  const served = await serveSite(site, { latencyMs: 0 });
  const dir = scratch();
  cleanup.push(dir);
  const wacz = path.join(dir, 'site.wacz');
  console.log(`\nCopying a site of ${pages} pages of photos (${mib(site.totalBytes())}) as WACZ…`);
  await copySite(served.url, pages * 6 + 2, path.join(dir, 'copy'), path.join(dir, 'blobs'), [
    '--wacz',
    wacz,
  ]);
  fs.rmSync(path.join(dir, 'blobs'), { recursive: true, force: true });
  fs.rmSync(path.join(dir, 'copy'), { recursive: true, force: true });
  await served.close();
  console.log(`Importing ${mib(sizeOf(wacz))} of WACZ with the site stopped…`);
  const count = String(pages * 6 + 12);
  const run = await measure(process.execPath, [
    cli,
    'import',
    wacz,
    '--out',
    path.join(dir, 'imported'),
    '--render',
    'never',
    '--quiet',
    '--max-pages',
    count,
    '--max-files',
    count,
  ]);
  if (run.code !== 0) throw new Error(`import failed (${run.code}): ${run.stderr}`);
  const said = /Mirrored (\d+) pages and (\d+) files/.exec(run.stdout);
  console.log(`\n| import | WACZ | time | CPU-s | peak memory | pages | files |`);
  console.log(`|---|---:|---:|---:|---:|---:|---:|`);
  console.log(
    `| mirror import | ${mib(sizeOf(wacz))} | ${run.seconds.toFixed(1)} s | ${run.cpu.toFixed(2)} | ${mib(run.peak)} | ${said?.[1]} | ${said?.[2]} |`,
  );
}

try {
  const only = values.only.split(',');
  if (only.includes('export')) await exportBench();
  if (only.includes('import')) await importBench();
  console.log(
    `\nMachine: ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? 'unknown CPU'}; Node ${process.version}.`,
  );
} finally {
  for (const dir of cleanup) fs.rmSync(dir, { recursive: true, force: true });
}
