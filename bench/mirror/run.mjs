#!/usr/bin/env node
// npm run bench:mirror — mirrors a generated site (default 2,000 pages, 10,000 assets, 20 ms added
// latency per response) with our CLI, wget and HTTrack, one after the other on the same server,
// and prints wall time, requests, bytes, peak memory and the ratio to each peer.
// Options: --pages N --assets N --latency MS --only mirror,wget,httrack
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { generateSite, serveSite } from './site.mjs';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '2000' },
    assets: { type: 'string', default: '10000' },
    latency: { type: 'string', default: '20' },
    only: { type: 'string', default: 'mirror,wget,httrack' },
    concurrency: { type: 'string', default: '16' },
  },
});
const repoRoot = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const cli = path.join(repoRoot, 'packages/engine/dist/cli.js');

function ensureTool(bin, pkg) {
  if (spawnSync('which', [bin]).status === 0) return true;
  console.log(`installing ${pkg} (Debian package)…`);
  spawnSync('apt-get', ['install', '-y', '-qq', pkg], { stdio: 'inherit' });
  return spawnSync('which', [bin]).status === 0;
}

/** Runs a command, sampling the peak memory (PSS) of its process tree from /proc. */
function measure(command, args) {
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr = (stderr + c).slice(-4000)));
    let peak = 0;
    const sample = () => {
      let total = 0;
      const walk = (pid) => {
        try {
          // PSS, not RSS: pages shared between processes of one tool (Chromium) count once.
          const rollup = fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
          total += Number(/Pss:\s+(\d+)/.exec(rollup)?.[1] ?? 0) * 1024;
          const children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
          for (const c of children ? children.split(/\s+/) : []) walk(c);
        } catch {
          // process gone
        }
      };
      walk(child.pid);
      peak = Math.max(peak, total);
    };
    const timer = setInterval(sample, 50);
    child.on('exit', (code) => {
      clearInterval(timer);
      resolve({ code, seconds: Number(process.hrtime.bigint() - started) / 1e9, peak, stderr });
    });
  });
}

const pages = Number(values.pages);
const assets = Number(values.assets);
const latencyMs = Number(values.latency);
console.log(`Generating a site of ${pages} pages and ${assets} assets…`);
const files = generateSite({ pages, assets });
const totalBytes = [...files.values()].reduce((s, f) => s + f.body.length, 0);
const site = await serveSite(files, { latencyMs });
console.log(
  `Serving ${(totalBytes / 1024 ** 2).toFixed(0)} MiB at ${site.url} with ${latencyMs} ms added latency\n`,
);

const tools = {
  mirror: () => {
    if (!fs.existsSync(cli))
      spawnSync('npx', ['tsc', '-b', 'packages/engine'], { cwd: repoRoot, stdio: 'inherit' });
    return [
      process.execPath,
      [
        cli,
        site.url,
        '--out',
        '{out}',
        '--allow-private-networks',
        '--ignore-robots',
        '--quiet',
        '--max-pages',
        String(pages + 10),
        '--concurrency',
        values.concurrency,
      ],
    ];
  },
  wget: () =>
    ensureTool('wget', 'wget')
      ? ['wget', ['-m', '-p', '-k', '-E', '-nH', '-q', '-e', 'robots=off', '-P', '{out}', site.url]]
      : null,
  httrack: () =>
    ensureTool('httrack', 'httrack')
      ? [
          'httrack',
          [
            site.url,
            '-O',
            '{out}',
            '-q',
            '-s0',
            '-c16',
            '-%c0',
            '-%N1',
            '-A1000000000',
            '--disable-security-limits',
          ],
        ]
      : null,
};

/** Files a tool wrote: a fast run that skipped part of the site must not look like a win. */
function countFiles(dir) {
  let n = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) n += countFiles(path.join(dir, entry.name));
    else n++;
  }
  return n;
}

const results = [];
for (const name of values.only.split(',')) {
  const spec = tools[name]?.();
  if (!spec) {
    console.log(`skipping ${name}: not available`);
    continue;
  }
  const out = fs.mkdtempSync(path.join(os.tmpdir(), `bench-${name}-`));
  const [cmd, args] = spec;
  site.reset();
  process.stdout.write(`${name}… `);
  const run = await measure(
    cmd,
    args.map((a) => (a === '{out}' ? out : a)),
  );
  const { requests, bytes } = site.stats;
  console.log(`${run.seconds.toFixed(1)} s (exit ${run.code})${run.code ? `\n${run.stderr}` : ''}`);
  const files = countFiles(out);
  results.push({
    name,
    seconds: run.seconds,
    requests,
    bytes,
    peak: run.peak,
    code: run.code,
    files,
  });
  fs.rmSync(out, { recursive: true, force: true });
}
await site.close();

const mib = (n) => `${(n / 1024 ** 2).toFixed(1)} MiB`;
const ours = results.find((r) => r.name === 'mirror');
console.log(
  `\n| tool | wall time | requests | bytes served | files written | peak memory | mirror is faster by |`,
);
console.log(`|---|---:|---:|---:|---:|---:|---:|`);
for (const r of results) {
  const ratio = ours && r !== ours ? `${(r.seconds / ours.seconds).toFixed(1)}×` : '—';
  console.log(
    `| ${r.name} | ${r.seconds.toFixed(1)} s | ${r.requests} | ${mib(r.bytes)} | ${r.files} | ${mib(r.peak)} | ${ratio} |`,
  );
}
console.log(
  `\nSite: ${pages} pages, ${assets} assets, ${mib(totalBytes)}, ${latencyMs} ms latency per response. Machine: ${os.cpus().length} cores.`,
);
