#!/usr/bin/env node
// npm run bench:fidelity — how faithfully JavaScript-built sites are copied, as a visitor sees them.
//
// Every fixture of the corpus (packages/engine/test/fixtures/js-*, the list in
// packages/engine/test/js-fidelity.ts) is served on 127.0.0.1 and copied two ways:
//   CLI     node packages/engine/dist/cli.js <url> --out DIR --blobs DIR --allow-private-networks
//           (render auto, default options); the export served by a plain static server, and, for
//           fixtures with client routes, by one that honours 404.html and _redirects (Netlify's rules)
//   hosted  one `node apps/server/dist/main.js --role all` (SQLite in a temporary DATA_DIR,
//           MIRROR_RENDER=auto, MIRROR_ALLOW_PRIVATE_NETWORKS=true): POST /api/domains/clone as a
//           signed-in Agency user, polled to the end; the copy loaded from {subdomain}.localhost:{port}
// The original is observed first (pages, deep links and the fixture's scripted session in Chromium
// at 1280×800), then STOPPED, then each copy is observed the same way and compared
// (packages/engine/test/js-fidelity.ts). Per fixture and copy it prints the largest pixel difference
// of the pages loaded directly, failed requests, requests to other origins, whether every session
// step looked the same (else the first that differs), the render decision (pages rendered, from the
// manifest; its notes with --verbose) and the time the copy took (CLI wall time; hosted: asked →
// completed, sandbox start-up included).
//
// Options: --only js-router,js-todo   --parallel N (fixtures at once, 2)   --json out.json
//          --verbose (failed URLs, differences, notes)   --no-build
// Exits 1 when a copy could not be made or checked (not when it differs: that is the figure).
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

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    parallel: { type: 'string', default: '2' },
    json: { type: 'string' },
    verbose: { type: 'boolean' },
    'no-build': { type: 'boolean' },
  },
});

// The check, its corpus and the fixtures' sessions are the engine's TypeScript test code.
register();
const check = await import(path.join(repoRoot, 'packages/engine/test/js-fidelity.ts'));
const { serveDirectory } = await import(
  path.join(repoRoot, 'packages/engine/test/fixture-server.ts')
);

const cli = path.join(repoRoot, 'packages/engine/dist/cli.js');

/** The engine's CLI as a user runs it; resolves with its exit code, output and wall time. */
function runCli(url, out, blobs) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [cli, url, '--out', out, '--blobs', blobs, '--allow-private-networks', '--quiet'],
      { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    child.on('exit', (code) => resolve({ code, output, seconds: (Date.now() - started) / 1000 }));
  });
}

const pct = (n) => (n === undefined ? '—' : `${(n * 100).toFixed(2)}%`);

await runScript('bench:fidelity', 30 * 60_000, async () => {
  buildServer(values['no-build']);
  const only = values.only?.split(',');
  const names = check.presentFixtures().filter((name) => !only || only.includes(name));
  if (names.length === 0) throw new Error(`no fixture matches --only ${values.only}`);
  const fixtures = await Promise.all(names.map((name) => check.loadFixture(name)));

  const dataDir = tmpDir('mirror-bench-fidelity-');
  const env = deploymentEnv(dataDir, {
    MIRROR_RENDER: 'auto',
    JOB_CONCURRENCY: values.parallel,
  });
  const server = await startRole('all', env, 'server');
  const api = apiClient(server.port, await signUpAgency(server.port, env));
  const { loadConfig } = await importServer('config/env.js');
  const { openDatabase } = await importServer('platform/db/database.js');
  const { createBlobStore } = await importServer('platform/blobs/blob-store.js');
  const { loadManifest } = await importServer('modules/sites/manifests.js');
  const config = loadConfig(env);
  const database = await openDatabase(config.database);
  const blobs = createBlobStore(config.mirror);
  const browser = await check.launchBrowser();
  step(`server :${server.port}; ${fixtures.length} fixtures, ${values.parallel} at a time`);

  const results = await check.inParallel(fixtures, Number(values.parallel), async (fixture) => {
    const result = { fixture: fixture.name };
    const original = await check.startOriginal(fixture);
    const servers = [];
    try {
      const url = `${original.origin.origin}${fixture.start}`;
      const out = tmpDir(`fidelity-${fixture.name}-out-`);
      const store = tmpDir(`fidelity-${fixture.name}-blobs-`);
      // One copy after the other, so neither time includes the other's work.
      const made = await runCli(url, out, store);
      if (made.code !== 0) throw new Error(`the CLI exited ${made.code}: ${made.output.trim()}`);
      const asked = Date.now();
      const clone = await api.clone(url);
      const status = await api.untilDone(clone.id, 10 * 60_000);
      result.hostedSeconds = (Date.now() - asked) / 1000;
      if (status.status !== 'completed') throw new Error(`the hosted run failed: ${status.error}`);
      const before = await check.observe(browser, fixture, original.origin.origin, {
        allowed: original.origins,
        deepLinks: true,
        sessionTries: 2,
      });
      await original.close();

      const cliManifest = JSON.parse(fs.readFileSync(path.join(store, 'manifest.json'), 'utf8'));
      const plain = await serveDirectory(out);
      servers.push(plain);
      result.cli = {
        seconds: made.seconds,
        decision: check.renderDecision(cliManifest),
        figures: check.compare(
          fixture,
          before,
          await check.observe(browser, fixture, plain.origin, {
            allowed: [plain.origin],
            deepLinks: false,
          }),
        ),
      };
      if (check.hasDeepLinks(fixture)) {
        const netlify = await check.serveExportLikeNetlify(out);
        servers.push(netlify);
        result.cliNetlify = check.compare(
          fixture,
          before,
          await check.observe(browser, fixture, netlify.origin, {
            allowed: [netlify.origin],
            deepLinks: true,
          }),
        );
      }

      const record = (await api.call('GET', `/api/domains/clone/${clone.id}`)).json;
      const manifest = await loadManifest(database.db, blobs, record.liveVersionId);
      const base = `http://${new URL(clone.previewUrl).hostname}:${server.port}`;
      result.hosted = {
        seconds: result.hostedSeconds,
        decision: check.renderDecision(manifest),
        figures: check.compare(
          fixture,
          before,
          await check.observe(browser, fixture, base, { allowed: [base], deepLinks: true }),
        ),
      };
      delete result.hostedSeconds;
      step(`cli export  ${check.summary(result.cli.figures)}`);
      step(`hosted      ${check.summary(result.hosted.figures)}`);
    } catch (error) {
      result.error = error.message;
      step(`${fixture.name}: ${error.message}`);
    } finally {
      await original.close();
      await Promise.all(servers.map((s) => s.close()));
    }
    return result;
  });
  await browser.close();
  await database.destroy();

  const rows = [];
  const row = (name, copy, figures, decision, seconds) =>
    rows.push([
      name,
      copy,
      pct(figures?.pixelDifference),
      figures ? figures.failed.length : '—',
      figures ? figures.foreign.length : '—',
      figures
        ? figures.sessionEqual
          ? `equal (${figures.steps.filter((s) => !s.skipped).length})`
          : `differs at ${figures.firstDifference?.split(':')[0] ?? '?'}`
        : '—',
      decision ? `${decision.rendered.length}/${decision.pages}` : '—',
      seconds === undefined ? '—' : seconds.toFixed(1),
    ]);
  for (const r of results) {
    if (r.error) {
      rows.push([r.fixture, 'error', '—', '—', '—', r.error.slice(0, 60), '—', '—']);
      continue;
    }
    row(r.fixture, 'cli export', r.cli.figures, r.cli.decision, r.cli.seconds);
    if (r.cliNetlify) row('', 'cli export, 404/_redirects', r.cliNetlify, undefined, undefined);
    row('', 'hosted', r.hosted.figures, r.hosted.decision, r.hosted.seconds);
  }
  console.log('');
  printTable(
    ['fixture', 'copy', 'pixels', 'failed', 'foreign', 'session steps', 'rendered', 'seconds'],
    rows,
    [0, 1, 5],
  );
  console.log(
    '\npixels: largest difference of the pages loaded directly (tolerance 0.50%); failed and foreign:\n' +
      "requests of the copy's pages and session; rendered: pages rendered / pages in the manifest.",
  );
  if (values.verbose) {
    for (const r of results.filter((x) => !x.error)) {
      for (const [copy, figures, decision] of [
        ['cli export', r.cli.figures, r.cli.decision],
        ['cli export, 404/_redirects', r.cliNetlify, undefined],
        ['hosted', r.hosted.figures, r.hosted.decision],
      ]) {
        if (!figures) continue;
        console.log(`\n${r.fixture}, ${copy}: ${check.summary(figures)}`);
        for (const f of figures.failed) console.log(`  failed  ${f}`);
        for (const f of figures.foreign) console.log(`  foreign ${f}`);
        if (decision) {
          console.log(`  rendered ${decision.rendered.join(', ') || 'nothing'}`);
          for (const note of decision.notes) console.log(`  note    ${note}`);
        }
      }
    }
  }
  if (values.json) {
    fs.writeFileSync(
      values.json,
      JSON.stringify(results, (key, value) => (key === 'screenshot' ? undefined : value), 2),
    );
    step(`figures written to ${values.json}`);
  }
  const errors = results.filter((r) => r.error);
  if (errors.length > 0)
    throw new Error(`${errors.length} fixture(s) could not be copied or checked`);
  return `${results.length} fixtures`;
});
