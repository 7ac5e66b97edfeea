#!/usr/bin/env node
// npm run bench:js-sites — sites made by real site generators (bench/js-sites/build.mjs), copied
// by the CLI, by wget and by the hosted service, and compared as a visitor sees them with the
// original STOPPED.
//
// Per built site (~/.cache/mirror-js-sites/<name>/site, or $MIRROR_JS_SITES_DIR):
//   original  served on 127.0.0.1 like a typical static host (host.mjs: files, /x → /x.html or
//             /x/index.html, 404.html with status 404, keep-alive, Last-Modified)
//   CLI       node packages/engine/dist/cli.js URL --out DIR --blobs DIR --allow-private-networks
//             --quiet, under /usr/bin/time (wall, user+sys CPU, peak RSS); its export observed on a
//             plain static server and on a Netlify-like one (404.html, _redirects, /x → /x.html)
//   wget      wget -m -p -k -E -nH -e robots=off --no-parent -P DIR URL (BENCH-NOTES.md), timed
//             the same way; its copy observed on the Netlify-like server (wget's .html names)
//   hosted    one `apps/server --role all` (SQLite, MIRROR_RENDER=auto): POST /api/domains/clone,
//             polled to the end, observed on {subdomain}.localhost:{port} (skipped by --no-hosted)
// The original is observed first (its pages and the session in bench/js-sites/sessions/<name>.ts,
// in Chromium at 1280×800, packages/engine/test/js-fidelity.ts), then stopped, then each copy.
//
// Options: --only a,b  --json out.json  --no-build (use the built dist as it is)  --no-hosted
//          --no-wget  --verbose (failed URLs, differences, render reasons)  --keep DIR (copies)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { register } from 'tsx/esm/api';
import {
  apiClient,
  buildServer,
  deploymentEnv,
  importServer,
  printTable,
  repoRoot,
  runScript,
  signUpAgency,
  startRole,
  step,
  tmpDir,
} from '../faults/lib.mjs';
import { CACHE, SITES } from './build.mjs';
import { serveStaticHost } from './host.mjs';

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    json: { type: 'string' },
    verbose: { type: 'boolean' },
    'no-build': { type: 'boolean' },
    'no-hosted': { type: 'boolean' },
    'no-wget': { type: 'boolean' },
    keep: { type: 'string' },
  },
});

register();
const check = await import(path.join(repoRoot, 'packages/engine/test/js-fidelity.ts'));
const { serveDirectory } = await import(
  path.join(repoRoot, 'packages/engine/test/fixture-server.ts')
);
const here = import.meta.dirname;
const cli = path.join(repoRoot, 'packages/engine/dist/cli.js');

const SITE_LIMIT_MS = 25 * 60_000;
const MIRROR_LIMIT_MS = 10 * 60_000;

/** Runs a command under /usr/bin/time; wall and CPU seconds, peak RSS, exit code, output. */
function timed(command, args, { cwd = repoRoot, limitMs = MIRROR_LIMIT_MS } = {}) {
  const stats = path.join(tmpDir('js-sites-time-'), 'time.txt');
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn('/usr/bin/time', ['-f', '%e %U %S %M', '-o', stats, command, ...args], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    const keep = (c) => (output = (output + c).slice(-20_000));
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }, limitMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      let [wall, user, sys, rss] = [(Date.now() - started) / 1000, NaN, NaN, NaN];
      try {
        const line = fs.readFileSync(stats, 'utf8').trim().split('\n').pop();
        [wall, user, sys, rss] = line.split(' ').map(Number);
      } catch {
        /* killed before time wrote */
      }
      resolve({
        code: timedOut ? 'timeout' : code,
        output,
        wall,
        cpu: user + sys,
        rssMb: rss / 1024,
      });
    });
  });
}

/** The session spec of a site, as a JsFixture of js-fidelity.ts. */
async function loadSite(name) {
  const file = path.join(here, 'sessions', `${name}.ts`);
  const spec = fs.existsSync(file) ? (await import(file)).default : {};
  return check.fixtureOf(name, path.join(CACHE, name), spec);
}

/** Pages rendered, pages with scripts and their render reasons, from a manifest. */
function decisionOf(manifest) {
  const pages = manifest.entries.filter((e) => e.kind === 'page' && e.status === 200);
  const scripted = pages.filter((e) => e.renderReason !== undefined);
  const rendered = pages.filter((e) => e.rendered);
  const reasons = new Map();
  for (const e of scripted) {
    // "rendered (sampled for its template: …; kept as the server sent it (…)): fetched 1 file …;
    // added 382 characters of text" → "rendered, kept as sent: fetched N file…; added N characters…"
    const r = e.renderReason;
    const status = r.split(' (')[0].split(':')[0].trim();
    const kept = /kept as the server sent it/.test(r) ? ', kept as sent' : '';
    const close = r.lastIndexOf('):');
    const evidence = (
      close >= 0 ? r.slice(close + 2) : r.includes(': ') ? r.slice(r.indexOf(': ') + 2) : ''
    )
      .split(';')
      .map((x) =>
        x
          .replace(/\([^)]*\)/g, '')
          .replace(/\d+(\.\d+)?%?/g, 'N')
          .replace(/\s+/g, ' ')
          .trim(),
      )
      .filter(Boolean)
      .map((x) => x.split(' ').slice(0, 5).join(' '));
    const key = `${status}${kept}${evidence.length ? `: ${evidence.slice(0, 2).join('; ')}` : ''}`;
    reasons.set(key, (reasons.get(key) ?? 0) + 1);
  }
  return {
    pages: pages.length,
    scripted: scripted.length,
    rendered: rendered.map((e) => e.path),
    reasons: [...reasons].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${n}× ${k}`),
    examples: scripted.slice(0, 6).map((e) => `${e.path}: ${e.renderReason}`),
    notes: manifest.notes,
    failures: manifest.failures.map((f) => `${f.url} (${f.reason})`),
  };
}

const pct = (n) => (n === undefined ? '—' : `${(n * 100).toFixed(2)}%`);
const num = (n, d = 1) =>
  n === undefined || Number.isNaN(n) ? '—' : n.toFixed(n < 1 && n > 0 ? 2 : d);
const withTimeout = (promise, ms, what) =>
  Promise.race([
    promise,
    new Promise((_, reject) =>
      setTimeout(() => reject(new Error(`${what} took over ${ms / 1000} s`)), ms).unref(),
    ),
  ]);

await runScript('bench:js-sites', 300 * 60_000, async () => {
  const only = values.only?.split(',');
  const names = Object.keys(SITES).filter(
    (name) => (!only || only.includes(name)) && fs.existsSync(path.join(CACHE, name, 'build.json')),
  );
  if (names.length === 0)
    throw new Error(`no built site matches (run node bench/js-sites/build.mjs; cache ${CACHE})`);
  const hosted = !values['no-hosted'];
  if (hosted) buildServer(values['no-build']);
  if (!fs.existsSync(cli)) throw new Error(`${cli} is missing: npx tsc -b packages/engine`);

  let service;
  if (hosted) {
    const dataDir = tmpDir('mirror-bench-js-sites-');
    const env = deploymentEnv(dataDir, { MIRROR_RENDER: 'auto', JOB_CONCURRENCY: '1' });
    const server = await startRole('all', env, 'server');
    const api = apiClient(server.port, await signUpAgency(server.port, env));
    const { loadConfig } = await importServer('config/env.js');
    const { openDatabase } = await importServer('platform/db/database.js');
    const { createBlobStore } = await importServer('platform/blobs/blob-store.js');
    const { loadManifest } = await importServer('modules/sites/manifests.js');
    const config = loadConfig(env);
    const database = await openDatabase(config.database);
    service = { server, api, database, blobs: createBlobStore(config.mirror), loadManifest };
    step(`server :${server.port}`);
  }
  const browser = await check.launchBrowser();
  step(`${names.length} sites: ${names.join(', ')}`);

  const results = [];
  for (const name of names) {
    const site = await loadSite(name);
    const built = JSON.parse(fs.readFileSync(path.join(site.dir, 'build.json'), 'utf8'));
    const result = { site: name, generator: built.generator, builtPages: built.pages, copies: {} };
    results.push(result);
    const servers = [];
    const original = await serveStaticHost(path.join(site.dir, site.spec.root ?? 'site'), {
      appShell: site.spec.appShell,
    });
    try {
      await withTimeout(
        (async () => {
          const url = `${original.origin}${site.start}`;
          const keep = values.keep ? path.join(values.keep, name) : null;
          const dirOf = (what) => {
            if (!keep) return tmpDir(`js-sites-${name}-${what}-`);
            const d = path.join(keep, what);
            fs.rmSync(d, { recursive: true, force: true });
            fs.mkdirSync(d, { recursive: true });
            return d;
          };
          // One copy after the other, so no time includes another's work.
          const out = dirOf('cli');
          const store = dirOf('cli-blobs');
          const made = await timed(process.execPath, [
            cli,
            url,
            '--out',
            out,
            '--blobs',
            store,
            '--allow-private-networks',
            '--quiet',
          ]);
          step(`${name}: cli ${made.code} in ${num(made.wall)} s, ${num(made.cpu)} CPU-s`);
          if (made.code !== 0)
            throw new Error(`the CLI exited ${made.code}: ${made.output.trim().slice(-300)}`);
          let wget;
          if (!values['no-wget']) {
            const wout = dirOf('wget');
            wget = await timed('wget', [
              '--mirror',
              '--page-requisites',
              '--convert-links',
              '--adjust-extension',
              '--no-parent',
              '--no-host-directories',
              '-e',
              'robots=off',
              '--quiet',
              '-P',
              wout,
              url,
            ]);
            wget.dir = wout;
            step(`${name}: wget ${wget.code} in ${num(wget.wall)} s, ${num(wget.cpu)} CPU-s`);
          }
          let clone;
          if (service) {
            const asked = Date.now();
            clone = await service.api.clone(url);
            const status = await service.api.untilDone(clone.id, MIRROR_LIMIT_MS);
            clone.seconds = (Date.now() - asked) / 1000;
            clone.status = status;
            step(`${name}: hosted ${status.status} in ${num(clone.seconds)} s`);
          }

          const before = await check.observe(browser, site, original.origin, {
            allowed: [original.origin],
            deepLinks: true,
          });
          result.original = {
            failed: [...new Set(before.failed)],
            sessionError: before.error,
            requests: original.requests.length,
          };
          await original.close();

          const observeOn = async (server, deepLinks) =>
            check.compare(
              site,
              before,
              await check.observe(browser, site, server.origin, {
                allowed: [server.origin],
                deepLinks,
              }),
            );
          const manifest = JSON.parse(fs.readFileSync(path.join(store, 'manifest.json'), 'utf8'));
          const plain = await serveDirectory(out);
          servers.push(plain);
          result.copies.cli = {
            wall: made.wall,
            cpu: made.cpu,
            rssMb: made.rssMb,
            decision: decisionOf(manifest),
            figures: await observeOn(plain, false),
          };
          const netlify = await check.serveExportLikeNetlify(out);
          servers.push(netlify);
          result.copies.cliNetlify = { figures: await observeOn(netlify, true) };
          if (wget) {
            const ws = await check.serveExportLikeNetlify(wget.dir);
            servers.push(ws);
            result.copies.wget = {
              wall: wget.wall,
              cpu: wget.cpu,
              rssMb: wget.rssMb,
              exit: wget.code,
              figures: await observeOn(ws, true),
            };
          }
          if (service) {
            if (clone.status.status !== 'completed') {
              result.copies.hosted = {
                seconds: clone.seconds,
                error: `hosted run ${clone.status.status}: ${clone.status.error}`,
              };
            } else {
              const record = (await service.api.call('GET', `/api/domains/clone/${clone.id}`)).json;
              const m = await service.loadManifest(
                service.database.db,
                service.blobs,
                record.liveVersionId,
              );
              const base = `http://${new URL(clone.previewUrl).hostname}:${service.server.port}`;
              result.copies.hosted = {
                seconds: clone.seconds,
                decision: decisionOf(m),
                figures: check.compare(
                  site,
                  before,
                  await check.observe(browser, site, base, { allowed: [base], deepLinks: true }),
                ),
              };
            }
          }
          for (const [copy, c] of Object.entries(result.copies))
            if (c.figures) step(`${copy.padEnd(10)} ${check.summary(c.figures)}`);
        })(),
        SITE_LIMIT_MS,
        name,
      );
    } catch (error) {
      result.error = error.message;
      step(`${name}: ${error.message}`);
    } finally {
      await original.close();
      await Promise.all(servers.map((s) => s.close()));
    }
  }
  await browser.close();
  if (service) await service.database.destroy();

  // Written first: a figure the table cannot show is still kept.
  if (values.json) {
    fs.writeFileSync(
      values.json,
      JSON.stringify(results, (key, value) => (key === 'screenshot' ? undefined : value), 2),
    );
    step(`figures written to ${values.json}`);
  }

  // ---- the table ----
  const rows = [];
  const session = (f) =>
    f.sessionEqual
      ? `equal (${f.steps.filter((s) => !s.skipped).length})`
      : `differs: ${(f.firstDifference ?? '?').split(':')[0].slice(0, 34)}`;
  for (const r of results) {
    const w = r.copies.wget;
    if (r.error && !r.copies.cli) {
      rows.push([r.site, 'error', '—', '—', r.error.slice(0, 70), '—', '—', '—', '—', '—']);
      continue;
    }
    const add = (label, c, seconds, cpu) => {
      const f = c.figures;
      const d = c.decision;
      rows.push([
        label === 'cli export' ? r.site : '',
        label,
        f ? pct(f.pixelDifference) : '—',
        f ? String(f.failed.length) : '—',
        c.error ? c.error.slice(0, 60) : f ? session(f) : '—',
        d ? `${d.rendered.length}/${d.scripted}/${d.pages}` : '—',
        d ? d.reasons.slice(0, 2).join(' | ').slice(0, 110) : '',
        seconds === undefined ? '—' : num(seconds),
        cpu === undefined ? '—' : num(cpu),
        w && seconds !== undefined && label !== 'wget'
          ? `${num(seconds / Math.max(w.wall, 0.01))}× / ${cpu === undefined ? '—' : `${num(cpu / Math.max(w.cpu, 0.01))}×`}`
          : '',
      ]);
    };
    add('cli export', r.copies.cli, r.copies.cli.wall, r.copies.cli.cpu);
    // A site whose original could not be observed has no observed copies.
    if (r.copies.cliNetlify) add('cli, netlify-like', r.copies.cliNetlify);
    if (w) add('wget', w, w.wall, w.cpu);
    if (r.copies.hosted) add('hosted', r.copies.hosted, r.copies.hosted.seconds);
    if (r.error) rows.push(['', 'error', '—', '—', r.error.slice(0, 70), '', '', '', '', '']);
  }
  console.log('');
  printTable(
    [
      'site',
      'copy',
      'pixels',
      'failed',
      'session',
      'rendered',
      'render reasons',
      'wall s',
      'CPU s',
      'vs wget (time / CPU)',
    ],
    rows,
    [0, 1, 4, 6],
  );
  console.log(
    '\npixels: largest difference of the pages loaded directly (tolerance 0.50%); failed: failed requests of the\n' +
      "copy's pages and session; rendered: pages rendered / pages with scripts / pages (manifest); hosted wall s:\n" +
      'asked → completed. The original with the same session: ' +
      results
        .filter((r) => r.original)
        .map(
          (r) =>
            `${r.site} ${r.original.failed.length} failed${r.original.sessionError ? ` (session: ${r.original.sessionError})` : ''}`,
        )
        .join(', '),
  );
  if (values.verbose) {
    for (const r of results) {
      console.log(`\n== ${r.site}: ${r.generator}, ${r.builtPages} pages`);
      if (r.original) for (const f of r.original.failed) console.log(`  original failed ${f}`);
      for (const [copy, c] of Object.entries(r.copies)) {
        if (c.figures) console.log(`  ${copy}: ${check.summary(c.figures)}`);
        for (const f of c.figures?.failed ?? []) console.log(`    failed  ${f}`);
        if (c.decision) {
          for (const reason of c.decision.reasons) console.log(`    reason  ${reason}`);
          for (const e of c.decision.examples) console.log(`    page    ${e}`);
          for (const note of c.decision.notes) console.log(`    note    ${note}`);
          for (const f of c.decision.failures.slice(0, 10)) console.log(`    failure ${f}`);
        }
      }
    }
  }
  const errors = results.filter((r) => r.error);
  if (errors.length > 0) throw new Error(`${errors.length} site(s) could not be copied or checked`);
  return `${results.length} sites`;
});
