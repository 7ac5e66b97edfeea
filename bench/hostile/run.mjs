#!/usr/bin/env node
// npm run test:hostile — the hostile-origin suite: websites written to break the mirror service,
// each mirrored once as a guest demo (POST /api/domains/clone, no sign-in: the demo plan's limits,
// 10 pages, 50 MiB, 2 min, 10 MiB per file) by ONE real server process
// (`node apps/server/dist/main.js --role all`, SQLite in a temporary DATA_DIR, loopback only).
//
// The origins (bench/hostile/origins.mjs) are raw node:net servers on 127.0.0.1 that write HTTP by
// hand, plus one real `python3 -m http.server` on a generated 240-page site. Cases run one after
// the other, so every figure belongs to one case. While a run goes the suite samples:
//   GET /api/health every 200 ms (5 s timeout)        → worst latency; must stay under 1 s
//   RSS of the server process and of all its descendants (/proc, every 200 ms) → two peaks
//   bytes under DATA_DIR (blobs + database, every 0.5 s) → peak growth; must stay under 55 MiB
// and asserts, per case: the run ends (completed or failed, per GET /api/domains/clone/{id}/status)
// within 2 min + 30 s; the server keeps its PID (alive, never restarted); a failed run's error is a
// plain sentence; no connection to the origin is still being answered 5 s after the run ended;
// server RSS ≤ --max-server-mib (1024) and run processes ≤ --max-run-mib (2560); the legitimate
// sites (cases 1–3) complete and their copies are whole (pages end, images byte-identical).
// After a crash or a stall the server is restarted (fresh DATA_DIR) for the next case; the suite
// exits 1 when any case failed.
//
// Options: --only http10-close,drip-body   --skip drip-headers   --no-build   --verbose
//          --json out.json   --list
//          --max-server-mib N (1024)   --max-run-mib N (2560)   --budget-s N (whole suite, 900)
//          --repeat N (each chosen case N times in a row: for crashes that come and go)
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  buildServer,
  freePort,
  printTable,
  repoRoot,
  request,
  sleep,
  startRole,
} from '../faults/lib.mjs';
import { rssOf, watchFolder, watchHealth, watchMemory } from './monitor.mjs';
import * as origins from './origins.mjs';

const MiB = 1024 * 1024;
const PLAN_LIMIT_S = 120; // DEMO_MIRROR_LIMITS.maxTimeMs
const GRACE_S = 30;
const BYTES_LIMIT = 50 * MiB + 5 * MiB; // DEMO_MIRROR_LIMITS.maxBytes + a margin (database rows, WAL)
const HEALTH_LIMIT_MS = 1000;
const AFTER_S = 5; // watched after the run ended: lingering work, connections not let go

// ---- the cases ----------------------------------------------------------------------------------

/**
 * name, what it is, `start(ctx)` → an origin ({ url, busy(), stats, close() }); `prepare()` builds
 * heavy bytes before anything is measured; `legit`: an ordinary site that must be copied whole
 * (`verify` reads the copy back and lists problems).
 */
const CASES = [
  {
    name: 'http10-close',
    what: 'HTTP/1.0, bodies delimited by closing the connection; 8 pages of 256 KiB, 32 images of 100 KiB–2 MiB',
    legit: true,
    prepare: () => origins.buildAssetSite(),
    start: (site) => origins.closeDelimitedOrigin(site, 'HTTP/1.0'),
    verify: verifyAssetSite,
  },
  {
    name: 'http11-no-length',
    what: 'HTTP/1.1, no Content-Length, no chunking, Connection: close; same site shape',
    legit: true,
    prepare: () => origins.buildAssetSite(),
    start: (site) => origins.closeDelimitedOrigin(site, 'HTTP/1.1'),
    verify: verifyAssetSite,
  },
  {
    name: 'python-http-server',
    what: 'python3 -m http.server (HTTP/1.0, closes every connection, backlog 5) on a generated 240-page site',
    legit: true,
    prepare: () => {
      const dir = path.join(workRoot, `static-${randomBytes(3).toString('hex')}`);
      const marker = origins.writeStaticSite(dir, 240);
      return { dir, marker };
    },
    start: async (site) => origins.startPythonServer(site.dir, await freePort()),
    verify: async (ctx, site) => {
      const res = await fetchRaw(ctx.port, '/', ctx.previewHost);
      if (res.status !== 200) return [`the copy's / answered ${res.status || res.error}`];
      return res.body.toString().includes(site.marker)
        ? []
        : ["the copy's / is not the site's index page"];
    },
  },
  {
    name: 'link-flood',
    what: '/ has 380 000 <a href> to distinct same-site pages (~8.3 MB: under the 10 MiB per-file cap, so it is parsed)',
    start: () => origins.linkFloodOrigin(380_000),
  },
  {
    name: 'drip-body',
    what: '/ sends its headers, then one byte of body per second, forever',
    start: () => origins.dripBodyOrigin(),
  },
  {
    name: 'drip-headers',
    what: '/ sends its status line and headers one byte per second, forever',
    start: () => origins.dripHeadersOrigin(),
  },
  {
    name: 'gzip-bomb',
    what: 'a page (Content-Encoding: gzip, gzip; 24 KB) and an image and a stylesheet (gzip, 10.6 MB, no length) each decoding to 10 GiB',
    prepare: () => origins.gzipBombs(),
    start: () => origins.gzipBombOrigin(),
  },
  {
    name: 'sitemap-bomb',
    what: 'robots.txt names /sitemap.xml: raw gzip bytes (10.6 MB, no Content-Encoding) decoding to 10 GiB',
    prepare: () => origins.gzipBombs(),
    start: () => origins.sitemapBombOrigin(),
  },
  {
    name: 'declared-10gb',
    what: 'Content-Length: 10737418240 on robots.txt, a page (then 1 KiB/s) and an image (then nothing)',
    start: () => origins.declaredHugeOrigin(),
  },
  {
    name: 'redirect-chain',
    what: '/ → /r/1 → /r/2 → … forever (301/302/307, relative and absolute)',
    start: () => origins.redirectChainOrigin(),
  },
  {
    name: 'redirect-loop',
    what: '/ → /loop/a → /loop/b → /loop/a …',
    start: () => origins.redirectLoopOrigin(),
  },
  {
    name: 'link-trap',
    what: 'every page links ever-deeper new URLs: a calendar, /a/a/a/…, ?page=N+1',
    start: () => origins.linkTrapOrigin(),
  },
  {
    name: 'bad-chunks',
    what: 'chunk sizes zz, -5 and 2^72, a chunk longer than its size, a last chunk that never comes',
    start: () => origins.badChunksOrigin(),
  },
  {
    name: 'header-flood',
    what: '/ answers with 10 000 header lines',
    start: () => origins.headerFloodOrigin(),
  },
  {
    name: 'huge-header',
    what: '/ answers with a single header line of 1 MiB',
    start: () => origins.hugeHeaderOrigin(),
  },
  {
    name: 'garbage-status',
    what: 'every answer starts HTTP/1.1 2147483648 followed by binary noise',
    start: () => origins.garbageStatusOrigin(),
  },
  {
    name: 'overlong-body',
    what: 'bodies longer than their Content-Length on kept-alive connections (robots.txt, pages)',
    start: () => origins.overlongBodyOrigin(),
  },
];

// ---- options ------------------------------------------------------------------------------------

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    skip: { type: 'string' },
    'no-build': { type: 'boolean' },
    verbose: { type: 'boolean' },
    json: { type: 'string' },
    list: { type: 'boolean' },
    'max-server-mib': { type: 'string', default: '1024' },
    'max-run-mib': { type: 'string', default: '2560' },
    'budget-s': { type: 'string', default: '900' },
    repeat: { type: 'string', default: '1' },
  },
});
if (values.list) {
  for (const c of CASES) console.log(`${c.name.padEnd(20)} ${c.what}`);
  process.exit(0);
}
/** The cases a comma-separated list names; an unknown name exits with the known ones. */
const casesNamed = (list) =>
  list.split(',').map((name) => {
    const found = CASES.find((c) => c.name === name.trim());
    if (!found) {
      console.error(`unknown case "${name}"; known: ${CASES.map((c) => c.name).join(', ')}`);
      process.exit(2);
    }
    return found;
  });
const skipped = values.skip ? casesNamed(values.skip) : [];
const picked = (values.only ? casesNamed(values.only) : CASES).filter((c) => !skipped.includes(c));
const repeat = Math.max(1, Number(values.repeat) || 1);
const chosen = picked.flatMap((c) =>
  Array.from({ length: repeat }, (_, i) => (i === 0 ? c : { ...c, name: `${c.name}#${i + 1}` })),
);
const MAX_SERVER_BYTES = Number(values['max-server-mib']) * MiB;
const MAX_RUN_BYTES = Number(values['max-run-mib']) * MiB;
const BUDGET_MS = Number(values['budget-s']) * 1000;
const verbose = values.verbose === true;

// ---- the frame: time limits, cleanup on every exit path -----------------------------------------

const suiteStarted = Date.now();
const step = (text) =>
  console.log(`[${((Date.now() - suiteStarted) / 1000).toFixed(1).padStart(6)} s] ${text}`);
const workRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'mirror-hostile-'));
const logsDir = path.join(os.tmpdir(), `mirror-hostile-logs-${randomBytes(3).toString('hex')}`);
let server = null; // { handle, dataDir, tmpDir }
let liveOrigin = null;
let exiting = false;

async function cleanup() {
  const tasks = [];
  if (liveOrigin) tasks.push(Promise.resolve(liveOrigin.close()).catch(() => undefined));
  if (server) tasks.push(stopServer(server, 'cleanup'));
  await Promise.race([Promise.all(tasks), sleep(10_000)]);
  fs.rmSync(workRoot, { recursive: true, force: true });
}
async function exitWith(code, why) {
  if (exiting) return;
  exiting = true;
  if (why) console.error(why);
  setTimeout(() => process.exit(code), 15_000).unref();
  await cleanup();
  process.exit(code);
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => void exitWith(130, `\ninterrupted (${signal}): stopping everything`));
}
setTimeout(
  () => void exitWith(1, `test:hostile exceeded its hard time limit (${BUDGET_MS / 1000 + 240} s)`),
  BUDGET_MS + 240_000,
).unref();
const budgetLeft = () => suiteStarted + BUDGET_MS - Date.now();

// ---- the server ---------------------------------------------------------------------------------

function keepLog(srv, why) {
  fs.mkdirSync(logsDir, { recursive: true });
  const file = path.join(logsDir, `server-${srv.handle.pid}.log`);
  fs.writeFileSync(file, srv.handle.output());
  step(`server log (${why}) kept in ${file}`);
  return file;
}

async function startServer() {
  const id = randomBytes(3).toString('hex');
  const dataDir = path.join(workRoot, `data-${id}`);
  const tmpDir = path.join(workRoot, `tmp-${id}`);
  const homeDir = path.join(workRoot, `home-${id}`);
  for (const d of [dataDir, tmpDir, homeDir]) fs.mkdirSync(d, { recursive: true });
  const handle = await startRole(
    'all',
    {
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'info',
      MIRROR_ALLOW_PRIVATE_NETWORKS: 'true',
      RATE_LIMIT_FACTOR: '1000',
      VERSION_THUMBNAILS: 'false',
      FIDELITY_CHECKS: 'false',
      MIRROR_RENDER: 'auto',
      SHUTDOWN_TIMEOUT_MS: '5000',
      TMPDIR: tmpDir,
      HOME: homeDir,
    },
    'server',
  );
  if (verbose) {
    let partial = '';
    const show = (chunk) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop();
      for (const line of lines) {
        const level = /"level":(\d+)/.exec(line)?.[1];
        if (level === undefined || Number(level) >= 40)
          console.log(`    server| ${line.slice(0, 400)}`);
      }
    };
    handle.child.stdout.on('data', show);
    handle.child.stderr.on('data', show);
  }
  step(`server up: pid ${handle.pid}, port ${handle.port}, DATA_DIR ${dataDir}`);
  return { handle, dataDir, tmpDir };
}

async function stopServer(srv, why) {
  if (!srv.handle.alive) return;
  if (why !== 'cleanup') step(`stopping server pid ${srv.handle.pid} (${why})`);
  const killer = setTimeout(() => srv.handle.kill(), 5_000);
  await srv.handle.stop();
  clearTimeout(killer);
}

/** How a dead server ended, with the first error it printed. */
function deathOf(handle) {
  const code = handle.child.exitCode ?? handle.child.signalCode;
  const lines = handle.output().split('\n');
  const at = lines.findIndex(
    (l) => /^\s*(\w*Error\b|FATAL|.*heap out of memory)/i.test(l) && !l.startsWith('{'),
  );
  if (at < 0) {
    const logged = lines.find((l) => /"level":(50|60)/.test(l));
    return `exit ${code}${logged ? `: ${logged.slice(0, 300)}` : ''}`;
  }
  // The error line, what it says next when it ends with a colon (an assertion), its first frame.
  let text = lines[at].trim();
  const rest = lines.slice(at + 1, at + 12).map((l) => l.trim());
  if (text.endsWith(':')) text += ` ${rest.find((l) => l !== '') ?? ''}`;
  const frame = rest.find((l) => l.startsWith('at '));
  if (frame) text += ` ${frame.replace(/\(\/.*node_modules\//, '(')}`;
  return `exit ${code}: ${text.slice(0, 400)}`;
}

// ---- HTTP helpers ---------------------------------------------------------------------------------

/** GET with any Host header, the body as bytes. */
function fetchRaw(port, pathname, host, timeoutMs = 15_000) {
  return new Promise((resolve) => {
    const req = http.request(
      { host: '127.0.0.1', port, path: pathname, agent: false, headers: { host } },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks) }));
        res.on('error', (err) => resolve({ status: 0, error: err.message, body: Buffer.alloc(0) }));
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error('timed out')));
    req.on('error', (err) => resolve({ status: 0, error: err.message, body: Buffer.alloc(0) }));
    req.end();
  });
}

/** Cases 1 and 2: every page of the copy ends as the original does, every image is byte-identical. */
async function verifyAssetSite(ctx, site) {
  const problems = [];
  for (const page of site.pages) {
    const res = await fetchRaw(ctx.port, page, ctx.previewHost);
    if (res.status !== 200) problems.push(`copy of ${page}: ${res.status || res.error}`);
    else if (!res.body.toString().includes(`end of ${page}<`))
      problems.push(`copy of ${page} is cut short`);
  }
  let identical = 0;
  for (const asset of site.assets) {
    const res = await fetchRaw(ctx.port, asset, ctx.previewHost);
    const want = site.files.get(asset).body;
    if (res.status !== 200) problems.push(`copy of ${asset}: ${res.status || res.error}`);
    else if (origins.sha256(res.body) !== origins.sha256(want)) {
      problems.push(`copy of ${asset} differs (${res.body.length} of ${want.length} bytes)`);
    } else identical++;
  }
  ctx.notes.push(`${identical}/${site.assets.length} images byte-identical in the copy`);
  return problems;
}

/** A message a person can read: one sentence, no error codes, stack frames or JSON. */
function plainSentence(text) {
  if (typeof text !== 'string' || text.trim() === '') return 'no error text';
  const t = text.trim();
  if (t.length > 400) return `${t.length} characters long`;
  if (/\n/.test(t)) return 'spans several lines';
  if (!/^[A-Z"“]/.test(t)) return 'does not start like a sentence';
  if (!/[.!?]["”)]?$/.test(t)) return 'does not end with a full stop';
  const jargon =
    /\b(E[A-Z]{3,}|UND_ERR_\w+|HPE_\w+|ERR_\w+|undefined|null|NaN|\[object \w+\]|\w+Error|[A-Z]\w* Error)\b|Error:|\bat \S+ \(|[{}]/.exec(
      t,
    );
  if (jargon) return `contains "${jargon[0]}"`;
  return null;
}

// ---- one case ---------------------------------------------------------------------------------------

async function runCase(c) {
  const row = {
    case: c.name,
    what: c.what,
    outcome: 'fail',
    reasons: [],
    notes: [],
    endedS: null,
    finalStatus: null,
    error: null,
    currentStatus: null,
    serverPeakMiB: null,
    runPeakMiB: null,
    serverStartMiB: null,
    totalPeakMiB: null,
    runProcesses: [],
    healthWorstMs: null,
    healthSamples: 0,
    healthFailures: 0,
    storedMiB: null,
    tmpMiB: null,
    originRequests: null,
    originBusyAfter: null,
    serverPid: null,
    restartedAfter: false,
  };
  if (!server || !server.handle.alive) server = await startServer();
  const srv = server;
  const pid = srv.handle.pid;
  const port = srv.handle.port;
  row.serverPid = pid;

  const prepared = c.prepare ? await c.prepare() : undefined;
  const origin = await c.start(prepared);
  liveOrigin = origin;
  step(`${c.name}: origin ${origin.name} at ${origin.url}`);

  const health = watchHealth(port);
  const memory = watchMemory(pid);
  const disk = await watchFolder(srv.dataDir, { part: 'blobs' });
  const tmp = await watchFolder(srv.tmpDir);
  const posted = Date.now();
  let ended = false;
  let died = false;
  let stalled = false;
  let cutShort = false;
  let last = null;
  try {
    const created = await request(port, '/api/domains/clone', {
      method: 'POST',
      body: { sourceUrl: origin.url },
      timeoutMs: 10_000,
    });
    if (created.status !== 201) {
      row.reasons.push(
        `POST /api/domains/clone answered ${created.status || created.error}: ${created.text.slice(0, 200)}`,
      );
    } else {
      const id = created.json.id;
      const previewHost = new URL(created.json.previewUrl).hostname;
      const hardMs = Math.min((PLAN_LIMIT_S + GRACE_S) * 1000, Math.max(budgetLeft(), 0));
      let lastShown = 0;
      while (!exiting) {
        if (!srv.handle.alive) {
          died = true;
          break;
        }
        const res = await request(port, `/api/domains/clone/${id}/status`, { timeoutMs: 5_000 });
        if (res.status === 200) {
          last = res.json;
          if (last.status === 'completed' || last.status === 'failed') {
            ended = true;
            break;
          }
        }
        const elapsed = Date.now() - posted;
        if (verbose && elapsed - lastShown >= 5_000) {
          lastShown = elapsed;
          const m = memory.figures;
          step(
            `  ${c.name} ${(elapsed / 1000).toFixed(0)} s: ${last?.status ?? `status HTTP ${res.status || res.error}`}` +
              ` "${last?.currentStatus ?? ''}"; health worst ${health.figures.worstMs.toFixed(0)} ms;` +
              ` server ${(m.serverPeakBytes / MiB).toFixed(0)} MiB, run ${(m.descendantsPeakBytes / MiB).toFixed(0)} MiB;` +
              ` origin requests ${origin.stats.requests}`,
          );
        }
        if (elapsed > hardMs) {
          if (hardMs < (PLAN_LIMIT_S + GRACE_S) * 1000) cutShort = true;
          else stalled = true;
          break;
        }
        await sleep(500);
      }
      row.endedS = ended ? (Date.now() - posted) / 1000 : null;
      if (ended) {
        // Lingering work and connections the run did not let go of show in the next seconds.
        const until = Date.now() + AFTER_S * 1000;
        while (Date.now() < until && srv.handle.alive) await sleep(250);
        if (!srv.handle.alive) died = true;
        row.originBusyAfter = origin.busy();
      }
      row.finalStatus = last?.status ?? null;
      row.currentStatus = last?.currentStatus ?? null;
      row.error = last?.error ?? null;
      row.previewHost = previewHost;
      row.id = id;
    }
  } finally {
    const h = await health.stop();
    const m = memory.stop();
    const d = await disk.stop();
    const t = await tmp.stop();
    row.healthWorstMs = Math.round(h.worstMs);
    row.healthSamples = h.samples;
    row.healthFailures = h.failures;
    row.healthTimeouts = h.timeouts;
    row.healthLastFailure = h.lastFailure;
    row.serverStartMiB = +(m.serverStartBytes / MiB).toFixed(1);
    row.serverPeakMiB = +(m.serverPeakBytes / MiB).toFixed(1);
    row.runPeakMiB = +(m.descendantsPeakBytes / MiB).toFixed(1);
    row.totalPeakMiB = +(m.totalPeakBytes / MiB).toFixed(1);
    row.runProcesses = m.descendantsAtPeak;
    row.storedMiB = +(d.peakGrowthBytes / MiB).toFixed(2);
    row.blobsMiB = +(d.partPeakGrowthBytes / MiB).toFixed(2);
    row.databaseMiB = +((d.lastGrowthBytes - d.partLastGrowthBytes) / MiB).toFixed(2);
    row.tmpMiB = +(t.peakGrowthBytes / MiB).toFixed(2);
    row.originRequests = origin.stats.requests;
  }

  // ---- checks ----
  if (!srv.handle.alive) died = true;
  if (died) {
    row.reasons.push(`CRASH: the server died (${deathOf(srv.handle)})`);
    row.finalStatus = `server died${last ? ` (run was ${last.status})` : ''}`;
  } else if (stalled) {
    row.reasons.push(
      `STALL: the run was still "${last?.status ?? '?'}" ("${last?.currentStatus ?? ''}") ${PLAN_LIMIT_S + GRACE_S} s after it was asked`,
    );
    row.finalStatus = `stalled (${last?.status ?? '?'})`;
  } else if (cutShort) {
    row.reasons.push('not finished: the suite ran out of time (--budget-s) while the run went on');
    row.finalStatus = `unfinished (${last?.status ?? '?'})`;
  } else if (ended && row.endedS > PLAN_LIMIT_S + GRACE_S) {
    row.reasons.push(
      `the run took ${row.endedS.toFixed(0)} s (limit ${PLAN_LIMIT_S} s + ${GRACE_S} s)`,
    );
  }
  if (!died && srv.handle.pid !== pid) row.reasons.push('the server PID changed');
  // Once the server is dead every probe fails: that is the crash, already reported.
  if (row.healthWorstMs >= HEALTH_LIMIT_MS || (row.healthFailures > 0 && !died)) {
    row.reasons.push(
      `health: worst ${row.healthWorstMs} ms` +
        (row.healthFailures > 0
          ? `, ${row.healthFailures} of ${row.healthSamples} failed (${row.healthLastFailure})`
          : ''),
    );
  }
  if (row.storedMiB * MiB > BYTES_LIMIT) {
    row.reasons.push(`stored ${row.storedMiB} MiB (limit ${(BYTES_LIMIT / MiB).toFixed(0)} MiB)`);
  }
  if (row.serverPeakMiB * MiB > MAX_SERVER_BYTES) {
    row.reasons.push(
      `server RSS ${row.serverPeakMiB.toFixed(0)} MiB (limit ${values['max-server-mib']} MiB)`,
    );
  }
  if (row.runPeakMiB * MiB > MAX_RUN_BYTES) {
    row.reasons.push(
      `run processes ${row.runPeakMiB.toFixed(0)} MiB (limit ${values['max-run-mib']} MiB)`,
    );
  }
  if (row.originBusyAfter > 0) {
    row.reasons.push(
      `${row.originBusyAfter} origin connection(s) still being answered ${AFTER_S} s after the run ended`,
    );
  }
  if (ended && row.finalStatus === 'failed') {
    const problem = plainSentence(row.error);
    if (problem) row.reasons.push(`the error is not a plain sentence (${problem})`);
  }
  if (c.legit && ended && !died) {
    if (row.finalStatus !== 'completed')
      row.reasons.push(`an ordinary site ended ${row.finalStatus}`);
    else if (c.verify) {
      try {
        const problems = await Promise.race([
          c.verify({ port, previewHost: row.previewHost, notes: row.notes }, prepared),
          sleep(60_000).then(() => ['reading the copy back took over 60 s']),
        ]);
        if (problems.length > 0)
          row.reasons.push(
            `copy: ${problems.slice(0, 3).join('; ')}${problems.length > 3 ? ` (+${problems.length - 3})` : ''}`,
          );
      } catch (err) {
        row.reasons.push(`reading the copy back failed: ${err.message}`);
      }
    }
  }
  await Promise.resolve(origin.close()).catch(() => undefined);
  liveOrigin = null;
  if (c.name.startsWith('python-http-server'))
    fs.rmSync(prepared.dir, { recursive: true, force: true });

  // ---- a server that crashed, stalled or no longer answers is replaced for the next case ----
  let unwell = died || stalled || cutShort;
  if (!unwell && rssOf(pid) > MAX_SERVER_BYTES) {
    // Its heap would count against the next cases: they get a fresh server.
    unwell = true;
    row.notes.push(
      `the server still held ${(rssOf(pid) / MiB).toFixed(0)} MiB after the case: restarted`,
    );
  }
  if (!unwell) {
    const probe = await request(port, '/api/health', { timeoutMs: 5_000 });
    if (probe.status !== 200) {
      unwell = true;
      row.reasons.push(`after the case /api/health answered ${probe.status || probe.error}`);
    }
  }
  if (unwell) {
    if (died || stalled) keepLog(srv, died ? 'crash' : 'stall');
    await stopServer(srv, died ? 'it died' : stalled ? 'its run stalled' : 'it is unwell');
    server = null;
    row.restartedAfter = true;
  }
  row.outcome = row.reasons.length === 0 ? 'pass' : 'fail';
  return row;
}

// ---- main ---------------------------------------------------------------------------------------

try {
  buildServer(values['no-build']);
} catch (err) {
  await exitWith(1, err.message);
}
step(`hostile-origin suite: ${chosen.length} case(s); work folder ${workRoot}`);
const rows = [];
for (const c of chosen) {
  if (exiting) break;
  if (budgetLeft() <= 0) {
    rows.push({
      case: c.name,
      what: c.what,
      outcome: 'fail',
      reasons: ['not run: the suite ran out of time (--budget-s)'],
      notes: [],
    });
    continue;
  }
  console.log(`\n== ${c.name}: ${c.what}`);
  let row;
  try {
    row = await runCase(c);
  } catch (err) {
    row = {
      case: c.name,
      what: c.what,
      outcome: 'fail',
      reasons: [`the suite failed: ${err.stack ?? err}`],
      notes: [],
    };
    if (liveOrigin) await Promise.resolve(liveOrigin.close()).catch(() => undefined);
    liveOrigin = null;
  }
  rows.push(row);
  console.log(
    `== ${c.name}: ${row.outcome.toUpperCase()}` +
      (row.endedS != null
        ? ` — ended ${row.finalStatus} after ${row.endedS.toFixed(1)} s`
        : ` — ${row.finalStatus ?? ''}`) +
      (row.error ? ` ("${row.error}")` : '') +
      (row.reasons.length ? `\n   ${row.reasons.join('\n   ')}` : ''),
  );
}

const fmt = (v, digits = 0) => (v == null ? '—' : Number(v).toFixed(digits));
const shortWhy = (r) => {
  if (r.outcome === 'pass') return 'PASS';
  const tags = r.reasons.map((why) =>
    why.startsWith('CRASH')
      ? 'crash'
      : why.startsWith('STALL')
        ? 'stall'
        : why.startsWith('health')
          ? 'health'
          : why.startsWith('stored')
            ? 'bytes'
            : why.startsWith('server RSS') || why.startsWith('run processes')
              ? 'memory'
              : why.includes('origin connection')
                ? 'leak'
                : why.includes('plain sentence')
                  ? 'error text'
                  : why.startsWith('copy') || why.startsWith('an ordinary')
                    ? 'copy'
                    : why.startsWith('not run')
                      ? 'not run'
                      : 'other',
  );
  return `FAIL: ${[...new Set(tags)].join(', ')}`;
};
const statusCell = (r) => {
  if (!r.finalStatus) return '—';
  if (r.finalStatus === 'failed' && r.error)
    return `failed: ${r.error.length > 60 ? `${r.error.slice(0, 57)}…` : r.error}`;
  return r.finalStatus;
};
console.log('');
printTable(
  [
    'case',
    'outcome',
    'time to end (s)',
    'peak run memory (MiB)',
    'peak server RSS (MiB)',
    'worst health (ms)',
    'bytes stored (MiB)',
    'final status',
  ],
  rows.map((r) => [
    r.case,
    shortWhy(r),
    r.endedS != null
      ? fmt(r.endedS, 1)
      : r.finalStatus?.startsWith('stalled')
        ? `>${PLAN_LIMIT_S + GRACE_S}`
        : '—',
    fmt(r.runPeakMiB),
    fmt(r.serverPeakMiB),
    r.healthTimeouts > 0 ? `≥${fmt(r.healthWorstMs)}` : fmt(r.healthWorstMs),
    fmt(r.storedMiB, 1),
    statusCell(r),
  ]),
  [0, 1, 7],
);
console.log('');
for (const r of rows) {
  const extra = [
    r.originRequests != null ? `${r.originRequests} origin requests` : null,
    r.serverStartMiB != null
      ? `server RSS ${fmt(r.serverStartMiB)} → ${fmt(r.serverPeakMiB)} MiB`
      : null,
    r.runProcesses?.length ? `run processes at peak: ${r.runProcesses.join(', ')}` : null,
    r.storedMiB != null
      ? `DATA_DIR peak +${fmt(r.storedMiB, 1)} MiB (blobs peak +${fmt(r.blobsMiB, 1)}, database and rest at the end +${fmt(r.databaseMiB, 1)})`
      : null,
    r.tmpMiB ? `TMPDIR grew ${fmt(r.tmpMiB, 1)} MiB` : null,
    r.healthSamples ? `${r.healthSamples} health samples` : null,
    ...(r.notes ?? []),
  ].filter(Boolean);
  console.log(
    `${r.case}: ${r.outcome.toUpperCase()}${r.reasons.length ? ` — ${r.reasons.join('; ')}` : ''}`,
  );
  if (r.error) console.log(`   error text: "${r.error}"`);
  if (extra.length) console.log(`   ${extra.join('; ')}`);
}
const failed = rows.filter((r) => r.outcome !== 'pass');
const crashed = rows.filter((r) => r.reasons.some((w) => w.startsWith('CRASH'))).map((r) => r.case);
const stalledCases = rows
  .filter((r) => r.reasons.some((w) => w.startsWith('STALL')))
  .map((r) => r.case);
console.log(
  `\n${rows.length - failed.length} of ${rows.length} cases passed` +
    (failed.length ? `; FAILED: ${failed.map((r) => r.case).join(', ')}` : '') +
    (crashed.length ? `\nthe server crashed in: ${crashed.join(', ')}` : '') +
    (stalledCases.length ? `\nruns stalled in: ${stalledCases.join(', ')}` : '') +
    (fs.existsSync(logsDir) ? `\nserver logs of crashes/stalls: ${logsDir}` : '') +
    `\ntotal ${((Date.now() - suiteStarted) / 1000).toFixed(0)} s`,
);
if (values.json) {
  const commit = spawnSync('git', ['rev-parse', 'HEAD'], {
    cwd: repoRoot,
    encoding: 'utf8',
  }).stdout?.trim();
  fs.writeFileSync(
    values.json,
    `${JSON.stringify(
      {
        suite: 'hostile-origins',
        at: new Date(suiteStarted).toISOString(),
        commit: commit || null,
        node: process.version,
        limits: {
          runEndS: PLAN_LIMIT_S + GRACE_S,
          healthMs: HEALTH_LIMIT_MS,
          storedMiB: BYTES_LIMIT / MiB,
          serverRssMiB: Number(values['max-server-mib']),
          runRssMiB: Number(values['max-run-mib']),
        },
        totalS: (Date.now() - suiteStarted) / 1000,
        cases: rows,
      },
      null,
      2,
    )}\n`,
  );
  console.log(`figures written to ${values.json}`);
}
await exitWith(failed.length > 0 ? 1 : 0);
