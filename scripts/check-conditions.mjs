#!/usr/bin/env node
// The export condition that makes tests, type checks and the dev server read our packages'
// TypeScript sources must be named the same everywhere: a config that asks for another name
// silently resolves the packages' built `dist` instead, so a change in a package goes unseen by
// that config's tests until someone rebuilds (issue 22). Fails when the names drift apart.
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const read = (file) => fs.readFileSync(path.join(root, file), 'utf8');

/** Conditions Node, TypeScript and Vite define themselves: anything else is ours. */
const STANDARD = new Set([
  'types',
  'import',
  'require',
  'default',
  'node',
  'browser',
  'module',
  'development',
  'production',
  'development|production',
]);

// Our condition, as the packages export it.
const exported = new Set();
for (const dir of ['packages', 'apps']) {
  for (const name of fs.readdirSync(path.join(root, dir))) {
    const file = path.join(dir, name, 'package.json');
    if (!fs.existsSync(path.join(root, file))) continue;
    const walk = (value) => {
      if (!value || typeof value !== 'object') return;
      for (const [key, inner] of Object.entries(value)) {
        if (!key.startsWith('.') && !STANDARD.has(key)) exported.add(key);
        walk(inner);
      }
    };
    walk(JSON.parse(read(file)).exports);
  }
}

const problems = [];
if (exported.size !== 1) {
  problems.push(
    `packages export ${exported.size} custom conditions (${[...exported]}); expected one`,
  );
}
const condition = [...exported][0];

// Every place that picks conditions: tsconfig `customConditions` and Vite/Vitest `conditions`.
const configs = [
  'tsconfig.base.json',
  'apps/web/tsconfig.json',
  'vitest.config.ts',
  'apps/web/vitest.config.ts',
  'apps/web/vite.config.ts',
];
for (const file of configs) {
  const text = read(file);
  const lists = [...text.matchAll(/(?:customConditions|conditions)["']?\s*:\s*\[([^\]]*)\]/g)];
  if (lists.length === 0) problems.push(`${file}: names no conditions`);
  for (const [, list] of lists) {
    const names = [...list.matchAll(/["']([^"']+)["']/g)].map((m) => m[1]);
    const ours = names.filter((n) => !STANDARD.has(n));
    if (!names.includes(condition)) problems.push(`${file}: [${names}] lacks '${condition}'`);
    for (const name of ours.filter((n) => n !== condition)) {
      problems.push(`${file}: '${name}' is not a condition our packages export ('${condition}')`);
    }
  }
}
const record = read('docs/decisions/002-monorepo-layout.md');
if (!record.includes(`"${condition}"`)) {
  problems.push(`docs/decisions/002-monorepo-layout.md does not name the '${condition}' condition`);
}

if (problems.length > 0) {
  console.error(`Export conditions drifted apart:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(
  `'${condition}' is the one source condition of ${configs.length} configs and the packages`,
);
