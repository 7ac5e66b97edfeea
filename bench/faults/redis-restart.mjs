#!/usr/bin/env node
// Fault: Redis restarts while mirrors are running and queued. This script runs its OWN redis-server
// on a free loopback port with an append-only file (--appendonly yes --appendfsync always, in a
// temporary folder), so the queue survives the restart as a production Redis with persistence
// would, and the machine's shared Redis (started with --save "" --appendonly no: it keeps nothing)
// is left alone. An api and two workers (one job at a time each) on PostgreSQL and this Redis get
// --mirrors mirrors of slow fixture sites; while two run and the rest wait, Redis is shut down
// (redis-cli shutdown nosave) and started again --outage seconds later.
// Expected: no process dies; during the outage the workers' /api/ready is 503 naming redis and the
// API still answers status reads; a mirror asked during the outage is accepted once Redis is back;
// after the restart every mirror (queued, running and asked during the outage) completes.
// Options: --mirrors N (6) --outage S (5) --embedded (SQLite instead of PostgreSQL) --no-build
// Env: DATABASE_URL (default the CI service); a fresh schema is dropped on exit.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  Skip,
  apiClient,
  buildServer,
  check,
  checkAlive,
  deploymentEnv,
  freePort,
  onCleanup,
  request,
  runScript,
  servicesEnv,
  signUpAgency,
  sleep,
  startFixtureSite,
  startRole,
  step,
  tmpDir,
  waitFor,
} from './lib.mjs';

const { values } = parseArgs({
  options: {
    mirrors: { type: 'string', default: '6' },
    outage: { type: 'string', default: '5' },
    embedded: { type: 'boolean' },
    'no-build': { type: 'boolean' },
  },
});
const MIRRORS = Number(values.mirrors);
const outageMs = Number(values.outage) * 1000;

/** A redis-server of our own that persists every write to its append-only file. */
async function startRedis() {
  const which = spawnSync('redis-server', ['--version']);
  if (which.status !== 0) throw new Skip('redis-server is not installed');
  const port = await freePort();
  const dir = tmpDir('mirror-fault-redis-');
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'yes',
    '--appendfsync',
    'always',
    '--dir',
    dir,
    '--logfile',
    path.join(dir, 'redis.log'),
  ];
  let child = null;
  const redis = {
    url: `redis://127.0.0.1:${port}`,
    port,
    async start() {
      child = spawn('redis-server', args, { stdio: 'ignore' });
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.exited = exited;
      await waitFor(
        () =>
          spawnSync('redis-cli', ['-p', String(port), 'ping'], {
            encoding: 'utf8',
          }).stdout.trim() === 'PONG'
            ? true
            : undefined,
        10_000,
        `redis-server on port ${port} to answer`,
      );
    },
    async shutdown() {
      const current = child;
      spawnSync('redis-cli', ['-p', String(port), 'shutdown', 'nosave'], { timeout: 5_000 });
      await Promise.race([current.exited, sleep(5_000)]);
      if (current.exitCode === null) current.kill('SIGKILL');
    },
    aofBytes() {
      let total = 0;
      const walk = (d) => {
        for (const e of fs.readdirSync(d, { withFileTypes: true })) {
          if (e.isDirectory()) walk(path.join(d, e.name));
          else if (/\.aof/.test(e.name)) total += fs.statSync(path.join(d, e.name)).size;
        }
      };
      walk(dir);
      return total;
    },
  };
  onCleanup(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGKILL');
      await child.exited;
    }
  });
  await redis.start();
  return redis;
}

await runScript('redis-restart', 240_000, async () => {
  buildServer(values['no-build']);
  const redis = await startRedis();
  const env = deploymentEnv(tmpDir('mirror-fault-redis-data-'), {
    ...(values.embedded
      ? { REDIS_URL: redis.url, REDIS_PREFIX: 'fault' }
      : await servicesEnv({ redis: redis.url })),
    JOB_CONCURRENCY: '1',
  });
  step(
    `own redis-server on :${redis.port} (append-only file); ` +
      (values.embedded ? 'SQLite' : `PostgreSQL schema ${env.DATABASE_SCHEMA}`),
  );
  const api = await startRole('api', env);
  const workers = await Promise.all([
    startRole('worker', env, 'worker-a'),
    startRole('worker', env, 'worker-b'),
  ]);
  const all = [api, ...workers];
  step(`api :${api.port}, workers :${workers[0].port} and :${workers[1].port}`);

  const sites = [];
  for (let i = 0; i < 3; i++) sites.push(await startFixtureSite({ pages: 6, delayMs: 300 }));
  const client = apiClient(api.port, await signUpAgency(api.port, env));
  const created = [];
  for (let i = 0; i < MIRRORS; i++) created.push(await client.clone(sites[i % sites.length].url));
  const running = await waitFor(
    async () => {
      const statuses = await Promise.all(created.map((c) => client.status(c.id)));
      const active = statuses.filter((s) => s.status === 'processing' || s.status === 'completing');
      return active.length >= 2 ? statuses : undefined;
    },
    30_000,
    'two mirrors to be running',
  );
  const counts = (statuses, state) => statuses.filter((s) => s.status === state).length;
  step(
    `${MIRRORS} mirrors asked: ${counts(running, 'processing')} processing, ` +
      `${counts(running, 'pending')} waiting, ${counts(running, 'completed')} completed`,
  );

  // ---- the restart ----
  const aof = redis.aofBytes();
  await redis.shutdown();
  const downAt = Date.now();
  step(`Redis shut down (append-only file ${aof} bytes); back in ${outageMs / 1000} s`);
  // Asked during the outage: the api's queue client waits for Redis instead of failing.
  const lateAsk = request(api.port, '/api/domains/clone', {
    method: 'POST',
    host: `localhost:${api.port}`,
    headers: client.headers,
    body: { sourceUrl: sites[0].url },
    timeoutMs: 60_000,
  });
  await sleep(Math.min(2_000, outageMs / 2));
  const [workerReady, statusRead] = await Promise.all([
    request(workers[0].port, '/api/ready'),
    client.call('GET', `/api/domains/clone/${created[0].id}/status`),
  ]);
  checkAlive(all, 'while Redis was down');
  check(
    workerReady.status === 503 &&
      workerReady.json?.checks?.redis &&
      workerReady.json.checks.redis !== 'ok',
    `a worker's /api/ready during the outage: ${workerReady.status} ${workerReady.text}`,
  );
  check(statusRead.status === 200, `a status read during the outage answered ${statusRead.status}`);
  step(`during the outage: worker /api/ready ${workerReady.status} ${workerReady.text}`);
  await sleep(Math.max(0, outageMs - (Date.now() - downAt)));
  await redis.start();
  step('Redis is back');

  const late = await lateAsk;
  check(
    late.status === 201,
    `the mirror asked during the outage answered ${late.status}: ${late.text}`,
  );
  const lateS = (Date.now() - downAt) / 1000;
  created.push(late.json);
  const ends = await Promise.all(created.map((c) => client.untilDone(c.id, 150_000)));
  const failed = ends.filter((s) => s.status !== 'completed');
  check(
    failed.length === 0,
    `${failed.length} mirrors did not complete: ${JSON.stringify(failed)}`,
  );
  step(`all ${created.length} mirrors completed`);
  await waitFor(
    async () =>
      (await Promise.all(workers.map((w) => request(w.port, '/api/ready')))).every(
        (r) => r.status === 200,
      )
        ? true
        : undefined,
    15_000,
    "the workers' /api/ready to answer 200 again",
  );
  checkAlive(all, 'after the restart');
  return (
    `Redis down ${outageMs / 1000} s with ${counts(running, 'processing')} mirrors running and ` +
    `${counts(running, 'pending')} queued; all ${created.length} completed (one asked during the ` +
    `outage was answered 201 after ${lateS.toFixed(1)} s); no process died`
  );
});
