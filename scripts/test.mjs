#!/usr/bin/env node
// `npm test`: the whole suite, in the order a reviewer would check it. Stops at the first failing step.
import { spawnSync } from 'node:child_process';

const steps = [
  ['format', 'npx', ['prettier', '--check', '--log-level', 'warn', '.']],
  ['lint', 'npx', ['eslint', '--max-warnings', '0', '.']],
  ['typecheck', 'npm', ['run', '--silent', 'typecheck']],
  ['docs links', 'node', ['scripts/check-docs.mjs']],
  ['export conditions', 'node', ['scripts/check-conditions.mjs']],
  ['build', 'npm', ['run', '--silent', 'build']],
  ['bundle budget', 'node', ['scripts/check-budget.mjs']],
  ['unit and integration tests', 'npx', ['vitest', 'run']],
  ['end-to-end tests', 'npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts']],
];

const only = process.argv.slice(2);
const results = [];
for (const [name, command, args] of steps) {
  if (only.length > 0 && !only.some((o) => name.startsWith(o))) continue;
  const started = Date.now();
  console.log(`\n▶ ${name}`);
  const run = spawnSync(command, args, { stdio: 'inherit' });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const ok = run.status === 0;
  results.push({ name, ok, seconds });
  console.log(`${ok ? '✔' : '✘'} ${name} (${seconds} s)`);
  if (!ok) break;
}

console.log('\nSummary');
for (const r of results)
  console.log(`  ${r.ok ? '✔' : '✘'} ${r.name.padEnd(28)} ${r.seconds.padStart(6)} s`);
const failed = results.filter((r) => !r.ok).length;
process.exit(failed > 0 ? 1 : 0);
