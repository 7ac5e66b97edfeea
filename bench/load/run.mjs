#!/usr/bin/env node
// npm run bench:load — the product under load on loopback, with autocannon (programmatic API).
//
// A deployment as docs/operations.md scales it: one api, two workers and two sites processes
// (node apps/server/dist/main.js --role …), on SQLite and the database job queue in one DATA_DIR by
// default, or on PostgreSQL + Redis/BullMQ with --services (or when DATABASE_URL is set).
// 1. Prepares --existing mirrors of local fixture sites (the ones the clients poll).
// 2. For --duration seconds (60): --clients (500) concurrent connections poll
//    GET /api/domains/clone/{id}/status of those mirrors, while --mirrors (50) new mirrors of
//    fixture sites are asked at once at the start and run to completion. Reports requests/s,
//    non-2xx answers and socket errors (separately), p50/p99 status latency, and the mirrors
//    completed with their p50/p99 duration (asked → live).
// 3. Sites host throughput: autocannon on the page of a mirrored site by its Host header for
//    --sites-duration seconds (10), against both sites processes at once (each gets half the
//    connections: what a load balancer in front of them does), then against one for comparison.
// Rate limits are multiplied by RATE_LIMIT_FACTOR=1000 (the maximum) for the run: 550+ mirrors per
// hour from one user and sign-ups from one IP would otherwise be refused by design.
// The load generator runs in this process on the same cores as the deployment: figures are what
// was measured on this machine at that moment, not a server's capacity.
// Options: --duration S --clients N --mirrors N --existing N --sites-duration S
//          --sites-connections N --job-concurrency N (2, as deploy/mirror.env.example)
//          --poll-rate N (polls per second per client; 0, the default: each client polls again as
//          soon as it has its answer, i.e. the api saturated; the web app polls every 3 s)
//          --log-level info|warn (info, as deployed; logs go to files) --services --no-build
// Exits 1 when any status request failed, any mirror failed or the sites host answered an error.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import {
  apiClient,
  buildServer,
  check,
  deploymentEnv,
  freePort,
  pageVersion,
  printTable,
  request,
  runScript,
  servicesEnv,
  signUpAgency,
  sleep,
  startFixtureSite,
  startRole,
  step,
  tmpDir,
} from '../faults/lib.mjs';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '60' },
    clients: { type: 'string', default: '500' },
    mirrors: { type: 'string', default: '50' },
    existing: { type: 'string', default: '20' },
    'sites-duration': { type: 'string', default: '10' },
    'sites-connections': { type: 'string', default: '100' },
    'poll-rate': { type: 'string', default: '0' },
    'job-concurrency': { type: 'string', default: '2' },
    'log-level': { type: 'string', default: 'info' },
    services: { type: 'boolean' },
    'no-build': { type: 'boolean' },
  },
});
const duration = Number(values.duration);
const clients = Number(values.clients);
/** Polls per second per client; 0: each client polls again as soon as it has its answer. */
const pollRate = Number(values['poll-rate']);
const MIRRORS = Number(values.mirrors);
const EXISTING = Number(values.existing);
const sitesDuration = Number(values['sites-duration']);
const sitesConnections = Number(values['sites-connections']);
const useServices = values.services || Boolean(process.env.DATABASE_URL);
const limitMs = (420 + duration * 2 + sitesDuration * 3) * 1000;

const percentile = (sorted, p) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
const fmt = (n, digits = 0) =>
  Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: digits }) : '—';

function cannon(options) {
  return autocannon({ timeout: 10, ...options });
}

await runScript('bench:load', limitMs, async () => {
  const loadBefore = os.loadavg().map((n) => n.toFixed(2));
  buildServer(values['no-build']);
  const dataDir = tmpDir('mirror-bench-load-');
  const logsDir = path.join(dataDir, 'logs');
  fs.mkdirSync(logsDir);
  const env = deploymentEnv(dataDir, {
    ...(await servicesEnv({ embedded: !useServices })),
    RATE_LIMIT_FACTOR: '1000',
    JOB_CONCURRENCY: values['job-concurrency'],
    LOG_LEVEL: values['log-level'],
  });
  const mode = useServices
    ? `PostgreSQL (schema ${env.DATABASE_SCHEMA}) + Redis/BullMQ (prefix ${env.REDIS_PREFIX})`
    : 'embedded: SQLite + the database job queue, one DATA_DIR';
  step(`deployment on ${mode}; RATE_LIMIT_FACTOR=1000 for this run`);

  const start = async (role, name) => {
    const port = await freePort();
    return startRole(role, { ...env, PORT: String(port) }, name, {
      logFile: path.join(logsDir, `${name}.log`),
    });
  };
  const api = await start('api', 'api');
  const [workerA, workerB, sitesA, sitesB] = await Promise.all([
    start('worker', 'worker-a'),
    start('worker', 'worker-b'),
    start('sites', 'sites-a'),
    start('sites', 'sites-b'),
  ]);
  const deployment = [api, workerA, workerB, sitesA, sitesB];
  step(
    `api :${api.port}, workers :${workerA.port} :${workerB.port}, sites :${sitesA.port} :${sitesB.port}`,
  );

  const fixtures = [];
  for (let i = 0; i < 10; i++) fixtures.push(await startFixtureSite({ pages: 5 }));
  const client = apiClient(api.port, await signUpAgency(api.port, env));

  // ---- the mirrors the clients poll ----
  const existing = [];
  for (let i = 0; i < EXISTING; i++) existing.push(await client.clone(fixtures[i % 10].url));
  for (const { id } of existing) {
    const end = await client.untilDone(id, 120_000);
    check(end.status === 'completed', `preparing: a mirror ended ${end.status}: ${end.error}`);
  }
  const siteHost = new URL(existing[0].previewUrl).hostname;
  for (const sites of [sitesA, sitesB]) {
    const page = await request(sites.port, '/', { host: siteHost });
    check(
      page.status === 200 && pageVersion(page.text) === 1,
      `sites :${sites.port} does not serve ${siteHost}: ${page.status}`,
    );
  }
  step(`${EXISTING} mirrors ready to be polled; ${siteHost} served by both sites processes`);

  // ---- phase 1: status polling under load, with new mirrors running ----
  const ids = existing.map((c) => c.id);
  let next = 0;
  const statusPaths = ids.map((id) => `/api/domains/clone/${id}/status`);
  const pollingText =
    pollRate > 0 ? `${pollRate} poll/s each` : 'each polls again at once (saturation)';
  step(
    `${clients} clients polling status for ${duration} s (${pollingText}) while ${MIRRORS} mirrors run…`,
  );
  const load = cannon({
    url: `http://127.0.0.1:${api.port}`,
    connections: clients,
    duration,
    ...(pollRate > 0 ? { connectionRate: pollRate } : {}),
    headers: { host: `localhost:${api.port}`, ...client.headers },
    requests: [
      {
        setupRequest(req) {
          req.path = statusPaths[next++ % statusPaths.length];
          return req;
        },
      },
    ],
  });
  const loadStarted = Date.now();
  const asked = await Promise.all(
    Array.from({ length: MIRRORS }, async (_, i) => {
      const at = Date.now();
      const res = await request(api.port, '/api/domains/clone', {
        method: 'POST',
        host: `localhost:${api.port}`,
        headers: client.headers,
        body: { sourceUrl: fixtures[i % 10].url },
        timeoutMs: 60_000,
      });
      return { at, answeredMs: Date.now() - at, res };
    }),
  );
  const refused = asked.filter((a) => a.res.status !== 201);
  const mirrors = asked
    .filter((a) => a.res.status === 201)
    .map((a) => ({ ...a, id: a.res.json.id }));
  // Our own light polling of the new mirrors (one request per mirror every 2 s).
  const ends = new Map();
  const watchUntil = loadStarted + (duration + 180) * 1000;
  const watching = (async () => {
    while (ends.size < mirrors.length && Date.now() < watchUntil) {
      for (const m of mirrors) {
        if (ends.has(m.id)) continue;
        const s = await client.status(m.id);
        if (s.status === 'completed' || s.status === 'failed')
          ends.set(m.id, { ...s, seenAt: Date.now() });
      }
      await sleep(2_000);
    }
  })();
  const result = await load;
  const completedDuringLoad = [...ends.values()].filter((e) => e.status === 'completed').length;
  step(
    `load done: ${fmt(result.requests.total)} status requests; ${completedDuringLoad} of ${MIRRORS} mirrors completed during it`,
  );
  await watching;
  // Exact durations: asked (POST sent) → the version's finishedAt (live).
  const durations = [];
  let failedMirrors = 0;
  let unfinished = 0;
  for (const m of mirrors) {
    const end = ends.get(m.id);
    if (!end) {
      unfinished++;
      continue;
    }
    if (end.status !== 'completed') {
      failedMirrors++;
      continue;
    }
    const versions = await client.call('GET', `/api/domains/clone/${m.id}/versions`);
    const finishedAt = Date.parse(versions.json?.[0]?.finishedAt ?? '');
    durations.push(((Number.isFinite(finishedAt) ? finishedAt : end.seenAt) - m.at) / 1000);
  }
  durations.sort((a, b) => a - b);
  const postLatencies = asked.map((a) => a.answeredMs).sort((a, b) => a - b);

  // ---- phase 2: sites host throughput ----
  const sitesRun = (sites, connections, seconds = sitesDuration) =>
    cannon({
      url: `http://127.0.0.1:${sites.port}/`,
      connections,
      duration: seconds,
      headers: { host: siteHost },
    });
  step(`sites host: ${sitesConnections} connections for ${sitesDuration} s on 2 processes…`);
  await Promise.all([sitesRun(sitesA, 10, 2), sitesRun(sitesB, 10, 2)]); // warm-up, not counted
  const both = await Promise.all([
    sitesRun(sitesA, Math.ceil(sitesConnections / 2)),
    sitesRun(sitesB, Math.floor(sitesConnections / 2)),
  ]);
  step(`sites host: ${sitesConnections} connections for ${sitesDuration} s on 1 process…`);
  const one = await sitesRun(sitesA, sitesConnections);
  const alive = deployment.every((p) => p.alive);
  const loadAfter = os.loadavg().map((n) => n.toFixed(2));

  // ---- report ----
  const socketErrors = result.errors;
  const bothRps = both.reduce((sum, r) => sum + r.requests.total, 0) / sitesDuration;
  const bothNon2xx = both.reduce((sum, r) => sum + r.non2xx, 0);
  const bothErrors = both.reduce((sum, r) => sum + r.errors, 0);
  console.log(
    `\nbench:load — ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), Node ${process.version}; ` +
      `${mode}; 1 api, 2 workers (JOB_CONCURRENCY=${values['job-concurrency']}), 2 sites; ` +
      `LOG_LEVEL=${values['log-level']}; RATE_LIMIT_FACTOR=1000; autocannon in this process on the same CPUs.\n`,
  );
  printTable(
    ['measure', 'value'],
    [
      [`status polling: ${clients} connections, ${duration} s, ${pollingText}`, ''],
      ['  requests answered', fmt(result.requests.total)],
      ['  requests/s (mean)', fmt(result.requests.average)],
      ['  non-2xx answers', fmt(result.non2xx)],
      ['  socket errors (of which timeouts)', `${fmt(socketErrors)} (${fmt(result.timeouts)})`],
      [
        '  latency p50 / p99 / max (ms)',
        `${fmt(result.latency.p50)} / ${fmt(result.latency.p99)} / ${fmt(result.latency.max)}`,
      ],
      [`mirrors asked at once during it`, fmt(MIRRORS)],
      [
        '  POST answered p50 / max (ms)',
        `${fmt(percentile(postLatencies, 0.5))} / ${fmt(postLatencies.at(-1))}`,
      ],
      ['  refused / failed / unfinished', `${refused.length} / ${failedMirrors} / ${unfinished}`],
      ['  completed (during the load window)', `${durations.length} (${completedDuringLoad})`],
      [
        '  duration asked → live p50 / p99 (s)',
        `${fmt(percentile(durations, 0.5), 1)} / ${fmt(percentile(durations, 0.99), 1)}`,
      ],
      [`sites host, 2 processes, ${sitesConnections} connections, ${sitesDuration} s`, ''],
      ['  requests/s', fmt(bothRps)],
      ['  latency p99 (ms) per process', both.map((r) => fmt(r.latency.p99)).join(' / ')],
      ['  non-2xx / socket errors', `${fmt(bothNon2xx)} / ${fmt(bothErrors)}`],
      [`sites host, 1 process, ${sitesConnections} connections, ${sitesDuration} s`, ''],
      ['  requests/s', fmt(one.requests.total / sitesDuration)],
      ['  latency p99 (ms)', fmt(one.latency.p99)],
      ['  non-2xx / socket errors', `${fmt(one.non2xx)} / ${fmt(one.errors)}`],
    ],
  );
  console.log(
    `\nLoad average (1/5/15 min) before: ${loadBefore.join(' ')}; after: ${loadAfter.join(' ')} ` +
      '(other work on the machine lowers every figure).\n' +
      `Sites page: ${siteHost} "/" (${fmt(one.throughput.average / Math.max(1, one.requests.average))} bytes per answer).`,
  );
  check(alive, 'a process of the deployment died during the run');
  const problems = [
    result.non2xx ? `${result.non2xx} non-2xx status answers` : '',
    socketErrors ? `${socketErrors} socket errors on status` : '',
    refused.length ? `${refused.length} mirrors refused (${refused[0].res.status})` : '',
    failedMirrors ? `${failedMirrors} mirrors failed` : '',
    unfinished ? `${unfinished} mirrors unfinished` : '',
    bothNon2xx + bothErrors + one.non2xx + one.errors ? 'sites host errors' : '',
  ].filter(Boolean);
  check(problems.length === 0, problems.join('; '));
  return (
    `status ${fmt(result.requests.average)} req/s p99 ${fmt(result.latency.p99)} ms, 0 errors; ` +
    `${durations.length} mirrors p50 ${fmt(percentile(durations, 0.5), 1)} s p99 ${fmt(percentile(durations, 0.99), 1)} s; ` +
    `sites ${fmt(bothRps)} req/s on 2 processes`
  );
});
