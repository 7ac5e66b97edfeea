#!/usr/bin/env node
// Renders the social card of each language home (public/og/<code>.png, 1200×630) with headless
// Chromium. The texts come from the locale files, so re-run after translations change:
//   node apps/web/scripts/generate-og-images.mjs
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const LOCALES = [
  ['en', 'ltr'],
  ['es', 'ltr'],
  ['ru', 'ltr'],
  ['zh', 'ltr'],
  ['ar', 'rtl'],
  ['hi', 'ltr'],
  ['th', 'ltr'],
  ['id', 'ltr'],
];

const readLocale = (code) =>
  JSON.parse(readFileSync(join(root, 'src/locales', `${code}.json`), 'utf8'));
const english = readLocale('en');
const pick = (messages, path) =>
  path
    .split('.')
    .reduce((node, key) => (node && typeof node === 'object' ? node[key] : undefined), messages);
const text = (messages, path) => pick(messages, path) ?? pick(english, path);
const escape = (value) =>
  String(value).replace(
    /[&<>"]/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c],
  );

function cardHtml(code, dir, messages) {
  return `<!doctype html>
<html lang="${code}" dir="${dir}">
<head><meta charset="utf-8"><style>
  * { box-sizing: border-box; margin: 0; }
  html, body { width: 1200px; height: 630px; overflow: hidden; }
  body {
    font-family: 'Noto Sans', 'Noto Sans Arabic', 'Noto Sans Devanagari', 'Noto Sans Thai',
      'Noto Sans CJK SC', sans-serif;
    background: #eef2ff; color: #0f172a; padding: 64px 72px;
    display: flex; flex-direction: column; justify-content: space-between;
  }
  .brand { display: flex; align-items: center; gap: 18px; font-size: 40px; font-weight: 800; }
  .mark { width: 64px; height: 64px; border-radius: 18px; background: #4f46e5; display: grid; place-items: center; }
  h1 { font-size: 68px; line-height: 1.15; font-weight: 800; max-width: 1000px; }
  .badge { display: inline-block; padding: 10px 22px; border-radius: 999px; background: #4f46e5; color: #fff;
    font-size: 28px; font-weight: 700; }
  .footer { display: flex; justify-content: space-between; align-items: center; font-size: 28px; color: #334155; }
</style></head>
<body>
  <div class="brand" dir="ltr">
    <div class="mark"><svg width="40" height="40" viewBox="8 8 16 16"><path d="M9 23V9l7 8 7-8v14" fill="none" stroke="#fff" stroke-width="2.6" stroke-linejoin="round"/></svg></div>
    Mirror
  </div>
  <h1>${escape(text(messages, 'hero.title'))}</h1>
  <div class="footer">
    <span class="badge">${escape(text(messages, 'hero.badge'))}</span>
    <span dir="ltr">mirror.dev${code === 'en' ? '' : `/${code}`}</span>
  </div>
</body></html>`;
}

const work = mkdtempSync(join(tmpdir(), 'mirror-og-'));
try {
  for (const [code, dir] of LOCALES) {
    const htmlFile = join(work, `${code}.html`);
    const out = join(root, 'public/og', `${code}.png`);
    writeFileSync(htmlFile, cardHtml(code, dir, readLocale(code)));
    execFileSync(
      chromium,
      [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--hide-scrollbars',
        `--user-data-dir=${join(work, `profile-${code}`)}`,
        '--window-size=1200,630',
        `--screenshot=${out}`,
        `file://${htmlFile}`,
      ],
      { stdio: 'ignore', timeout: 60_000 },
    );
    process.stdout.write(`${out} ${(statSync(out).size / 1024).toFixed(1)} KB\n`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
