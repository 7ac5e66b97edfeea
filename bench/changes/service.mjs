#!/usr/bin/env node
// npm run bench:changes:service — what a scheduled sync of an unchanged site costs through the
// whole service (issue 33, item 6): the app as built (apps/server/dist) in this process, with its
// job queue, sandboxed mirror runs, SQLite database, blob store, thumbnails and fidelity checks on,
// as `npm start` runs it. A generated site of --pages pages (5 assets a page, ETag and
// Last-Modified validators) is mirrored once (until the copy is live, then until its thumbnail and
// fidelity check are done); then the site's daily sync is made due and the maintenance pass starts
// it, as the scheduler would. Printed per step: wall s, CPU-s of this process and of its reaped
// children (the sandboxed runs and their Chromium, counted once reaped), the sandboxed run's own
// time, requests to the origin, 304s, and the versions after.
// Options: --pages N (100)  --latency MS (0)  --no-build
import fs from 'node:fs';
import { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { buildServer, deploymentEnv, importServer, tmpDir, waitFor } from '../faults/lib.mjs';
import { generateSite } from '../mirror/site.mjs';
import { serve, snapshot, withNoise } from './origin.mjs';

const { values: args } = parseArgs({
  options: {
    pages: { type: 'string', default: '100' },
    latency: { type: 'string', default: '0' },
    'no-build': { type: 'boolean', default: false },
  },
});
const pages = Number(args.pages);
const latencyMs = Number(args.latency);
buildServer(args['no-build']);

/** CPU-s of this process and of the children it has reaped (clock ticks of /proc/self/stat). */
function cpuSeconds() {
  const own = process.cpuUsage();
  const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  // After the command: state is field 3, so cutime (16) and cstime (17) are at 13 and 14.
  const children = (Number(fields[13]) + Number(fields[14])) / 100;
  return { own: (own.user + own.system) / 1e6, children };
}

/** Until no child of this process is alive: a sandboxed run answers before it has exited. */
async function childrenReaped() {
  const mine = () =>
    fs.readdirSync('/proc').filter((pid) => {
      if (!/^\d+$/.test(pid)) return false;
      try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === process.pid;
      } catch {
        return false;
      }
    });
  for (let i = 0; i < 200 && mine().length > 0; i++) await new Promise((r) => setTimeout(r, 50));
}

/** The sandboxed mirror runs' own durations, from the app's log ("mirror run ended"). */
const runMs = [];
const logStream = new Writable({
  write(chunk, _encoding, done) {
    for (const line of String(chunk).split('\n')) {
      if (!line.includes('mirror run ended')) continue;
      runMs.push(JSON.parse(line).durationMs);
    }
    done();
  },
});

async function measure(fn) {
  await childrenReaped();
  const cpu = cpuSeconds();
  const started = performance.now();
  const value = await fn();
  const wall = (performance.now() - started) / 1000;
  await childrenReaped();
  const after = cpuSeconds();
  return {
    value,
    wall,
    cpu: after.own - cpu.own,
    childCpu: after.children - cpu.children,
  };
}

const files = withNoise(generateSite({ pages, assets: pages * 5 }), {
  date: 'November 28, 2026',
  views: '1,204',
});
const state = { files: snapshot(files) };
const origin = await serve(state, latencyMs);

const dataDir = tmpDir('mirror-bench-changes-service-');
const env = deploymentEnv(dataDir, {
  VERSION_THUMBNAILS: 'true',
  FIDELITY_CHECKS: 'true',
  MIRROR_RENDER: 'auto',
});
const { loadConfig } = await importServer('config/env.js');
const { buildApp } = await importServer('app.js');
const app = await buildApp(loadConfig(env), { logStream });
await app.ready();

const call = async (method, url, payload, headers = {}) => {
  const res = await app.inject({ method, url, payload, headers });
  if (res.statusCode >= 400)
    throw new Error(`${method} ${url} answered ${res.statusCode}: ${res.body}`);
  return res.statusCode === 204 ? null : res.json();
};
const registered = await call('POST', '/api/auth/register', {
  name: 'Bench Owner',
  email: `bench-${Date.now()}@example.com`,
  password: 'a long password',
});
await app.database.db
  .updateTable('users')
  .set({ plan: 'pro' })
  .where('id', '=', registered.user.id)
  .execute();
const auth = { authorization: `Bearer ${registered.token}` };
const status = (id) => call('GET', `/api/domains/clone/${id}/status`, undefined, auth);
const until = (what, read) => waitFor(read, 30 * 60_000, what);
const idle = () =>
  until('the job queue to be idle', async () => {
    const counts = await app.jobs.counts();
    return counts.waiting + counts.active + counts.delayed === 0 ? true : undefined;
  });

const rows = [];
let siteId = '';
let liveAfter = 0;
let servedLive = { requests: 0, notModified: 0 };
origin.reset();
const first = await measure(async () => {
  const asked = performance.now();
  siteId = (await call('POST', '/api/domains/clone', { sourceUrl: origin.url }, auth)).id;
  await until('the first mirror', async () =>
    ['completed', 'failed'].includes((await status(siteId)).status) ? true : undefined,
  );
  liveAfter = (performance.now() - asked) / 1000;
  servedLive = { ...origin.stats };
  await idle();
});
rows.push({
  step: 'first mirror, until live',
  wall: liveAfter,
  run: runMs.at(-1),
  requests: servedLive.requests,
  notModified: servedLive.notModified,
});
rows.push({
  step: '… with its thumbnail and fidelity check',
  ...first,
  requests: '',
  notModified: '',
});
const fidelity = await call('GET', `/api/domains/clone/${siteId}/fidelity`, undefined, auth);

// The daily sync, made due now, started by the maintenance pass as the scheduler would.
await call('PUT', `/api/domains/clone/${siteId}`, { syncSchedule: 'daily' }, auth);
await app.database.db
  .updateTable('sites')
  .set({ next_sync_at: new Date(Date.now() - 1000).toISOString() })
  .where('id', '=', siteId)
  .execute();
origin.reset();
const sync = await measure(async () => {
  const { synced } = await app.sitesService.runMaintenance();
  if (synced !== 1) throw new Error(`the maintenance pass started ${synced} syncs, not 1`);
  await idle();
  await until('the sync', async () =>
    ['completed', 'failed'].includes((await status(siteId)).status) ? true : undefined,
  );
});
rows.push({ step: 'scheduled sync, unchanged site', ...sync, ...origin.stats, run: runMs.at(-1) });
const history = await call('GET', `/api/domains/clone/${siteId}/versions`, undefined, auth);

await app.close();
await origin.close();
fs.rmSync(dataDir, { recursive: true, force: true });

const pad = (s, n) => String(s).padEnd(n);
console.log(
  `\nA scheduled sync through the service: ${pages} pages (${pages * 6 + 5} URLs), ${latencyMs} ms latency, Node ${process.version}\n`,
);
console.log(
  `${pad('step', 44)}${pad('wall s', 8)}${pad('of it run s', 13)}${pad('CPU-s app', 11)}${pad('CPU-s runs', 12)}${pad('requests', 10)}304s`,
);
for (const r of rows)
  console.log(
    `${pad(r.step, 44)}${pad(r.wall.toFixed(2), 8)}${pad(r.run === undefined ? '' : (r.run / 1000).toFixed(2), 13)}${pad(r.cpu?.toFixed(2) ?? '', 11)}${pad(r.childCpu?.toFixed(2) ?? '', 12)}${pad(r.requests, 10)}${r.notModified}`,
  );
console.log(
  `\nversions after the sync: ${history.length} (the live one says "checked unchanged at ${history[0].checkedUnchangedAt}"); fidelity of the first: ${fidelity.score ?? fidelity.status ?? 'n/a'}`,
);
