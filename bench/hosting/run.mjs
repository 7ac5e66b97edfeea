#!/usr/bin/env node
// npm run bench:hosting — serving a mirrored site: the product's sites host (the Mirror app's entry
// point, apps/server main, as `npm start` runs it) against nginx serving the same copy exported as a
// static folder, on the same machine, in one run.
//
// 1. Mirrors a generated site (bench/mirror/site.mjs: 50 pages, 200 assets, plus one ~40 KB HTML
//    page, no added latency) with the engine into the app's FS blob store, and exports it with
//    exportStatic.
// 2. Publishes the copy as the site `bench` in the app's SQLite database and serves it with the app
//    itself (main in a Node cluster of 2 workers: tenant requests answered by the server's
//    listener, createSitesFront → handleNode, before Fastify), the export with Debian nginx
//    (2 workers; gzip on the fly, and gzip_static with precompressed files), and the same bytes
//    from memory with a bare node:http server (the Node ceiling).
// 3. Loads each with wrk on the ~40 KB page, with and without `Accept-Encoding: gzip`, in
//    interleaved rounds, and prints requests/s, p99 latency, transfer/s and our ratio to nginx.
// Options: --pages N --assets N --page-kb N --duration S --connections N --threads N
//          --workers 2 (e.g. 1,2 adds single-process rows) --rounds N --warmup S
//          --harness auto|dist|tsx
// Installs wrk and nginx-light with apt-get when they are missing. Everything is bounded in time;
// processes and temporary folders are removed on exit.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { generateSite, serveSite } from '../mirror/site.mjs';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '50' },
    assets: { type: 'string', default: '200' },
    'page-kb': { type: 'string', default: '40' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '100' },
    threads: { type: 'string', default: '2' },
    workers: { type: 'string', default: '2' },
    rounds: { type: 'string', default: '2' },
    warmup: { type: 'string', default: '2' },
    harness: { type: 'string', default: 'auto' },
  },
});
const repoRoot = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const duration = Number(values.duration);
const workerCounts = values.workers.split(',').map(Number);
const rounds = Number(values.rounds);
const PAGE = '/bench.html';
const HOST = 'bench.sites.localhost';

// ---- time limit and cleanup ----------------------------------------------------------------

const children = new Set();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mirror-bench-hosting-'));
fs.chmodSync(tmp, 0o755); // nginx workers may run as another user
let cleaned = false;
function cleanup() {
  if (cleaned) return;
  cleaned = true;
  for (const child of children) {
    try {
      process.kill(-child.pid, 'SIGTERM'); // its own process group: cluster workers, nginx workers
    } catch {
      // already gone
    }
  }
  fs.rmSync(tmp, { recursive: true, force: true });
}
process.on('exit', cleanup);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));
const runsPlanned = (3 + 4 * workerCounts.length + 2) * rounds;
const limitMs = (300 + runsPlanned * (duration + Number(values.warmup) + 3)) * 1000;
setTimeout(() => {
  console.error(`\nbench:hosting exceeded its time limit (${Math.round(limitMs / 1000)} s)`);
  process.exit(1);
}, limitMs).unref();

// ---- tools ------------------------------------------------------------------------------------

function ensureTool(bin, pkg) {
  if (fs.existsSync(bin)) return;
  console.log(`installing ${pkg} (Debian package)…`);
  spawnSync('apt-get', ['install', '-y', '-qq', pkg], { stdio: 'inherit', timeout: 180_000 });
  if (!fs.existsSync(bin)) {
    console.error(`${bin} is missing and ${pkg} could not be installed`);
    process.exit(1);
  }
}
ensureTool('/usr/bin/wrk', 'wrk');
ensureTool('/usr/sbin/nginx', 'nginx-light');

function npx(args) {
  return spawnSync('npx', args, { cwd: repoRoot, stdio: 'inherit', timeout: 300_000 }).status;
}
console.log('Building the engine…');
if (npx(['tsc', '-b', 'packages/engine']) !== 0) {
  console.error('the engine does not build');
  process.exit(1);
}
const engineModule = path.join(repoRoot, 'packages/engine/dist/index.js');
const distModule = path.join(repoRoot, 'apps/server/dist/app.js');
let harness = values.harness;
if (harness !== 'tsx') {
  console.log('Building the server…');
  const built = npx(['tsc', '-b', 'apps/server']) === 0 && fs.existsSync(distModule);
  if (built) harness = 'dist';
  else if (harness === 'dist') {
    console.error('the server does not build');
    process.exit(1);
  } else {
    console.log('The server does not build right now: loading its sources through tsx instead.');
    harness = 'tsx';
  }
}
const serverDir = path.join(repoRoot, harness === 'dist' ? 'apps/server/dist' : 'apps/server/src');

const { mirror, exportStatic, createFsBlobStore } = await import(engineModule);

// ---- the site -------------------------------------------------------------------------------

/** A ~`kb` KB article page with varied text (compresses like real HTML, ~3–4×). */
function benchPage(kb) {
  const words = (
    'mirror static copy site page fast server cache header brotli gzip request latency ' +
    'lorem ipsum dolor amet consectetur adipiscing elit sed eiusmod tempor incididunt labore ' +
    'magna aliqua enim minim veniam quis nostrud exercitation ullamco laboris nisi aliquip ' +
    'commodo consequat duis aute irure reprehenderit voluptate velit esse cillum fugiat nulla'
  ).split(' ');
  let state = 7;
  const rand = (n) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % n;
  };
  const parts = [
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Benchmark article</title>',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<link rel="stylesheet" href="/static/css/s0.css"><script src="/static/js/m1.js" defer></script>',
    '</head><body><header><nav><a href="/">Home</a> <a href="/p/1.html">Next</a></nav></header><main>',
  ];
  let length = parts.join('').length;
  let n = 0;
  while (length < kb * 1024 - 200) {
    const sentence = [];
    for (let i = 0; i < 40 + rand(40); i++) sentence.push(words[rand(words.length)]);
    const link = `<a href="/p/${rand(50)}.html">${words[rand(words.length)]} ${rand(1000)}</a>`;
    const block =
      n++ % 6 === 0
        ? `<h2 id="s${n}">Section ${n}: ${sentence.slice(0, 4).join(' ')}</h2>`
        : `<p class="c${rand(9)}">${sentence.join(' ')} ${link}.</p>`;
    parts.push(block);
    length += block.length;
  }
  parts.push('</main><footer><p>Generated for bench:hosting</p></footer></body></html>');
  return Buffer.from(parts.join('\n'));
}

const pages = Number(values.pages);
const assets = Number(values.assets);
const files = generateSite({ pages, assets });
files.set(PAGE, { type: 'text/html; charset=utf-8', body: benchPage(Number(values['page-kb'])) });
const home = files.get('/p/0.html');
const linked = {
  type: home.type,
  body: Buffer.from(
    home.body.toString().replace('</nav>', `<a href="${PAGE}">Benchmark article</a></nav>`),
  ),
};
files.set('/p/0.html', linked);
files.set('/', linked);
const origin = await serveSite(files, { latencyMs: 0 });

console.log(`Mirroring ${pages} pages and ${assets} assets (+ a ${values['page-kb']} KB page)…`);
// The app's data folder: its SQLite database and, under blobs/, the blob store the copy goes into.
const dataDir = path.join(tmp, 'data');
const blobsDir = path.join(dataDir, 'blobs');
const exportDir = path.join(tmp, 'export');
const store = createFsBlobStore(blobsDir);
const started = Date.now();
const manifest = await mirror({
  url: origin.url,
  store,
  allowPrivateNetworks: true,
  render: 'never',
  maxTimeMs: 120_000,
});
await origin.close();
const exported = await exportStatic(manifest, store, exportDir);
const manifestFile = path.join(tmp, 'manifest.json');
fs.writeFileSync(manifestFile, JSON.stringify(manifest));
console.log(
  `  ${manifest.entries.length} files in ${((Date.now() - started) / 1000).toFixed(1)} s; exported ${exported.files} files`,
);
const pageEntry = manifest.entries.find((e) => e.path === PAGE);
const pageFile = path.join(exportDir, PAGE.slice(1));
if (!pageEntry || !fs.existsSync(pageFile)) {
  console.error(`${PAGE} is missing from the copy`);
  process.exit(1);
}
// Precompressed twins for nginx's gzip_static (what a tuned nginx serves).
for (const file of walk(exportDir)) {
  if (/\.(html|css|js|svg|json|txt|xml)$/.test(file)) {
    fs.writeFileSync(`${file}.gz`, gzipSync(fs.readFileSync(file), { level: 9 }));
  }
}
function* walk(dir) {
  for (const item of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, item.name);
    if (item.isDirectory()) yield* walk(full);
    else yield full;
  }
}
fs.chmodSync(blobsDir, 0o755);
spawnSync('chmod', ['-R', 'a+rX', tmp]);

// ---- servers ----------------------------------------------------------------------------------

function freePort() {
  return new Promise((resolve) => {
    const server = http.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function start(command, args, { env = {}, ready } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: repoRoot,
      env: { ...process.env, ...env },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(child);
    let output = '';
    const timer = setTimeout(
      () => reject(new Error(`${command} did not start:\n${output}`)),
      30_000,
    );
    const onData = (chunk) => {
      output += chunk;
      if (!ready || output.includes(ready)) {
        clearTimeout(timer);
        resolve(child);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('exit', (code) => {
      children.delete(child);
      clearTimeout(timer);
      reject(new Error(`${command} exited with ${code}:\n${output}`));
    });
    if (!ready) setTimeout(() => onData(''), 500);
  });
}

async function stopAll() {
  for (const child of [...children]) await stop(child);
}

function stop(child) {
  return new Promise((resolve) => {
    if (!children.has(child)) return resolve();
    child.once('exit', resolve);
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      resolve();
    }
    setTimeout(() => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // gone
      }
    }, 3000).unref();
  });
}

async function waitForPort(port) {
  for (let i = 0; i < 100; i++) {
    try {
      await probe(port, '/', {});
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`nothing answers on port ${port}`);
}

function probe(port, url, headers) {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: url, headers }, (res) => {
      let bytes = 0;
      res.on('data', (c) => (bytes += c.length));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, bytes }));
    });
    req.on('error', reject);
    req.setTimeout(5000, () => req.destroy(new Error('probe timed out')));
  });
}

async function startNginx() {
  const prefix = path.join(tmp, 'nginx');
  fs.mkdirSync(path.join(prefix, 'tmp'), { recursive: true });
  const [plain, precompressed] = [await freePort(), await freePort()];
  const conf = `worker_processes 2;
daemon off;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 4096; }
http {
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 100000;
  access_log off;
  client_body_temp_path ${prefix}/tmp/body;
  proxy_temp_path ${prefix}/tmp/proxy;
  fastcgi_temp_path ${prefix}/tmp/fastcgi;
  uwsgi_temp_path ${prefix}/tmp/uwsgi;
  scgi_temp_path ${prefix}/tmp/scgi;
  server {
    listen 127.0.0.1:${plain};
    root ${exportDir};
    gzip on;
    gzip_types text/css application/javascript text/javascript application/json image/svg+xml;
    location / { try_files $uri $uri/ =404; }
  }
  server {
    listen 127.0.0.1:${precompressed};
    root ${exportDir};
    gzip_static on;
    location / { try_files $uri $uri/ =404; }
  }
}
`;
  fs.writeFileSync(path.join(prefix, 'nginx.conf'), conf);
  const child = await start('/usr/sbin/nginx', [
    '-p',
    prefix,
    '-c',
    path.join(prefix, 'nginx.conf'),
    '-e',
    path.join(prefix, 'error.log'),
  ]);
  await waitForPort(plain);
  await waitForPort(precompressed);
  return { child, plain, precompressed };
}

async function startNode(mode, workers, role = 'all') {
  const port = await freePort();
  const child = await start(
    process.execPath,
    [
      ...(harness === 'tsx' && mode !== 'bare'
        ? ['--import', 'tsx', '--conditions', 'source']
        : []),
      path.join(repoRoot, 'bench/hosting/site-worker.mjs'),
    ],
    {
      ready: 'READY',
      env: {
        MODE: mode,
        ROLE: role,
        WORKERS: String(workers),
        PORT: String(port),
        SERVER_DIR: serverDir,
        SERVER_EXT: harness === 'dist' ? 'js' : 'ts',
        ENGINE_MODULE: engineModule,
        MANIFEST: manifestFile,
        SUBDOMAIN: HOST.split('.')[0],
        // The app's configuration (loadConfig), as an operator would set it.
        DATA_DIR: dataDir,
        SITES_DOMAIN: HOST.slice(HOST.indexOf('.') + 1),
        HOST: '127.0.0.1',
        APP_URL: `http://localhost:${port}`,
        WEB_DIST_DIR: path.join(tmp, 'no-web-build'),
        LOG_LEVEL: 'warn',
        DATABASE_URL: '',
        DATABASE_SCHEMA: '',
        BARE_FILE: pageFile,
        BARE_GZIP: `${pageFile}.gz`,
        BARE_TYPE: pageEntry.contentType,
        NODE_ENV: 'production',
        METRICS_TOKEN: 'bench-hosting-metrics-token',
      },
    },
  );
  return { child, port };
}

// ---- load ---------------------------------------------------------------------------------------

const BROWSER_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

function wrk(port, gzip, seconds) {
  const args = [
    `-t${values.threads}`,
    `-c${values.connections}`,
    `-d${seconds}s`,
    '--latency',
    '-H',
    `Host: ${HOST}`,
    // A browser's User-Agent, so the sites host counts every page view as a person's (a request
    // without one is a bot's and skips most of the visit counting).
    '-H',
    `User-Agent: ${BROWSER_UA}`,
    ...(gzip ? ['-H', 'Accept-Encoding: gzip'] : []),
    `http://127.0.0.1:${port}${PAGE}`,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/wrk', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), (seconds + 20) * 1000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (code !== 0) return reject(new Error(`wrk failed (${code}):\n${out}`));
      resolve(parseWrk(out));
    });
  });
}

const UNITS = { us: 1e-3, ms: 1, s: 1000, m: 60_000 };
const BYTES = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 };
function parseWrk(out) {
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN);
  const p99 = /\s99%\s+([\d.]+)(us|ms|s|m)/.exec(out);
  const transfer = /Transfer\/sec:\s+([\d.]+)(B|KB|MB|GB)/.exec(out);
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
  const errors = /Socket errors:(.*)/.exec(out)?.[1]?.trim() ?? '';
  return {
    rps,
    p99ms: p99 ? Number(p99[1]) * UNITS[p99[2]] : NaN,
    transfer: transfer ? Number(transfer[1]) * BYTES[transfer[2]] : NaN,
    non2xx,
    errors,
  };
}

async function measure(config, warmup) {
  const headers = { host: HOST, ...(config.gzip ? { 'accept-encoding': 'gzip' } : {}) };
  const sample = await probe(config.port, PAGE, headers);
  if (sample.status !== 200)
    throw new Error(`${config.name} answered ${sample.status} for ${PAGE}`);
  config.encoding = sample.headers['content-encoding'] ?? 'identity';
  config.bytes = sample.bytes;
  if (warmup > 0) await wrk(config.port, config.gzip, warmup);
  const result = await wrk(config.port, config.gzip, duration);
  config.rounds.push(result);
  console.log(
    `  ${config.name.padEnd(40)} ${config.gzip ? 'gzip    ' : 'identity'} ${fmt(result.rps, 0).padStart(8)} req/s`,
  );
}

function fmt(n, digits = 1) {
  return Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: digits }) : '—';
}

// ---- run ------------------------------------------------------------------------------------------

console.log(
  `\nwrk -t${values.threads} -c${values.connections} -d${duration}s on ${PAGE} ` +
    `(${(pageEntry.size / 1024).toFixed(1)} KB in the copy), ${os.cpus().length} CPUs, ` +
    `harness: ${harness === 'dist' ? 'apps/server/dist' : 'apps/server/src via tsx'}\n`,
);
// Every server runs from the start (idle ones cost nothing) and the runs are interleaved in
// rounds, so a change in background load hits every server alike; the best round counts.
const loadBefore = os.loadavg()[0].toFixed(2);
const configs = [];
try {
  const nginx = await startNginx();
  const servers = [];
  for (const workers of workerCounts) {
    const unit = workers === 1 ? '1 process' : `${workers} cluster workers`;
    servers.push({
      name: `ours: Mirror app, sites front (${unit})`,
      ...(await startNode('app', workers)),
    });
    servers.push({
      name: `ours: Mirror --role sites (${unit})`,
      ...(await startNode('app', workers, 'sites')),
    });
  }
  servers.push({
    name: 'bare node:http, bytes in memory (2 cluster workers)',
    ...(await startNode('bare', 2)),
  });

  configs.push(
    ...[
      { name: 'nginx (2 workers)', port: nginx.plain, gzip: false },
      { name: 'nginx (2 workers, gzip on the fly)', port: nginx.plain, gzip: true },
      { name: 'nginx (2 workers, gzip_static)', port: nginx.precompressed, gzip: true },
      ...servers.flatMap((server) => [
        { name: server.name, port: server.port, gzip: false },
        { name: server.name, port: server.port, gzip: true },
      ]),
    ].map((config) => ({ ...config, rounds: [] })),
  );

  for (let round = 1; round <= rounds; round++) {
    console.log(`round ${round} of ${rounds}`);
    for (const config of configs) await measure(config, round === 1 ? Number(values.warmup) : 0);
  }
} catch (err) {
  console.error(`\nbench:hosting failed: ${err.message}`);
  await stopAll();
  process.exit(1);
}
await stopAll();

const results = configs.map((config) => {
  const best = config.rounds.reduce((a, b) => (b.rps > a.rps ? b : a));
  return { ...config, ...best, all: config.rounds.map((r) => r.rps) };
});

// ---- report ------------------------------------------------------------------------------------

const nginxOf = (gzip, precompressed = false) =>
  results.find(
    (r) =>
      r.name.startsWith('nginx') &&
      r.gzip === gzip &&
      (!gzip || r.name.includes('gzip_static') === precompressed),
  );
const header = [
  'server',
  'Accept-Encoding',
  'answer',
  'bytes',
  'req/s (best)',
  'rounds',
  'p99 ms',
  'transfer/s',
  '× nginx',
  '× nginx static gz',
];
const rows = results.map((r) => {
  const peer = nginxOf(r.gzip);
  const peerStatic = r.gzip ? nginxOf(true, true) : undefined;
  const issues = [r.non2xx ? `${r.non2xx} non-2xx` : '', r.errors ? `errors: ${r.errors}` : '']
    .filter(Boolean)
    .join('; ');
  return [
    r.name + (issues ? ` (${issues})` : ''),
    r.gzip ? 'gzip' : '—',
    r.encoding,
    String(r.bytes),
    fmt(r.rps, 0),
    r.all.map((n) => fmt(n / 1000, 1) + 'k').join(' '),
    fmt(r.p99ms, 2),
    `${fmt(r.transfer / 1024 ** 2, 0)} MiB`,
    peer ? fmt(r.rps / peer.rps, 2) : '—',
    peerStatic ? fmt(r.rps / peerStatic.rps, 2) : '—',
  ];
});
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
const line = (cells) =>
  cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
console.log(`\n${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}`);
for (const row of rows) console.log(line(row));
console.log(
  '\nOurs: the Mirror app (apps/server main as npm start runs it, SQLite, FS blobs) serving the ' +
    'copy published ' +
    "as a site: tenant requests answered by the HTTP server's listener (createSitesFront → " +
    'handleNode) before Fastify, host from the database (cached), visits counted. "--role sites" ' +
    'rows run the process role that serves tenant sites only (no Fastify, no jobs), as the ' +
    'scaled setup runs it behind Caddy. "cluster workers" rows run one process per core with ' +
    'node:cluster (N processes).\n' +
    'nginx: Debian nginx-light serving the exportStatic folder (sendfile, tcp_nopush, ' +
    'keepalive_requests 100000, access_log off, 2 workers). The load generator shares the CPUs: ' +
    'compare ratios within one run, not absolute figures across runs.\n' +
    `Load average before / after: ${loadBefore} / ${os.loadavg()[0].toFixed(2)} ` +
    '(other work on the machine makes every figure lower and noisier).\n',
);
const target = 0.7;
const plainPeer = nginxOf(false);
const staticPeer = nginxOf(true, true);
for (const name of [
  ...new Set(results.filter((r) => r.name.startsWith('ours')).map((r) => r.name)),
]) {
  const identity = results.find((r) => r.name === name && !r.gzip);
  const gz = results.find((r) => r.name === name && r.gzip);
  const a = identity.rps / plainPeer.rps;
  const b = gz.rps / staticPeer.rps;
  console.log(
    `${name}: ${fmt(a, 2)}× nginx without compression, ${fmt(b, 2)}× nginx gzip_static with gzip ` +
      `(target ≥ ${target}: ${a >= target && b >= target ? 'met' : 'NOT met'})`,
  );
}
process.exit(0);
