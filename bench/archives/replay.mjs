#!/usr/bin/env node
// npm run bench:archives:replay — copies exported as WACZ, opened in ReplayWeb.page (issue 35).
// For the engine's basic fixture and each fixture of the JavaScript corpus (packages/engine/test/
// fixtures/js-*), served on 127.0.0.1: the engine copies it (render auto), writes the copy as WACZ,
// photographs up to --pages of its pages on the original at 1280×800, STOPS the original, then
// photographs them as ReplayWeb.page (the npm `replaywebpage` package, on loopback, in Chromium)
// replays them from the WACZ (packages/engine/test/replay-compare.ts). Prints, per page, the share
// of pixels that differ, and the requests the replay made to the stopped original.
//
// Options: --only basic,js-router   --pages N (per fixture, default 5)
import path from 'node:path';
import { parseArgs } from 'node:util';
import { register } from 'tsx/esm/api';

const { values } = parseArgs({
  options: { only: { type: 'string' }, pages: { type: 'string', default: '5' } },
});
const repoRoot = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
register();
const test = (file) => import(path.join(repoRoot, 'packages/engine/test', file));
const { compareReplay } = await test('replay-compare.ts');
const fidelity = await test('js-fidelity.ts');
const { serveFixture, FIXTURES } = await test('fixture-server.ts');

/** The basic fixture as the engine's tests serve it: its pages, and a CDN on a second origin. */
async function startBasic() {
  const cdn = await serveFixture(path.join(FIXTURES, 'cdn'));
  const origin = await serveFixture(path.join(FIXTURES, 'basic'));
  origin.vars.CDN = cdn.origin;
  return {
    url: `${origin.origin}/`,
    origins: [origin.origin, cdn.origin],
    close: async () => Promise.all([origin.close(), cdn.close()]),
  };
}

async function startJs(name) {
  const fixture = await fidelity.loadFixture(name);
  const original = await fidelity.startOriginal(fixture);
  return {
    url: new URL(fixture.start, original.origin.origin).href,
    origins: original.origins,
    close: () => original.close(),
  };
}

const names = values.only?.split(',') ?? ['basic', ...fidelity.presentFixtures()];
const browser = await fidelity.launchBrowser();
const rows = [];
try {
  for (const name of names) {
    process.stdout.write(`${name}… `);
    const site = name === 'basic' ? await startBasic() : await startJs(name);
    const started = performance.now();
    try {
      const result = await compareReplay({
        browser,
        startUrl: site.url,
        origins: site.origins,
        stop: site.close,
        maxPages: Number(values.pages),
      });
      const worst = Math.max(...result.pages.map((p) => p.pixels));
      console.log(
        `${result.pages.length} pages, worst ${(worst * 100).toFixed(2)}% (${((performance.now() - started) / 1000).toFixed(1)} s)`,
      );
      for (const page of result.pages)
        rows.push({
          name,
          path: new URL(page.url).pathname + new URL(page.url).search,
          pixels: page.pixels,
          toOriginal: result.toOriginal.length,
          wacz: result.waczBytes,
        });
    } catch (err) {
      console.log(`failed: ${err instanceof Error ? err.message.split('\n')[0] : err}`);
      rows.push({ name, path: '—', pixels: NaN, toOriginal: NaN, wacz: NaN });
      await site.close();
    }
  }
} finally {
  await browser.close();
}
console.log(
  '\n| fixture | page | pixels differing in ReplayWeb.page | requests to the stopped original | WACZ |',
);
console.log('|---|---|---:|---:|---:|');
for (const r of rows)
  console.log(
    `| ${r.name} | ${r.path} | ${Number.isNaN(r.pixels) ? 'failed' : `${(r.pixels * 100).toFixed(2)}%`} | ${r.toOriginal} | ${(r.wacz / 1024).toFixed(0)} KiB |`,
  );
