#!/usr/bin/env node
// The landing page's initial JavaScript (the entry script plus every module it preloads) must stay
// under the budget, gzipped. Read from the production build's index.html, so it measures what ships.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const BUDGET_KB = 120;
const dist = path.resolve('apps/web/dist');
const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');

const scripts = [...html.matchAll(/<script[^>]+type="module"[^>]+src="([^"]+)"/g)].map((m) => m[1]);
const preloads = [...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g)].map(
  (m) => m[1],
);
const styles = [...html.matchAll(/<link[^>]+rel="stylesheet"[^>]+href="([^"]+)"/g)].map(
  (m) => m[1],
);
if (scripts.length === 0) {
  console.error('check-budget: no module script found in apps/web/dist/index.html');
  process.exit(1);
}

function gzipSize(url) {
  const file = path.join(dist, url.replace(/^\//, ''));
  return zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;
}

const rows = [...new Set([...scripts, ...preloads])].map((url) => ({ url, bytes: gzipSize(url) }));
const total = rows.reduce((sum, r) => sum + r.bytes, 0);
const css = styles.reduce((sum, url) => sum + gzipSize(url), 0);

for (const r of rows) console.log(`  ${(r.bytes / 1024).toFixed(1).padStart(7)} KB  ${r.url}`);
console.log(
  `  initial JS ${(total / 1024).toFixed(1)} KB gzipped (budget ${BUDGET_KB} KB); CSS ${(css / 1024).toFixed(1)} KB`,
);
// The landing page's script carries only its part of English (apps/web/src/lib/i18n/load-messages.ts):
// a key of any other part that it names would show as the key itself until the rest arrives.
const english = JSON.parse(fs.readFileSync('apps/web/src/locales/en.json', 'utf8'));
const loader = fs.readFileSync('apps/web/src/lib/i18n/load-messages.ts', 'utf8');
const shipped = new Set(
  /import \{([^}]*)\} from '\.\.\/\.\.\/locales\/en\.json'/
    .exec(loader)?.[1]
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean) ?? [],
);
const elsewhere = Object.keys(english).filter((part) => !shipped.has(part));
const named = new Set();
for (const url of scripts) {
  const code = fs.readFileSync(path.join(dist, url.replace(/^\//, '')), 'utf8');
  const pattern = new RegExp(`["'\`](${elsewhere.join('|')})\\.[A-Za-z]\\w*`, 'g');
  for (const m of code.matchAll(pattern)) named.add(m[0].slice(1));
}
if (shipped.size === 0 || named.size > 0) {
  console.error(
    shipped.size === 0
      ? 'check-budget: could not read which parts of English the landing page ships'
      : `check-budget: the landing page's script names messages it does not ship: ${[...named].join(', ')}`,
  );
  process.exit(1);
}

if (total > BUDGET_KB * 1024) {
  console.error(`check-budget: the landing page's initial JavaScript is over budget`);
  process.exit(1);
}
