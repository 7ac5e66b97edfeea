#!/usr/bin/env node
// `npm test`: the whole suite, in the order a reviewer would check it. Stops at the first failing
// stage. The checks that only read the sources (format, lint, types, docs) run side by side, each
// on one core, their output printed whole as each ends; the rest run one after another.
import { spawn } from 'node:child_process';

const stages = [
  [
    ['format', 'npx', ['prettier', '--check', '--log-level', 'warn', '.']],
    ['lint', 'npx', ['eslint', '--max-warnings', '0', '.']],
    ['typecheck', 'npm', ['run', '--silent', 'typecheck']],
    ['docs links', 'node', ['scripts/check-docs.mjs']],
    ['export conditions', 'node', ['scripts/check-conditions.mjs']],
  ],
  [['build', 'npm', ['run', '--silent', 'build']]],
  [['bundle budget', 'node', ['scripts/check-budget.mjs']]],
  // Sandboxed runs load the build just made, not the sources through tsx: seconds less per run.
  [['unit and integration tests', 'npx', ['vitest', 'run'], { MIRROR_SANDBOX_BUILT: 'true' }]],
  [['end-to-end tests', 'npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts']]],
];

const only = process.argv.slice(2);
const wanted = (name) => only.length === 0 || only.some((o) => name.startsWith(o));

/** Runs one step; alone it streams its output, beside others it prints it when it ends. */
function run([name, command, args, env], alone) {
  const started = Date.now();
  console.log(`\n▶ ${name}`);
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      stdio: alone ? 'inherit' : ['ignore', 'pipe', 'pipe'],
      // Settings that need the build: only when this run built it.
      env: env && wanted('build') ? { ...process.env, ...env } : process.env,
    });
    const output = [];
    child.stdout?.on('data', (chunk) => output.push(chunk));
    child.stderr?.on('data', (chunk) => output.push(chunk));
    child.on('close', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const ok = code === 0;
      if (!alone) {
        console.log(`\n── ${name} ──`);
        process.stdout.write(Buffer.concat(output));
      }
      console.log(`${ok ? '✔' : '✘'} ${name} (${seconds} s)`);
      resolve({ name, ok, seconds });
    });
  });
}

const results = [];
for (const stage of stages) {
  const steps = stage.filter(([name]) => wanted(name));
  if (steps.length === 0) continue;
  const ended = await Promise.all(steps.map((step) => run(step, steps.length === 1)));
  results.push(...ended);
  if (ended.some((r) => !r.ok)) break;
}

console.log('\nSummary');
for (const r of results)
  console.log(`  ${r.ok ? '✔' : '✘'} ${r.name.padEnd(28)} ${r.seconds.padStart(6)} s`);
const failed = results.filter((r) => !r.ok).length;
process.exit(failed > 0 ? 1 : 0);
