// Shared by the fault scripts (bench/faults/*.mjs) and the load bench (bench/load/run.mjs): a
// script frame with a hard time limit and cleanup, the server's process roles started from
// apps/server/dist on loopback, HTTP helpers that can send any Host header, a fixture site, and the
// shared services (PostgreSQL, Redis) under a fresh schema and key prefix.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const serverDist = path.join(repoRoot, 'apps/server/dist');
const distMain = path.join(serverDist, 'main.js');

export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// ---- the script frame ---------------------------------------------------------------------------

/** Thrown to end a script as skipped (exit 0, reason printed), e.g. when a mount is not permitted. */
export class Skip extends Error {}

const cleanups = [];
/** Runs on every exit path, last registered first. */
export function onCleanup(fn) {
  cleanups.push(fn);
}

let cleaning = null;
function cleanup() {
  cleaning ??= (async () => {
    // The processes first: they hold the folders, schemas and mounts the other cleanups remove.
    await Promise.all([...processes].map((p) => p.stop()));
    while (cleanups.length > 0) {
      const fn = cleanups.pop();
      try {
        await fn();
      } catch (err) {
        console.error(`  cleanup: ${err.message}`);
      }
    }
  })();
  return cleaning;
}

/** Prints one step of the script with the seconds since it started. */
const started = Date.now();
export function step(text) {
  console.log(`[${((Date.now() - started) / 1000).toFixed(1).padStart(5)} s] ${text}`);
}

/**
 * Runs `body` as a whole script: a hard time limit, cleanup on every exit path, and one last line
 * `RESULT pass|fail|skip <reason>` that bench/faults/run.mjs reads. Exits 0 on pass or skip.
 */
export async function runScript(name, limitMs, body) {
  const finish = async (result, reason, code) => {
    const limit = setTimeout(() => process.exit(code), 20_000);
    limit.unref();
    await cleanup();
    console.log(`RESULT ${result} ${reason}`);
    process.exit(code);
  };
  const timer = setTimeout(() => {
    printLogTails();
    void finish('fail', `${name} exceeded its time limit (${Math.round(limitMs / 1000)} s)`, 1);
  }, limitMs);
  timer.unref();
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => void finish('fail', `interrupted (${signal})`, 130));
  }
  try {
    const summary = await body();
    clearTimeout(timer);
    await finish('pass', summary ?? '', 0);
  } catch (err) {
    clearTimeout(timer);
    if (err instanceof Skip) return finish('skip', err.message, 0);
    printLogTails();
    console.error(`\n${name} FAILED: ${err.stack ?? err}`);
    await finish('fail', String(err.message ?? err).split('\n')[0], 1);
  }
}

/** An assertion that ends the script with a clear reason. */
export function check(condition, message) {
  if (!condition) throw new Error(message);
}

export function tmpDir(prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  onCleanup(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

// ---- build ------------------------------------------------------------------------------------

/** `tsc -b packages/contract packages/engine apps/server` unless `skip` (then dist must exist). */
export function buildServer(skip = false) {
  if (!skip) {
    step('building packages/contract, packages/engine and apps/server (tsc -b)…');
    const result = spawnSync(
      'npx',
      ['tsc', '-b', 'packages/contract', 'packages/engine', 'apps/server'],
      { cwd: repoRoot, stdio: 'inherit', timeout: 300_000 },
    );
    if (result.status !== 0) throw new Error('the server does not build (tsc -b failed)');
  }
  if (!fs.existsSync(distMain)) throw new Error(`${distMain} is missing: build the server first`);
}

/** A module of the built server, e.g. `platform/db/database.js`. */
export function importServer(relative) {
  return import(path.join(serverDist, relative));
}

// ---- processes ----------------------------------------------------------------------------------

const processes = new Set();
const everyProcess = [];

/** On failure: the last lines of each process, and its whole log in a file that is kept. */
function printLogTails() {
  if (everyProcess.length === 0) return;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mirror-fault-logs-'));
  for (const p of everyProcess) {
    const file = path.join(dir, `${p.name}-${p.pid}.log`);
    if (p.logFile) fs.copyFileSync(p.logFile, file);
    else fs.writeFileSync(file, p.output());
    const lines = p.output().trim().split('\n').slice(-12);
    const state = p.alive ? 'running' : `exited: ${p.child.exitCode ?? p.child.signalCode}`;
    console.error(`\n--- last lines of ${p.name} (pid ${p.pid}, ${state}; whole log: ${file}) ---`);
    console.error(lines.map((l) => l.slice(0, 400)).join('\n'));
  }
}

/**
 * `node apps/server/dist/main.js --role <role>` on 127.0.0.1 and a free port. Resolves once it
 * listens (it says so in its log, or with `logFile` and a fixed PORT, /api/health answers).
 * `logFile`: its output goes straight to that file instead of through this process (load runs).
 * `stop()` sends SIGTERM (SIGKILL after 5 s), `kill()` SIGKILL at once.
 */
export function startRole(role, env, name = role, { logFile } = {}) {
  const fd = logFile ? fs.openSync(logFile, 'a') : null;
  const child = spawn(process.execPath, [distMain, '--role', role], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'info',
      ...env,
    },
    detached: true,
    stdio: fd === null ? ['ignore', 'pipe', 'pipe'] : ['ignore', fd, fd],
  });
  if (fd !== null) fs.closeSync(fd);
  let output = '';
  const keep = (chunk) => {
    output += chunk.toString();
    if (output.length > 2_000_000) output = output.slice(-1_000_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const readOutput = () => {
    if (!logFile) return output;
    try {
      const size = fs.statSync(logFile).size;
      const length = Math.min(size, 1_000_000);
      const buffer = Buffer.alloc(length);
      const handle = fs.openSync(logFile, 'r');
      fs.readSync(handle, buffer, 0, length, size - length);
      fs.closeSync(handle);
      return buffer.toString();
    } catch {
      return '';
    }
  };
  const exited = new Promise((resolve) =>
    child.on('exit', (code, signal) => {
      processes.delete(handle);
      resolve(code ?? signal);
    }),
  );
  const handle = {
    name,
    role,
    pid: child.pid,
    child,
    exited,
    output: readOutput,
    logFile,
    get alive() {
      return child.exitCode === null && child.signalCode === null;
    },
    port: null,
    async stop() {
      if (!handle.alive) return;
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        return;
      }
      const timer = setTimeout(() => handle.kill(), 5_000);
      await exited;
      clearTimeout(timer);
    },
    kill() {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // gone already
      }
      return exited;
    },
  };
  processes.add(handle);
  everyProcess.push(handle);
  return new Promise((resolve, reject) => {
    let done = false;
    const settle = (error) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (error) reject(error);
      else resolve(handle);
    };
    const timer = setTimeout(() => {
      settle(new Error(`${name} did not start within 30 s:\n${readOutput().slice(-3000)}`));
    }, 30_000);
    void exited.then((code) =>
      settle(
        new Error(`${name} exited (${code}) before it listened:\n${readOutput().slice(-3000)}`),
      ),
    );
    const fixedPort = Number(env.PORT ?? 0);
    if (fixedPort > 0) {
      handle.port = fixedPort;
      void (async () => {
        while (!done) {
          if ((await request(fixedPort, '/api/health', { timeoutMs: 2_000 })).status > 0) settle();
          else await sleep(100);
        }
      })();
      return;
    }
    const look = () => {
      const port = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(output)?.[1];
      if (!port) return;
      child.stdout.off('data', look);
      handle.port = Number(port);
      settle();
    };
    child.stdout.on('data', look);
  });
}

/** A free TCP port on 127.0.0.1 (for a process that must be told its port). */
export async function freePort() {
  const server = http.createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Fails with the process's exit and the first error it printed when one of them is gone. */
export function checkAlive(handles, when) {
  for (const p of handles) {
    if (p.alive) continue;
    const lines = p.output().split('\n');
    const first = lines.find((l) => /^\w*Error\b|Error:/.test(l) && !l.startsWith('{'));
    const emitted = lines.find((l) => l.startsWith("Emitted 'error' event"));
    throw new Error(
      `${p.name} (pid ${p.pid}) died ${when} (exit ${p.child.exitCode ?? p.child.signalCode})` +
        (first ? `: ${first.trim()}` : '') +
        (emitted ? ` — ${emitted.trim()}` : ''),
    );
  }
}

/** The configuration every process of a deployment shares (mirrors of loopback fixture sites). */
export function deploymentEnv(dataDir, more = {}) {
  return {
    DATA_DIR: dataDir,
    MIRROR_ALLOW_PRIVATE_NETWORKS: 'true',
    MIRROR_RENDER: 'never',
    VERSION_THUMBNAILS: 'false',
    FIDELITY_CHECKS: 'false',
    RATE_LIMIT_FACTOR: '1000',
    SHUTDOWN_TIMEOUT_MS: '8000',
    ...more,
  };
}

// ---- shared services ---------------------------------------------------------------------------

/**
 * PostgreSQL and Redis from the environment (or the CI defaults) under a fresh schema and key
 * prefix, dropped on exit; `{}` with `embedded` (SQLite and the database job queue in DATA_DIR).
 */
export async function servicesEnv({ embedded = false, redis = true, databaseUrl } = {}) {
  if (embedded) return {};
  const id = randomBytes(5).toString('hex');
  const env = {};
  const url = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
  await assertPostgres(url);
  env.DATABASE_URL = databaseUrl ?? url;
  env.DATABASE_SCHEMA = `fault_${id}`;
  onCleanup(() => dropSchema(url, env.DATABASE_SCHEMA));
  if (redis) {
    const redisUrl = typeof redis === 'string' ? redis : process.env.REDIS_URL || DEFAULT_REDIS_URL;
    await assertRedis(redisUrl);
    env.REDIS_URL = redisUrl;
    env.REDIS_PREFIX = `fault-${id}`;
    onCleanup(() => deleteRedisKeys(redisUrl, env.REDIS_PREFIX));
  }
  return env;
}

async function assertPostgres(url) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
  } catch (err) {
    throw new Error(
      `PostgreSQL at ${url} does not answer (${err.message}); start it, set DATABASE_URL, or pass --embedded`,
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function dropSchema(url, schema) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query(`drop schema if exists "${schema}" cascade`);
  } finally {
    await client.end();
  }
}

async function assertRedis(url) {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    connectTimeout: 3000,
  });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.ping();
  } catch (err) {
    throw new Error(
      `Redis at ${url} does not answer (${err.message}); start it, set REDIS_URL, or pass --embedded`,
    );
  } finally {
    redis.disconnect();
  }
}

export async function deleteRedisKeys(url, prefix) {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    connectTimeout: 3000,
  });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      if (keys.length > 0) await redis.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

// ---- HTTP ---------------------------------------------------------------------------------------

/**
 * One request to 127.0.0.1:`port` with any Host header (fetch would drop it). Resolves with the
 * status and body, or `{ status: 0, error }` when the connection fails or times out.
 */
export function request(port, pathname, init = {}) {
  const body = init.body === undefined ? undefined : JSON.stringify(init.body);
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: pathname,
        method: init.method ?? 'GET',
        agent: false,
        headers: {
          host: init.host ?? `127.0.0.1:${port}`,
          ...(body ? { 'content-type': 'application/json' } : {}),
          ...init.headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => {
          let json;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode, headers: res.headers, text, json });
        });
        res.on('error', (err) => resolve({ status: 0, error: err.message, text }));
      },
    );
    req.setTimeout(init.timeoutMs ?? 10_000, () => req.destroy(new Error('timed out')));
    req.on('error', (err) => resolve({ status: 0, error: err.message, text: '' }));
    req.end(body);
  });
}

/** Polls `read` until it returns something other than undefined; throws `what` after `ms`. */
export async function waitFor(read, ms, what) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out after ${ms / 1000} s waiting for ${what}`);
    await sleep(100);
  }
}

/** A user on the Agency plan (unlimited mirrors), as the billing webhook would set it. */
export async function signUpAgency(apiPort, env) {
  const email = `fault-${randomBytes(4).toString('hex')}@example.com`;
  const res = await request(apiPort, '/api/auth/register', {
    method: 'POST',
    host: `localhost:${apiPort}`,
    body: { name: 'Fault Tester', email, password: 'a long password' },
  });
  check(res.status === 201, `registering a user answered ${res.status}: ${res.text}`);
  const { loadConfig } = await importServer('config/env.js');
  const { openDatabase } = await importServer('platform/db/database.js');
  const database = await openDatabase(loadConfig(env).database);
  try {
    await database.db
      .updateTable('users')
      .set({ plan: 'agency' })
      .where('id', '=', res.json.user.id)
      .execute();
  } finally {
    await database.destroy();
  }
  return { authorization: `Bearer ${res.json.token}` };
}

/** An API client for one user on the api process. */
export function apiClient(apiPort, headers) {
  const call = (method, pathname, body) =>
    request(apiPort, pathname, { method, host: `localhost:${apiPort}`, headers, body });
  return {
    headers,
    call,
    async clone(sourceUrl) {
      const res = await call('POST', '/api/domains/clone', { sourceUrl });
      check(res.status === 201, `POST /api/domains/clone answered ${res.status}: ${res.text}`);
      return res.json;
    },
    async remirror(id) {
      const res = await call('POST', `/api/domains/clone/${id}/remirror`);
      check(res.status === 202, `POST …/remirror answered ${res.status}: ${res.text}`);
      return res.json;
    },
    async status(id) {
      const res = await call('GET', `/api/domains/clone/${id}/status`);
      return res.status === 200 ? res.json : { status: `http ${res.status}`, error: res.text };
    },
    /** Waits until the run ends; returns its last status reading. */
    async untilDone(id, ms) {
      return waitFor(
        async () => {
          const s = await this.status(id);
          return s.status === 'completed' || s.status === 'failed' ? s : undefined;
        },
        ms,
        `the mirror ${id} to end`,
      );
    },
  };
}

/** A counter of a process's Prometheus metrics, summed over the series that match `labels`. */
export async function metricValue(port, name, labels = {}) {
  const res = await request(port, '/metrics');
  if (res.status !== 200) return NaN;
  let total = 0;
  for (const line of res.text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) {
      total += Number(line.split(' ').pop());
    }
  }
  return total;
}

/** `mirror-site` runs the process finished with `outcome` (completed, failed, interrupted). */
export function mirrorRuns(port, outcome = 'completed') {
  return metricValue(port, 'mirror_job_duration_seconds_count', { job: 'mirror-site', outcome });
}

// ---- the fixture site ---------------------------------------------------------------------------

/**
 * A website on 127.0.0.1 whose content changes between runs (`version`), with `pages` pages, a
 * stylesheet, an image and `assets` extra files of `assetKb` KB of incompressible bytes each;
 * every answer waits `delayMs`. `version`, `delayMs` and `assets` can change between runs. Each page ends with an `end of version N` marker, so a client can
 * tell a complete page of one version. `onRequest(req)` sees every request first.
 */
export async function startFixtureSite({
  pages = 3,
  assets = 0,
  assetKb = 16,
  delayMs = 0,
  onRequest,
} = {}) {
  const state = {
    url: '',
    port: 0,
    version: 1,
    delayMs,
    assets,
    assetKb,
    requests: 0,
    close: async () => {},
  };
  const assetBodies = new Map();
  const assetBody = (i) => {
    const key = `${state.version}:${state.assetKb}:${i}`;
    if (!assetBodies.has(key)) assetBodies.set(key, randomBytes(state.assetKb * 1024));
    return assetBodies.get(key);
  };
  const server = http.createServer((req, res) => {
    state.requests++;
    onRequest?.(req);
    const pathname = new URL(req.url ?? '/', 'http://x').pathname;
    const send = (status, type, body) =>
      setTimeout(() => {
        res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
        res.end(body);
      }, state.delayMs);
    if (pathname === '/' || /^\/page-\d+\.html$/.test(pathname)) {
      const links = Array.from(
        { length: pages },
        (_, i) => `<a href="/page-${i + 1}.html">Page ${i + 1}</a>`,
      ).join(' ');
      const files = Array.from(
        { length: state.assets },
        (_, i) => `<img src="/files/f${i}.bin" alt="">`,
      ).join('');
      return send(
        200,
        'text/html; charset=utf-8',
        `<!doctype html><html><head><title>Fixture v${state.version}</title>` +
          `<link rel="stylesheet" href="/style.css"></head><body><h1>Version ${state.version} ${pathname}</h1>` +
          `<nav>${links}</nav><img src="/logo.svg" alt="logo">${files}` +
          `<p>end of version ${state.version}</p></body></html>`,
      );
    }
    if (pathname === '/style.css') {
      return send(
        200,
        'text/css',
        `h1 { color: rgb(${state.version * 40}, 20, 20); } /* v${state.version} */`,
      );
    }
    if (pathname === '/logo.svg') {
      return send(
        200,
        'image/svg+xml',
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>',
      );
    }
    const file = /^\/files\/f(\d+)\.bin$/.exec(pathname);
    if (file && Number(file[1]) < state.assets) {
      return send(200, 'application/octet-stream', assetBody(Number(file[1])));
    }
    if (pathname === '/robots.txt') return send(200, 'text/plain', 'User-agent: *\nAllow: /\n');
    return send(404, 'text/plain', 'not found');
  });
  server.keepAliveTimeout = 10_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.port = server.address().port;
  state.url = `http://127.0.0.1:${state.port}`;
  state.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  onCleanup(() => state.close());
  return state;
}

/** The version a page of the fixture site carries, or null when it is not a complete page. */
export function pageVersion(text) {
  const head = /<h1>Version (\d+) /.exec(text)?.[1];
  const tail = /end of version (\d+)</.exec(text)?.[1];
  return head && head === tail ? Number(head) : null;
}

// ---- which process holds a socket ---------------------------------------------------------------

/** `pid` and every process below it (a worker runs each mirror in a sandbox child it forks). */
function processTree(pid) {
  const children = new Map();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid …: comm may hold spaces and parentheses, so read after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]) ?? []));
  return tree;
}

/**
 * The pid among `pids` whose process, or a process below it, holds the TCP socket with local port
 * `localPort` and remote port `remotePort` (Linux: /proc/net/tcp{,6} give the socket's inode,
 * /proc/<pid>/fd links name it). A fixture site that sees a request from 127.0.0.1:`localPort`
 * learns which worker process is mirroring it.
 */
export function pidOfSocket(localPort, remotePort, pids) {
  const hex = (n) => n.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = fs.readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length < 10) continue;
      if (cols[1].endsWith(`:${hex(localPort)}`) && cols[2].endsWith(`:${hex(remotePort)}`)) {
        inodes.add(`socket:[${cols[9]}]`);
      }
    }
  }
  if (inodes.size === 0) return null;
  const holds = (pid) => {
    let fds = [];
    try {
      fds = fs.readdirSync(`/proc/${pid}/fd`);
    } catch {
      return false;
    }
    return fds.some((fd) => {
      try {
        return inodes.has(fs.readlinkSync(`/proc/${pid}/fd/${fd}`));
      } catch {
        return false; // closed meanwhile
      }
    });
  };
  return pids.find((pid) => processTree(pid).some(holds)) ?? null;
}

/** Prints a table: the first column left-aligned, the others right-aligned. */
export function printTable(header, rows, alignLeft = [0]) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) =>
    cells
      .map((c, i) =>
        alignLeft.includes(i) ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]),
      )
      .join('  ');
  console.log(`${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}`);
  for (const row of rows) console.log(line(row));
}
