#!/usr/bin/env node
// Fault: the blob store's disk is full. DATA_DIR/blobs is a tmpfs of --size (2 MiB; mounting needs
// root, otherwise the script is skipped with the reason). An api, a worker and a sites process
// mirror a small fixture site (version 1, fits), then mirror it again after it grew past the disk
// (version 2: --assets files of 64 KiB of incompressible bytes).
// Expected: the second run ends `failed` with a clear message about disk space (not a crash, not
// endless retries, not a published half copy); the worker and the api stay up (GET /api/health
// 200); the sites process keeps serving version 1, whole. Then the disk is made larger (remount)
// and mirroring again completes and serves version 2.
// Options: --size 2m --assets N (48) --embedded --no-build
// Env: DATABASE_URL, REDIS_URL (defaults: the CI services); or --embedded (SQLite outside the tmpfs).
import { spawnSync } from 'node:child_process';
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
  onCleanup,
  pageVersion,
  request,
  runScript,
  servicesEnv,
  signUpAgency,
  startFixtureSite,
  startRole,
  step,
  tmpDir,
  waitFor,
} from './lib.mjs';

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '2m' },
    assets: { type: 'string', default: '48' },
    embedded: { type: 'boolean' },
    'no-build': { type: 'boolean' },
  },
});

function mountTmpfs(dir, size) {
  const mounted = spawnSync(
    'mount',
    ['-t', 'tmpfs', '-o', `size=${size},mode=0755`, 'tmpfs', dir],
    {
      encoding: 'utf8',
      timeout: 10_000,
    },
  );
  if (mounted.status !== 0) {
    throw new Skip(
      `cannot mount a small tmpfs for the blob store (${(mounted.stderr || mounted.error?.message || '').trim()}); run as root`,
    );
  }
  onCleanup(() => {
    spawnSync('umount', ['-l', dir], { timeout: 10_000 });
  });
}

function diskUse(dir) {
  const out = spawnSync('df', ['-k', '--output=used,size', dir], { encoding: 'utf8' }).stdout;
  const [used, size] = out.trim().split('\n').pop().trim().split(/\s+/).map(Number);
  return `${(used / 1024).toFixed(1)} of ${(size / 1024).toFixed(1)} MiB used`;
}

await runScript('disk-full', 180_000, async () => {
  if (process.getuid?.() !== 0) throw new Skip('mounting a tmpfs needs root');
  buildServer(values['no-build']);
  const dataDir = tmpDir('mirror-fault-disk-');
  const blobsDir = path.join(dataDir, 'blobs');
  fs.mkdirSync(blobsDir);
  mountTmpfs(blobsDir, values.size);
  const env = deploymentEnv(dataDir, {
    ...(await servicesEnv({ embedded: values.embedded })),
    JOB_LEASE_MS: '5000',
  });
  step(`blob store on a ${values.size} tmpfs at ${blobsDir}`);
  const api = await startRole('api', env);
  const [sites, worker] = await Promise.all([startRole('sites', env), startRole('worker', env)]);
  const all = [api, sites, worker];

  const site = await startFixtureSite({ pages: 3, assets: 2, assetKb: 16 });
  const client = apiClient(api.port, await signUpAgency(api.port, env));
  const created = await client.clone(site.url);
  const host = new URL(created.previewUrl).hostname;
  const v1 = await client.untilDone(created.id, 60_000);
  check(v1.status === 'completed', `the first mirror ended ${v1.status}: ${v1.error}`);
  const servedVersion = async (pathname = '/') => {
    const res = await request(sites.port, pathname, { host });
    return res.status === 200 ? pageVersion(res.text) : `HTTP ${res.status}`;
  };
  await waitFor(
    async () => ((await servedVersion()) === 1 ? true : undefined),
    20_000,
    'the sites process to serve version 1',
  );
  step(`version 1 mirrored and served (${diskUse(blobsDir)})`);

  // ---- a version that does not fit ----
  site.version = 2;
  site.assets = Number(values.assets);
  site.assetKb = 64;
  const started = Date.now();
  await client.remirror(created.id);
  const v2 = await client.untilDone(created.id, 120_000);
  const tookS = (Date.now() - started) / 1000;
  step(
    `the run ended ${v2.status} after ${tookS.toFixed(1)} s: ${v2.error} (${diskUse(blobsDir)})`,
  );
  checkAlive(all, 'while the disk was full');
  check(
    v2.status === 'failed',
    `a mirror larger than the disk ended ${v2.status}, expected failed`,
  );
  check(
    /disk|space|storage/i.test(v2.error ?? '') && !/ENOSPC/.test(v2.error ?? ''),
    `the failed run's message is not a clear one about disk space: ${v2.error}`,
  );
  const [apiHealth, workerHealth] = await Promise.all([
    request(api.port, '/api/health'),
    request(worker.port, '/api/health'),
  ]);
  check(
    apiHealth.status === 200 && workerHealth.status === 200,
    `health after the disk filled: api ${apiHealth.status}, worker ${workerHealth.status}`,
  );
  const stillServed = await Promise.all(['/', '/page-2.html'].map((p) => servedVersion(p)));
  check(
    stillServed.every((v) => v === 1),
    `after the failed run the site served ${JSON.stringify(stillServed)}, expected version 1`,
  );
  step('api and worker healthy; version 1 still served');

  // ---- room again: the next try works ----
  const remount = spawnSync('mount', ['-o', 'remount,size=64m', blobsDir], { encoding: 'utf8' });
  check(remount.status === 0, `remounting the tmpfs larger failed: ${remount.stderr}`);
  await client.remirror(created.id);
  const v3 = await client.untilDone(created.id, 120_000);
  check(v3.status === 'completed', `mirroring again with room ended ${v3.status}: ${v3.error}`);
  await waitFor(
    async () => ((await servedVersion()) === 2 ? true : undefined),
    20_000,
    'the sites process to serve version 2',
  );
  step(`with room again the next run completed and version 2 is served (${diskUse(blobsDir)})`);
  checkAlive(all, 'after the disk had room again');
  return (
    `run ${tookS.toFixed(1)} s → failed "${v2.error}"; processes up, version 1 still served; ` +
    'the next run after the disk grew completed'
  );
});
