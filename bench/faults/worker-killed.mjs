#!/usr/bin/env node
// Fault: SIGKILL the worker that is running a mirror. A deployment of one api, two workers and one
// sites process on loopback (PostgreSQL + Redis/BullMQ, or SQLite + the database job queue with
// --embedded) mirrors a local fixture site (version 1), then mirrors it again after it changed
// (version 2). While the second run is in progress the worker running it is found (the fixture site
// sees the request's source port; /proc names the process that owns that socket) and SIGKILLed.
// Expected: after the lease (JOB_LEASE_MS, 3 s here) the other worker takes the job over and
// completes it, the sites process then serves version 2, and at every moment before, during and
// after the kill it served one complete version: every answer 200, each page a whole page of one
// version, and never version 1 again once version 2 was seen (nothing half-published).
// Options: --embedded --no-build --lease MS (3000)
// Env: DATABASE_URL, REDIS_URL (defaults: the CI services); fresh schema and key prefix, dropped on exit.
import { parseArgs } from 'node:util';
import {
  apiClient,
  buildServer,
  check,
  checkAlive,
  deploymentEnv,
  mirrorRuns,
  pageVersion,
  pidOfSocket,
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
    embedded: { type: 'boolean' },
    'no-build': { type: 'boolean' },
    lease: { type: 'string', default: '3000' },
  },
});

await runScript('worker-killed', 180_000, async () => {
  buildServer(values['no-build']);
  const env = deploymentEnv(tmpDir('mirror-fault-worker-'), {
    ...(await servicesEnv({ embedded: values.embedded })),
    JOB_LEASE_MS: values.lease,
    JOB_CONCURRENCY: '2',
  });
  step(
    values.embedded
      ? 'embedded: SQLite and the database job queue'
      : `PostgreSQL schema ${env.DATABASE_SCHEMA}, Redis prefix ${env.REDIS_PREFIX}`,
  );
  const api = await startRole('api', env);
  const [sites, workerA, workerB] = await Promise.all([
    startRole('sites', env),
    startRole('worker', env, 'worker-a'),
    startRole('worker', env, 'worker-b'),
  ]);
  const workers = [workerA, workerB];
  step(
    `api :${api.port}, sites :${sites.port}, workers :${workerA.port} (pid ${workerA.pid}) and :${workerB.port} (pid ${workerB.pid})`,
  );

  // Which worker process sends each request to the fixture site (while the request is open, its
  // socket is in that process's descriptors).
  const seen = [];
  let watching = false;
  const site = await startFixtureSite({
    pages: 16,
    onRequest(req) {
      if (!watching) return;
      const pid = pidOfSocket(
        req.socket.remotePort,
        site.port,
        workers.map((w) => w.pid),
      );
      seen.push({ at: Date.now(), pid, path: req.url });
    },
  });
  const client = apiClient(api.port, await signUpAgency(api.port, env));

  // ---- version 1 ----
  const created = await client.clone(site.url);
  const host = new URL(created.previewUrl).hostname;
  const v1 = await client.untilDone(created.id, 60_000);
  check(v1.status === 'completed', `the first mirror ended ${v1.status}: ${v1.error}`);
  const served = async (pathname) => {
    const res = await request(sites.port, pathname, { host, timeoutMs: 5_000 });
    const version =
      res.status !== 200
        ? null
        : pathname.endsWith('.css')
          ? Number(/\/\* v(\d+) \*\//.exec(res.text)?.[1] ?? NaN) || null
          : pageVersion(res.text);
    return { at: Date.now(), pathname, status: res.status, version, error: res.error };
  };
  await waitFor(
    async () => ((await served('/')).version === 1 ? true : undefined),
    20_000,
    'the sites process to serve version 1',
  );
  step(`version 1 mirrored and served by the sites process as ${host}`);

  // ---- watch what the sites process serves, from now to the end ----
  const readings = [];
  let polling = true;
  const poller = (async () => {
    const paths = ['/', '/page-3.html', '/style.css'];
    for (let i = 0; polling; i++) {
      readings.push(await served(paths[i % paths.length]));
      await sleep(20);
    }
  })();

  // ---- version 2, and the kill ----
  // The first run is counted once its job's handler returns, after the publish and its follow-ups
  // (on a loaded machine, a moment after the site already serves version 1): wait for that count,
  // or it would land on the survivor's side of the ledger below.
  const before = await waitFor(
    async () => {
      const runs = await Promise.all(workers.map((w) => mirrorRuns(w.port)));
      return runs[0] + runs[1] === 1 ? runs : undefined;
    },
    10_000,
    'the workers to count the first mirror run',
  );
  site.version = 2;
  site.delayMs = 400; // a run of several seconds, so it is killed mid-way
  watching = true;
  await client.remirror(created.id);
  const first = await waitFor(
    () => (seen.length >= 3 ? seen[0] : undefined),
    30_000,
    'a worker to start the second mirror',
  );
  check(first.pid, 'could not tell which worker process sent the first request (/proc)');
  const victim = workers.find((w) => w.pid === first.pid);
  const survivor = workers.find((w) => w !== victim);
  check(
    seen.every((s) => s.pid === victim.pid),
    `requests of one run came from both workers: ${JSON.stringify(seen)}`,
  );
  const midway = await client.status(created.id);
  check(
    midway.status === 'processing' || midway.status === 'pending',
    `the run was not in progress when its worker was killed: ${midway.status}`,
  );
  await victim.kill();
  const killedAt = Date.now();
  const requestsAtKill = seen.length;
  step(
    `SIGKILLed ${victim.name} (pid ${victim.pid}) after ${requestsAtKill} requests of the run; status was ${midway.status}`,
  );

  const v2 = await client.untilDone(created.id, 90_000);
  const tookOverS = ((seen.find((s) => s.at > killedAt)?.at ?? NaN) - killedAt) / 1000;
  check(v2.status === 'completed', `the retried mirror ended ${v2.status}: ${v2.error}`);
  step(
    `the run completed ${((Date.now() - killedAt) / 1000).toFixed(1)} s after the kill; ${survivor.name} resumed fetching after ${tookOverS.toFixed(1)} s`,
  );
  const after = seen.slice(requestsAtKill).filter((s) => s.at > killedAt);
  check(after.length > 0, 'no worker fetched the site after the kill');
  check(
    after.every((s) => s.pid === survivor.pid),
    `requests after the kill came from another process than ${survivor.name}`,
  );
  // A worker counts a run in its metrics just after the run's status is committed: the API may
  // answer "completed" a moment before the counter moves.
  const survivorBefore = before[workers.indexOf(survivor)];
  const survivorRuns = await waitFor(
    async () => {
      const runs = (await mirrorRuns(survivor.port)) - survivorBefore;
      return runs >= 1 ? runs : undefined;
    },
    5_000,
    `${survivor.name} to count its completed mirror run`,
  ).catch(() => 0);
  check(survivorRuns === 1, `${survivor.name} completed ${survivorRuns} mirror runs, expected 1`);

  await waitFor(
    async () => ((await served('/')).version === 2 ? true : undefined),
    20_000,
    'the sites process to serve version 2',
  );
  await sleep(500);
  polling = false;
  await poller;

  // ---- what was served throughout ----
  const bad = readings.filter((r) => r.status !== 200 || r.version === null);
  check(
    bad.length === 0,
    `the sites process answered ${bad.length} of ${readings.length} requests with an error or a partial page, e.g. ${JSON.stringify(bad[0])}`,
  );
  const firstV2 = readings.findIndex((r) => r.version === 2);
  const regressed = readings.slice(firstV2).find((r) => r.version === 1);
  check(!regressed, `version 1 was served again after version 2: ${JSON.stringify(regressed)}`);
  check(
    readings.some((r) => r.version === 1 && r.at > killedAt),
    'version 1 was not being served after the kill',
  );
  check(
    readings[firstV2].at > killedAt,
    'version 2 was served before the kill (the run was not in progress)',
  );
  const versions = await client.call('GET', `/api/domains/clone/${created.id}/versions`);
  check(versions.status === 200, `versions answered ${versions.status}`);
  const states = versions.json.map((v) => v.status);
  check(
    states.filter((s) => s === 'completed').length === 2 && states.length === 2,
    `versions after the run: ${JSON.stringify(versions.json)}`,
  );
  checkAlive([api, sites, survivor], 'during the test');
  return (
    `${victim.name} killed ${requestsAtKill} requests into the run; ${survivor.name} took over ` +
    `after ${tookOverS.toFixed(1)} s and completed it; ${readings.length} reads of the site ` +
    `all 200 and whole (${readings.filter((r) => r.version === 1).length} v1 then ` +
    `${readings.filter((r) => r.version === 2).length} v2)`
  );
});
