import fs from 'node:fs';
import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { exportStatic, mirror } from '../src/index.js';
import { processHtml } from '../src/references/index.js';
import { readBlob } from '../src/storage/blob-utils.js';
import { createMemoryBlobStore } from '../src/storage/memory-blob-store.js';
import type { BlobStore, Manifest } from '../src/types.js';
import { launchBrowser, pixelDifference, visit } from './browser.js';
import {
  FIXTURES,
  serveDirectory,
  serveFixture,
  type FixtureServer,
  type Handler,
} from './fixture-server.js';

const APP = path.join(FIXTURES, 'js-modules');

/** Runs in the page (a string: the engine's TypeScript has no DOM types). */
const READ_APP_STATE = `(() => {
  const shell = document.querySelector('app-shell').shadowRoot;
  const text = (el) => (el?.textContent ?? '').replace(/\\s+/g, ' ').trim();
  const header = shell.querySelector('app-header').shadowRoot;
  const footer = shell.querySelector('app-footer').shadowRoot;
  const sheets = new Set(shell.adoptedStyleSheets);
  const hosts = ['app-header', 'app-card', 'app-footer'].map((name) => shell.querySelector(name));
  for (const el of [...hosts, header.querySelector('ui-button')])
    for (const sheet of el.shadowRoot.adoptedStyleSheets) sheets.add(sheet);
  return {
    text: [
      text(header.querySelector('h1')),
      text(header.querySelector('ui-button').shadowRoot),
      ...[...shell.querySelectorAll('app-card')].map((c) => text(c.shadowRoot.querySelector('h3'))),
      text(shell.getElementById('worker')),
      text(footer.querySelector('span')),
    ],
    bars: shell.getElementById('chart').firstElementChild?.childElementCount ?? 0,
    icons: footer.querySelectorAll('svg path').length,
    adopted: sheets.size,
  };
})()`;

const servers: FixtureServer[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true }));
});

/** Files under a fixture folder as URL paths, e.g. `/app/main.js`. */
function filesOf(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .filter((f) => fs.statSync(path.join(dir, f)).isFile())
    .map((f) => `/${f.split(path.sep).join('/')}`)
    .sort();
}

async function startApp() {
  const cdn = await serveFixture(path.join(APP, 'cdn'));
  const origin = await serveFixture(path.join(APP, 'site'));
  origin.vars.CDN = cdn.origin;
  servers.push(origin, cdn);
  const modules = [
    ...filesOf(path.join(APP, 'site')).filter((p) => p !== '/index.html'),
    ...filesOf(path.join(APP, 'cdn')).map((p) => `/_x/${cdn.host}${p}`),
  ];
  return { origin, cdn, modules };
}

describe('an unbundled ES-module app', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** Exports the copy, stops the originals, and compares the copy in Chromium with the original. */
  async function checkCopy(
    manifest: Manifest,
    store: BlobStore,
    app: Awaited<ReturnType<typeof startApp>>,
    label: string,
  ) {
    const original = await visit(browser, `${app.origin.origin}/`, [
      app.origin.origin,
      app.cdn.origin,
    ]);
    expect(original.failed).toEqual([]);
    expect(await appState(`${app.origin.origin}/`)).toEqual(APP_STATE);
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'mirror-js-modules-'));
    dirs.push(out);
    await exportStatic(manifest, store, out);
    await app.origin.close();
    await app.cdn.close();
    const copy = await serveDirectory(out);
    servers.push(copy);
    const result = await visit(browser, `${copy.origin}/`, [copy.origin]);
    if (process.env.MIRROR_DEBUG_SHOTS) {
      fs.writeFileSync(`/tmp/js-modules-${label}-original.png`, original.screenshot);
      fs.writeFileSync(`/tmp/js-modules-${label}-copy.png`, result.screenshot);
    }
    expect(result.failed).toEqual([]);
    expect(result.foreign).toEqual([]);
    // Nothing beyond the copy's own files was asked for: every module came from the export.
    expect(copy.requests.filter((r) => !fs.existsSync(path.join(out, r.split('?')[0]!)))).toEqual(
      [],
    );
    const difference = pixelDifference(original.screenshot, result.screenshot);
    console.warn(
      `js-modules (${label}): mirrored in ${manifest.stats.durationMs} ms, ` +
        `${manifest.stats.rendered} page(s) rendered, ${manifest.entries.length} files; ` +
        `the copy differs from the original by ${(difference * 100).toFixed(3)}%`,
    );
    expect(difference, `differs by ${(difference * 100).toFixed(2)}%`).toBeLessThanOrEqual(0.005);
    // The app ran in the copy: every part of the page is there, shadow roots included.
    expect(await appState(`${copy.origin}/`)).toEqual(APP_STATE);
  }

  const APP_STATE = {
    text: [
      'Module Garden',
      'Visitors 1,234,567',
      'Seeds',
      'Roots',
      'Leaves',
      'Worker: the primes below 100 add up to 1060 (21% of 5,000)',
      'Grown from build 2024.06 (static modules)',
    ],
    bars: 7,
    icons: 2,
    adopted: 5,
  };

  /** What the app built, read through its shadow roots. */
  async function appState(url: string) {
    const page = await browser.newPage();
    try {
      await page.goto(url, { waitUntil: 'networkidle' });
      return await page.evaluate(READ_APP_STATE);
    } finally {
      await page.close();
    }
  }

  it('is copied with every module by the static tier alone, and runs offline', async () => {
    const app = await startApp();
    const store = createMemoryBlobStore();
    const manifest = await mirror({
      url: `${app.origin.origin}/`,
      store,
      allowPrivateNetworks: true,
      render: 'never',
    });
    expect(manifest.stats.rendered).toBe(0);
    expect(manifest.failures).toEqual([]);
    const paths = manifest.entries.map((e) => e.path);
    expect(paths).toEqual(expect.arrayContaining(app.modules));

    // Before JavaScript was parsed, the page was all the crawl knew: its own references reach
    // the entry module, the preloaded one and the import map, and nothing else.
    const page = fs.readFileSync(path.join(APP, 'site', 'index.html'), 'utf8');
    const fromHtml = new Set(
      processHtml(page, `${app.origin.origin}/`, () => undefined).refs.map(
        (r) => new URL(r.url).pathname,
      ),
    );
    expect([...fromHtml].sort()).toEqual([
      '/app/config.js',
      '/app/main.js',
      '/vendor/lib/format.js',
      '/vendor/ui/',
    ]);
    const onlyThroughJs = app.modules.filter((m) => !fromHtml.has(m));
    // 18 modules (4 of them from another host, or a worker's import) and the data they fetch.
    expect(onlyThroughJs).toHaveLength(19);

    // Only what must point elsewhere in the copy was rewritten, in place.
    const text = async (p: string) => {
      const entry = manifest.entries.find((e) => e.path === p)!;
      return (await readBlob(store, entry.hash)).toString('utf8');
    };
    expect(await text('/app/main.js')).toContain(`import { stamp } from '/app/stamp.js';`);
    expect(await text('/app/elements/app-footer.js')).toContain(
      `import { icon } from '/_x/${app.cdn.host}/esm/icons.js';`,
    );
    const icons = await text(`/_x/${app.cdn.host}/esm/icons.js`);
    expect(icons).toContain(`import { shapes } from '/_x/${app.cdn.host}/esm/shapes.js';`);
    expect(icons).toContain(`import { pathFor } from './paths.js';`);
    const changed = manifest.entries
      .filter((e) => e.hash !== e.sourceHash && /\.js$/.test(e.path))
      .map((e) => e.path)
      .sort();
    expect(changed).toEqual([
      `/_x/${app.cdn.host}/esm/icons.js`,
      '/app/elements/app-footer.js',
      '/app/main.js',
    ]);

    await checkCopy(manifest, store, app, 'never');
  });

  it.each(['auto', 'always'] as const)('is copied the same way with render: %s', async (render) => {
    const app = await startApp();
    const store = createMemoryBlobStore();
    const manifest = await mirror({
      url: `${app.origin.origin}/`,
      store,
      allowPrivateNetworks: true,
      render,
    });
    expect(manifest.entries.map((e) => e.path)).toEqual(expect.arrayContaining(app.modules));
    expect(manifest.failures).toEqual([]);
    await checkCopy(manifest, store, app, render);
  });
});

describe('JavaScript bodies in the crawl', () => {
  const send =
    (type: string, body: string | Buffer): Handler =>
    (_req: http.IncomingMessage, res: http.ServerResponse) =>
      void res.writeHead(200, { 'content-type': type }).end(body);

  it('follows redirects, odd types and other encodings, and rewrites only what must change', async () => {
    const untouched = Buffer.from(
      `var label = 'd\xe9j\xe0 vu'; import('./lazy/plain-part.js');`,
      'latin1',
    );
    const minified = `import{a}from"./lazy/min-dep.js";export const b=a+1;\n//# sourceMappingURL=min.js.map\n`;
    // windows-1252, with an absolute URL of the site itself (known once the server listens).
    const legacy = () =>
      Buffer.from(`var label = 'caf\xe9'; import('${site.origin}/lazy/legacy-part.js');`, 'latin1');
    const site = await serveFixture(null, {
      '/': send(
        'text/html; charset=utf-8',
        `<!doctype html><script src="/legacy.js"></script><script src="/plain.js"></script>` +
          `<script type="module" src="/old/entry.js"></script><script type="module" src="/lib.mjs"></script>` +
          `<script type="module" src="/min.js"></script>`,
      ),
      '/legacy.js': (_req, res) =>
        void res
          .writeHead(200, { 'content-type': 'text/javascript; charset=windows-1252' })
          .end(legacy()),
      '/plain.js': send('application/javascript', untouched),
      // A module that moved: its imports resolve against where it ended up.
      '/old/entry.js': (_req, res) => void res.writeHead(301, { location: '/new/entry.js' }).end(),
      '/new/entry.js': send('text/javascript', `import './dep.js';`),
      '/new/dep.js': send('text/javascript', `export {};`),
      // No useful type: the path says it is JavaScript.
      '/lib.mjs': send('application/octet-stream', `import './lazy/from-mjs.js';`),
      '/min.js': send('text/javascript', minified),
      '/lazy/legacy-part.js': send('text/javascript', ''),
      '/lazy/plain-part.js': send('text/javascript', ''),
      '/lazy/min-dep.js': send('text/javascript', 'export const a = 1;'),
      '/lazy/from-mjs.js': send('text/javascript', ''),
    });
    servers.push(site);
    const store = createMemoryBlobStore();
    const manifest = await mirror({
      url: `${site.origin}/`,
      store,
      allowPrivateNetworks: true,
      render: 'never',
    });
    expect(manifest.failures).toEqual([]);
    expect(manifest.entries.map((e) => e.path)).toEqual(
      expect.arrayContaining([
        '/new/dep.js',
        '/lazy/legacy-part.js',
        '/lazy/plain-part.js',
        '/lazy/min-dep.js',
        '/lazy/from-mjs.js',
      ]),
    );
    const entry = (p: string) => manifest.entries.find((e) => e.path === p)!;
    // Rewritten (an absolute URL of the site) and so re-encoded as UTF-8, saying so.
    const rewritten = entry('/legacy.js');
    expect(rewritten.contentType).toBe('text/javascript; charset=utf-8');
    expect((await readBlob(store, rewritten.hash)).toString('utf8')).toBe(
      `var label = 'café'; import('/lazy/legacy-part.js');`,
    );
    // Nothing to change: the very bytes, type included.
    for (const p of ['/plain.js', '/min.js', '/new/entry.js', '/lib.mjs']) {
      expect(entry(p).hash, p).toBe(entry(p).sourceHash);
    }
    expect(entry('/plain.js').contentType).toBe('application/javascript');
    expect((await readBlob(store, entry('/min.js').hash)).toString('utf8')).toBe(minified);
  });
});
