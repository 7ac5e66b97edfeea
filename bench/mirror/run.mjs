#!/usr/bin/env node
// npm run bench:mirror — mirrors a site with our CLI, wget and HTTrack, one after the other on the
// same local server (bench/mirror/site.mjs, which counts requests and bytes), and prints per tool
// wall time, CPU-seconds (user + system of the whole process tree, /usr/bin/time), CPU ms per URL
// served, requests, bytes, files written, peak memory (PSS of the process tree, sampled every
// 50 ms, less often when Chromium's processes make a sample slow), whether Chromium ran, and the
// ratio to each peer; each run also prints the server's own CPU-seconds and the URLs it answered
// with 404. A line after each table gives the machine (cores, CPU model) and Node's version.
//
// Options:
//   --site generated|docs   generated (default): a synthetic site of --pages pages (2,000) and
//                           --assets assets (10,000); docs: a real Sphinx site, Python's docs from
//                           Debian's python3-doc (installed if missing), CLI run with --render never
//   --docs-dir DIR          serve this folder instead of the Python docs (with --site docs)
//   --pages N --assets N    size of the generated site
//   --latency MS            added latency per response (default 20)
//   --only mirror,wget,httrack   tools to run (default all three)
//   --concurrency N         our CLI's --concurrency (default 16); its --max-pages and
//                           --max-files (when the build has it) are raised to the site's size
//   --cli PATH              our CLI to run (default packages/engine/dist/cli.js): a build of an
//                           earlier commit, for before and after on the same machine
//   --render MODE           our CLI's --render (auto|always|never; default: the CLI's, auto, on
//                           generated sites, never on docs); the tables say whether Chromium ran
//   --curve 2000,5000,…     memory-growth curve: only our CLI, on generated sites of these page
//                           counts with --assets-per-page (default 5) assets per page; prints
//                           pages, URLs, wall s, CPU-s, CPU ms/URL and peak memory per size
// npm run bench:mirror:docs and npm run bench:mirror:curve run the last two.
// BENCH_CPU_TIMER=bash measures CPU time with bash's `times` instead of /usr/bin/time.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ensureTool, measure } from '../measure.mjs';
import { createSite, loadDirectory, serveSite } from './site.mjs';

const { values } = parseArgs({
  options: {
    site: { type: 'string', default: 'generated' },
    'docs-dir': { type: 'string' },
    pages: { type: 'string', default: '2000' },
    assets: { type: 'string', default: '10000' },
    latency: { type: 'string', default: '20' },
    only: { type: 'string', default: 'mirror,wget,httrack' },
    concurrency: { type: 'string', default: '16' },
    curve: { type: 'string' },
    'assets-per-page': { type: 'string', default: '5' },
    render: { type: 'string' },
    cli: { type: 'string' },
  },
});
const repoRoot = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const cli = values.cli
  ? path.resolve(values.cli)
  : path.join(repoRoot, 'packages/engine/dist/cli.js');
const latencyMs = Number(values.latency);

function buildCli() {
  if (!fs.existsSync(cli))
    spawnSync('npx', ['tsc', '-b', 'packages/engine'], { cwd: repoRoot, stdio: 'inherit' });
  return fs.existsSync(cli);
}

/** Whether our CLI takes an option (a build from before it was added does not). */
const cliTakes = (option) =>
  spawnSync(process.execPath, [cli, '--help'], { encoding: 'utf8' }).stdout.includes(option);

/**
 * Per tool: [command, args] with '{out}' for the output folder, or null when not available. Our
 * CLI's limits are raised to the site's size (pages, and files where the CLI has --max-files).
 */
function toolSpecs(url, { maxPages, maxFiles, render }) {
  return {
    mirror: () => {
      if (!buildCli()) return null;
      const args = [cli, url, '--out', '{out}', '--allow-private-networks', '--ignore-robots'];
      args.push('--quiet', '--max-pages', String(maxPages), '--concurrency', values.concurrency);
      if (cliTakes('--max-files')) args.push('--max-files', String(maxFiles));
      if (render) args.push('--render', render);
      return [process.execPath, args];
    },
    wget: () =>
      ensureTool('wget', 'wget')
        ? ['wget', ['-m', '-p', '-k', '-E', '-nH', '-q', '-e', 'robots=off', '-P', '{out}', url]]
        : null,
    httrack: () =>
      ensureTool('httrack', 'httrack')
        ? [
            'httrack',
            [
              url,
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
}

/** Files a tool wrote: a fast run that skipped part of the site must not look like a win. */
function countFiles(dir) {
  let n = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) n += countFiles(path.join(dir, entry.name));
    else n++;
  }
  return n;
}

/** Runs one tool against the served site into a fresh folder (removed afterwards). */
async function runTool(name, spec, site) {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), `bench-${name}-`));
  const [cmd, args] = spec;
  site.reset();
  process.stdout.write(`${name}… `);
  const server = process.cpuUsage();
  const run = await measure(
    cmd,
    args.map((a) => (a === '{out}' ? out : a)),
  );
  const { requests, bytes, notFound } = site.stats;
  const { user, system } = process.cpuUsage(server);
  const serverCpu = `server ${((user + system) / 1e6).toFixed(1)} CPU-s`;
  console.log(
    `${run.seconds.toFixed(1)} s, ${run.cpu.toFixed(1)} CPU-s, ${serverCpu} (exit ${run.code})${run.code && run.stderr ? `\n${run.stderr}` : ''}`,
  );
  if (notFound.length)
    console.log(`  ${notFound.length} answered 404: ${notFound.slice(0, 5).join(' ')}`);
  const files = countFiles(out);
  fs.rmSync(out, { recursive: true, force: true });
  return { name, ...run, requests, bytes, files, atOnce: requestsAtOnce(name, run.stdout) };
}

/**
 * Requests a tool has in flight at most: our CLI says it ("at most N requests at once"); wget
 * fetches one file at a time; HTTrack runs with -c16.
 */
function requestsAtOnce(name, stdout) {
  if (name === 'wget') return 1;
  if (name === 'httrack') return 16;
  const said = /at most (\d+) requests at once/.exec(stdout ?? '');
  return said ? Number(said[1]) : undefined;
}

/**
 * The least time the latency allows: each request waits `latencyMs`, `atOnce` at a time. With the
 * tool's CPU time beside it, it says whether a run is bound by the latency or by its own work.
 */
const latencyBound = (r) =>
  r.atOnce
    ? `${((r.requests * latencyMs) / r.atOnce / 1000).toFixed(1)} s (${r.atOnce} at once)`
    : '—';

const mib = (n) => `${(n / 1024 ** 2).toFixed(1)} MiB`;
const yesNo = (b) => (b ? 'yes' : 'no');
const cpuPerUrl = (r) => (r.requests ? ((r.cpu * 1000) / r.requests).toFixed(2) : '—');
const machine = () =>
  `Machine: ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? 'unknown CPU'}; Node ${process.version}.`;

function printComparison(results, siteLine) {
  const ours = results.find((r) => r.name === 'mirror');
  console.log(
    `\n| tool | wall time | CPU-s | CPU ms per URL | latency bound | requests | bytes served | files written | peak memory | Chromium | mirror is faster by |`,
  );
  console.log(`|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|`);
  for (const r of results) {
    const ratio = ours && r !== ours ? `${(r.seconds / ours.seconds).toFixed(1)}×` : '—';
    console.log(
      `| ${r.name} | ${r.seconds.toFixed(1)} s | ${r.cpu.toFixed(2)} | ${cpuPerUrl(r)} | ${latencyBound(r)} | ${r.requests} | ${mib(r.bytes)} | ${r.files} | ${mib(r.peak)} | ${yesNo(r.browser)} | ${ratio} |`,
    );
  }
  console.log(`\n${siteLine}`);
  console.log(machine());
}

/** The Python docs' HTML folder (Debian's python3-doc), installed when missing. */
function pythonDocsDir() {
  const find = () => {
    const dirs = ['/usr/share/doc/python3/html'];
    for (const d of fs.readdirSync('/usr/share/doc').sort().reverse())
      if (/^python3\.\d+$/.test(d)) dirs.push(`/usr/share/doc/${d}/html`);
    const found = dirs.find((d) => fs.existsSync(path.join(d, 'index.html')));
    return found && fs.realpathSync(found);
  };
  const found = find();
  if (found) return found;
  console.log('installing python3-doc (Debian package)…');
  spawnSync('apt-get', ['install', '-y', '-qq', 'python3-doc'], { stdio: 'inherit' });
  return find();
}

/** The site to mirror: { files (get(path)), description, pages and count (files), render }. */
function chooseSite() {
  if (values.site === 'docs') {
    const dir = values['docs-dir'] ? path.resolve(values['docs-dir']) : pythonDocsDir();
    if (!dir) throw new Error('no documentation folder: install python3-doc or pass --docs-dir');
    const files = loadDirectory(dir);
    const unique = new Set(files.values()); // without the folder aliases ('/' for /index.html)
    const html = [...files.keys()].filter((p) => p.endsWith('.html'));
    const bytes = [...unique].reduce((s, f) => s + f.body.length, 0);
    const description = `${dir}: ${html.length} HTML pages, ${unique.size} files, ${mib(bytes)}`;
    const render = values.render ?? 'never';
    return { files, description, pages: html.length, count: unique.size, render };
  }
  if (values.site !== 'generated') throw new Error(`--site ${values.site}: generated or docs`);
  const pages = Number(values.pages);
  const assets = Number(values.assets);
  const files = createSite({ pages, assets });
  const description = `generated, ${pages} pages, ${assets} assets, ${mib(files.totalBytes())}`;
  return { files, description, pages, count: pages + assets + 2, render: values.render };
}

async function compareTools() {
  const chosen = chooseSite();
  const site = await serveSite(chosen.files, { latencyMs });
  console.log(`Serving ${chosen.description} at ${site.url} with ${latencyMs} ms added latency\n`);
  const limits = { maxPages: chosen.pages + 10, maxFiles: chosen.count + 10 };
  const tools = toolSpecs(site.url, { ...limits, render: chosen.render });
  const results = [];
  for (const name of values.only.split(',')) {
    const spec = tools[name]?.();
    if (spec) results.push(await runTool(name, spec, site));
    else console.log(`skipping ${name}: not available`);
  }
  await site.close();
  printComparison(results, `Site: ${chosen.description}; ${latencyMs} ms latency per response.`);
}

/** Our CLI alone on growing generated sites: how time, CPU and memory grow with the site. */
async function growthCurve() {
  const perPage = Number(values['assets-per-page']);
  const rows = [];
  for (const pages of values.curve.split(',').map(Number)) {
    const assets = pages * perPage;
    const files = createSite({ pages, assets });
    const site = await serveSite(files, { latencyMs });
    console.log(`${pages} pages, ${assets} assets (${mib(files.totalBytes())}):`);
    const limits = { maxPages: pages + 10, maxFiles: pages + assets + 10 };
    const spec = toolSpecs(site.url, { ...limits, render: values.render }).mirror();
    if (!spec) throw new Error('the CLI is not built (npx tsc -b packages/engine)');
    // Every page and asset, plus index.html for '/'.
    rows.push({ pages, siteFiles: pages + assets + 1, ...(await runTool('mirror', spec, site)) });
    await site.close();
  }
  console.log(
    `\n| pages | URLs | files written | wall s | CPU-s | CPU ms/URL | peak memory MiB | Chromium | exit |`,
  );
  console.log(`|---:|---:|---:|---:|---:|---:|---:|---|---:|`);
  for (const r of rows) {
    console.log(
      `| ${r.pages} | ${r.requests} | ${r.files} of ${r.siteFiles} | ${r.seconds.toFixed(1)} | ${r.cpu.toFixed(2)} | ${cpuPerUrl(r)} | ${(r.peak / 1024 ** 2).toFixed(1)} | ${yesNo(r.browser)} | ${r.code} |`,
    );
  }
  if (rows.some((r) => r.files < r.siteFiles))
    console.log(
      `\nA run that wrote fewer files than the site has stopped early (a limit of the CLI).`,
    );
  console.log(
    `\nGenerated sites, ${perPage} assets per page, ${latencyMs} ms latency per response; concurrency ${values.concurrency}, render ${values.render ?? 'default (auto)'}.`,
  );
  console.log(machine());
}

if (values.curve) await growthCurve();
else await compareTools();
