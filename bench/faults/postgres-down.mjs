#!/usr/bin/env node
// Fault: PostgreSQL unavailable for 10 s. An api and a worker on PostgreSQL (jobs in the database)
// reach it through a TCP proxy in this script; "down" = the proxy cuts every connection and cuts
// each new one at once, for --outage seconds (10), so the machine's shared server is untouched.
// Expected: during the outage GET /api/health and an API call that needs the database answer 503
// with a clear JSON message, /api/ready is 503 with checks.database naming the problem, and no
// process dies; afterwards the API answers 200 by itself within a few seconds and a mirror runs to
// the end, with no restart.
// Options: --outage S (10) --no-build
// Env: DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test); a fresh schema is dropped on exit.
import net from 'node:net';
import { parseArgs } from 'node:util';
import {
  DEFAULT_DATABASE_URL,
  Skip,
  apiClient,
  buildServer,
  check,
  checkAlive,
  deploymentEnv,
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
    outage: { type: 'string', default: '10' },
    embedded: { type: 'boolean' },
    'no-build': { type: 'boolean' },
  },
});
const outageMs = Number(values.outage) * 1000;

/** A TCP proxy to `target` that can cut every connection and refuse service for a while. */
async function startProxy(target) {
  const sockets = new Set();
  let down = false;
  const stats = { cut: 0, refused: 0 };
  const server = net.createServer((client) => {
    if (down) {
      stats.refused++;
      client.destroy();
      return;
    }
    const upstream = net.connect(target.port, target.host);
    sockets.add(client);
    sockets.add(upstream);
    const close = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  onCleanup(
    () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  );
  return {
    port: server.address().port,
    stats,
    down() {
      down = true;
      stats.cut += sockets.size / 2;
      for (const s of sockets) s.destroy();
    },
    up() {
      down = false;
    },
  };
}

await runScript('postgres-down', 150_000 + outageMs, async () => {
  if (values.embedded) throw new Skip('this fault is about PostgreSQL; --embedded runs on SQLite');
  buildServer(values['no-build']);
  const realUrl = new URL(process.env.DATABASE_URL || DEFAULT_DATABASE_URL);
  const proxy = await startProxy({
    host: realUrl.hostname,
    port: Number(realUrl.port || 5432),
  });
  const proxied = new URL(realUrl);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(proxy.port);
  const env = deploymentEnv(tmpDir('mirror-fault-pg-'), {
    ...(await servicesEnv({ redis: false, databaseUrl: proxied.href })),
    JOB_LEASE_MS: '5000',
  });
  step(`PostgreSQL through a proxy on 127.0.0.1:${proxy.port}; schema ${env.DATABASE_SCHEMA}`);

  const api = await startRole('api', env);
  const worker = await startRole('worker', env);
  step(`api on :${api.port}, worker on :${worker.port}`);
  const site = await startFixtureSite({ pages: 3 });
  const client = apiClient(api.port, await signUpAgency(api.port, env));
  const first = await client.clone(site.url);
  const done = await client.untilDone(first.id, 60_000);
  check(done.status === 'completed', `the first mirror ended ${done.status}: ${done.error}`);

  // A mirror in flight when the database goes: it must still end completed, by retries.
  const slowSite = await startFixtureSite({ pages: 12, delayMs: 300 });
  const inFlight = await client.clone(slowSite.url);
  await waitFor(
    () => (slowSite.requests >= 2 ? true : undefined),
    20_000,
    'the worker to start the second mirror',
  );

  // ---- the outage ----
  step(`PostgreSQL down for ${outageMs / 1000} s, a mirror in flight`);
  proxy.down();
  const downAt = Date.now();
  const answers = { health: [], call: [], ready: [], workerReady: [] };
  while (Date.now() - downAt < outageMs - 1000) {
    const [health, call, ready, workerReady] = await Promise.all([
      request(api.port, '/api/health'),
      client.call('GET', '/api/domains/clones'),
      request(api.port, '/api/ready'),
      request(worker.port, '/api/ready'),
    ]);
    answers.health.push(health);
    answers.call.push(call);
    answers.ready.push(ready);
    answers.workerReady.push(workerReady);
    await sleep(500);
  }
  checkAlive([api, worker], 'during the outage');
  const show = (r) =>
    `${r.status} ${(r.text ?? '').slice(0, 200)}${r.error ? ` (${r.error})` : ''}`;
  for (const [what, list] of Object.entries(answers)) {
    const wrong = list.filter((r) => r.status !== 503 || typeof r.json !== 'object');
    check(
      wrong.length === 0,
      `during the outage ${what} answered ${wrong.length} of ${list.length} times other than 503 JSON, e.g. ${show(wrong[0] ?? {})}`,
    );
  }
  const message = answers.call[0].json.message;
  check(
    typeof message === 'string' && /unavailable/i.test(message),
    `the API call's 503 has no clear message: ${answers.call[0].text}`,
  );
  check(
    answers.health.every((r) => typeof r.json.message === 'string'),
    `GET /api/health's 503 has no message: ${answers.health[0].text}`,
  );
  const readiness = answers.ready.at(-1).json;
  check(
    readiness.status === 'unavailable' &&
      readiness.checks.database !== 'ok' &&
      readiness.checks.database.length > 0,
    `/api/ready does not name the database: ${answers.ready.at(-1).text}`,
  );
  step(`during the outage: health ${show(answers.health[0])}`);
  step(`  GET /api/domains/clones ${show(answers.call[0])}`);
  step(`  /api/ready ${show(answers.ready.at(-1))}`);
  step(`  worker /api/ready ${show(answers.workerReady.at(-1))}`);
  await sleep(Math.max(0, outageMs - (Date.now() - downAt)));

  // ---- recovery ----
  proxy.up();
  const upAt = Date.now();
  step('PostgreSQL back');
  await waitFor(
    async () => {
      const [health, call] = await Promise.all([
        request(api.port, '/api/health'),
        client.call('GET', '/api/domains/clones'),
      ]);
      return health.status === 200 && call.status === 200 ? true : undefined;
    },
    10_000,
    'the API to answer 200 after PostgreSQL came back',
  );
  const recoveredS = (Date.now() - upAt) / 1000;
  step(`the API answers 200 again after ${recoveredS.toFixed(1)} s`);
  await waitFor(
    async () =>
      (await request(worker.port, '/api/ready')).status === 200 &&
      (await request(api.port, '/api/ready')).status === 200
        ? true
        : undefined,
    10_000,
    '/api/ready to answer 200 again on the api and the worker',
  );
  const finished = await client.untilDone(inFlight.id, 90_000);
  check(
    finished.status === 'completed',
    `the mirror in flight during the outage ended ${finished.status}: ${finished.error}`,
  );
  step('the mirror that was in flight during the outage completed');
  site.version = 2;
  await client.remirror(first.id);
  const again = await client.untilDone(first.id, 60_000);
  check(
    again.status === 'completed',
    `the mirror after the outage ended ${again.status}: ${again.error}`,
  );
  checkAlive([api, worker], 'after the outage');
  return (
    `${answers.call.length} rounds during a ${outageMs / 1000} s outage all 503 ("${message}"); ` +
    `200 again ${recoveredS.toFixed(1)} s after; the mirror in flight and one after it completed (${proxy.stats.cut} connections cut, ${proxy.stats.refused} refused)`
  );
});
