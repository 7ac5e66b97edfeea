#!/usr/bin/env node
// npm run test:faults — every fault script in bench/faults, one after the other, then a table
// (fault, expectation, result, seconds). Builds the server once (tsc -b), runs each script with
// --no-build, and exits non-zero when any of them fails (a skip, e.g. no root for a mount, is not
// a failure; its reason is shown).
// Options: --only worker-killed,disk-full  --embedded (SQLite and the database job queue where a
//          script can do without PostgreSQL/Redis)  --no-build  --verbose (every line of each script)
// Env: DATABASE_URL, REDIS_URL (defaults: postgres://postgres@127.0.0.1:5432/test, redis://127.0.0.1:6379).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildServer, printTable } from './lib.mjs';

const FAULTS = [
  {
    name: 'worker-killed',
    expectation:
      'SIGKILL the worker running a re-mirror: the other worker completes it; the site serves one whole version throughout',
    limitS: 200,
  },
  {
    name: 'redis-restart',
    expectation:
      'Redis restarts with mirrors running and queued: all complete, one asked meanwhile too; no process dies',
    limitS: 260,
  },
  {
    name: 'postgres-down',
    expectation:
      'PostgreSQL down 10 s: health, API and ready answer 503 with a clear message; 200 again by itself',
    limitS: 200,
    needsServices: true,
  },
  {
    name: 'disk-full',
    expectation:
      'blob store disk full: the run fails with a disk-space message; processes up; the old version still served',
    limitS: 200,
  },
];

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    embedded: { type: 'boolean' },
    'no-build': { type: 'boolean' },
    verbose: { type: 'boolean' },
  },
});
const chosen = values.only
  ? values.only.split(',').map((name) => {
      const fault = FAULTS.find((f) => f.name === name.trim());
      if (!fault) {
        console.error(`unknown fault "${name}"; known: ${FAULTS.map((f) => f.name).join(', ')}`);
        process.exit(2);
      }
      return fault;
    })
  : FAULTS;

const here = path.dirname(new URL(import.meta.url).pathname);
const children = new Set();
const stopChildren = () => {
  for (const child of children) child.kill('SIGTERM');
};
process.on('SIGINT', () => (stopChildren(), process.exit(130)));
process.on('SIGTERM', () => (stopChildren(), process.exit(130)));
const limitS = 120 + chosen.reduce((sum, f) => sum + f.limitS, 0);
setTimeout(() => {
  console.error(`test:faults exceeded its time limit (${limitS} s)`);
  stopChildren();
  setTimeout(() => process.exit(1), 15_000).unref();
}, limitS * 1000).unref();

/** Runs one script; resolves with its result line (`pass|fail|skip reason`) and seconds. */
function runFault(fault) {
  const args = [path.join(here, `${fault.name}.mjs`), '--no-build'];
  if (values.embedded && fault.name !== 'postgres-down') args.push('--embedded');
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let stderr = '';
    let result = null;
    let buffered = '';
    child.stdout.on('data', (chunk) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop();
      for (const line of lines) {
        const match = /^RESULT (pass|fail|skip) ?(.*)$/.exec(line);
        if (match) result = { result: match[1], reason: match[2] };
        else if (values.verbose || line.startsWith('[')) console.log(`  ${fault.name} ${line}`);
      }
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      if (values.verbose) process.stderr.write(chunk);
    });
    const timer = setTimeout(() => child.kill('SIGTERM'), (fault.limitS + 30) * 1000);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      children.delete(child);
      const seconds = (Date.now() - started) / 1000;
      if (!result || (result.result === 'pass' && code !== 0)) {
        result = { result: 'fail', reason: `exited ${code ?? signal} without a result` };
      }
      if (result.result === 'fail' && !values.verbose) {
        console.error(stderr.split('\n').slice(-60).join('\n'));
      }
      resolve({ ...result, seconds });
    });
  });
}

if (values.embedded && chosen.some((f) => f.needsServices)) {
  console.log('--embedded: postgres-down still needs PostgreSQL (DATABASE_URL or the CI default).');
}
try {
  buildServer(values['no-build']);
} catch (err) {
  console.error(err.message);
  process.exit(1);
}
const rows = [];
for (const fault of chosen) {
  console.log(`\n== ${fault.name}: ${fault.expectation}`);
  const outcome = await runFault(fault);
  console.log(
    `== ${fault.name}: ${outcome.result} (${outcome.seconds.toFixed(1)} s) ${outcome.reason}`,
  );
  rows.push({ fault, ...outcome });
}

console.log('');
printTable(
  ['fault', 'expectation', 'result', 'seconds'],
  rows.map((r) => [
    r.fault.name,
    r.fault.expectation,
    r.result.toUpperCase(),
    r.seconds.toFixed(1),
  ]),
  [0, 1],
);
for (const r of rows) console.log(`\n${r.fault.name}: ${r.result} — ${r.reason}`);
const failed = rows.filter((r) => r.result === 'fail');
console.log(
  `\n${rows.length - failed.length} of ${rows.length} faults passed or skipped` +
    (failed.length ? `; FAILED: ${failed.map((r) => r.fault.name).join(', ')}` : ''),
);
process.exit(failed.length > 0 ? 1 : 0);
