#!/usr/bin/env node
// Runs a site's session against its ORIGINAL only (no mirror), twice, to check the script is
// robust: every step must pass and both runs must look the same.
//
//   node bench/js-sites/check-session.mjs NAME [--once] [--save DIR]
//
// Prints per step the address and the first line that differs between the two runs, if any;
// --save writes each view's screenshot and text (js-fidelity.ts saveObservation).
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { register } from 'tsx/esm/api';
import { CACHE } from './build.mjs';
import { serveStaticHost } from './host.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { once: { type: 'boolean' }, save: { type: 'string' } },
});
register();
const repoRoot = path.resolve(import.meta.dirname, '../..');
const check = await import(path.join(repoRoot, 'packages/engine/test/js-fidelity.ts'));

const name = positionals[0];
const spec = (await import(path.join(import.meta.dirname, 'sessions', `${name}.ts`))).default;
const site = check.fixtureOf(name, path.join(CACHE, name), spec);
const host = await serveStaticHost(path.join(site.dir, spec.root ?? 'site'), {
  appShell: spec.appShell,
});
const browser = await check.launchBrowser();
let failed = false;
try {
  const opts = { allowed: [host.origin], deepLinks: true };
  const first = await check.observe(browser, site, host.origin, opts);
  if (values.save) check.saveObservation(values.save, 'a', first);
  for (const [p, v] of Object.entries(first.loads))
    console.log(`load ${p}: ${v.status} ${v.url} "${v.text.split('\n')[0].slice(0, 60)}"`);
  for (const [s, v] of Object.entries(first.steps))
    console.log(`step ${s}: ${v.url} "${v.text.replace(/\s+/g, ' ').slice(0, 90)}"`);
  for (const f of new Set(first.failed)) console.log(`failed ${f}`);
  if (first.error) {
    failed = true;
    console.log(`SESSION ERROR ${first.error}`);
  }
  if (!values.once && !first.error) {
    const second = await check.observe(browser, site, host.origin, opts);
    if (values.save) check.saveObservation(values.save, 'b', second);
    const figures = check.compare(site, first, second);
    console.log(`second run against the first: ${check.summary(figures)}`);
    if (!figures.sessionEqual || figures.pixelDifference > check.PIXEL_TOLERANCE) failed = true;
  }
} finally {
  await browser.close();
  await host.close();
}
fs.writeSync(1, failed ? 'NOT ROBUST\n' : 'OK\n');
process.exit(failed ? 1 : 0);
