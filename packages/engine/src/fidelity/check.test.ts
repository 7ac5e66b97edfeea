/**
 * The fidelity check on real copies: small sites served on 127.0.0.1, mirrored by the engine,
 * exported, served by `serveCopyFolder`, and checked in Chromium (one browser for the file).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mirror } from '../crawl/mirror.js';
import { exportStatic } from '../export/export-static.js';
import { createHttpClient, type HttpClient } from '../net/http-client.js';
import { launchChromium } from '../render/chromium.js';
import { createMemoryBlobStore } from '../storage/memory-blob-store.js';
import type { BlobStore, Manifest } from '../types.js';
import { checkFidelity } from './check.js';
import { createRenderLanes } from './render-page.js';
import { serveCopyFolder, type CopyServer } from './copy-server.js';
import { formatFidelitySummary } from './summary.js';
import { sampleManifest } from './sample.js';
import { FIDELITY_VIEWPORTS, type CheckFidelityOptions, type FidelityReport } from './types.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

interface Site {
  origin: string;
  close(): Promise<void>;
}

async function serve(routes: Record<string, Handler>): Promise<Site> {
  const server = createServer((req, res) => {
    const route = routes[new URL(req.url ?? '/', 'http://x').pathname];
    if (route) route(req, res);
    else res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const send =
  (type: string, body: string | Buffer | (() => string | Buffer)): Handler =>
  (_req, res) => {
    res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' });
    res.end(typeof body === 'function' ? body() : body);
  };
const html = (body: string | (() => string)) => send('text/html; charset=utf-8', body);

/** A solid picture: big and coloured, so losing it is plain to see. */
function picture(width: number, height: number, rgb: [number, number, number]): Buffer {
  const png = new PNG({ width, height });
  for (let i = 0; i < width * height; i++) png.data.set([...rgb, 255], i * 4);
  return PNG.sync.write(png);
}

const STYLE = `body { font: 16px/1.5 sans-serif; margin: 0; color: #222 }
header { background: #1d3557; color: white; padding: 16px 24px }
main { padding: 24px } .hero { display: block; width: 100%; max-width: 600px; height: 240px }`;

const page = (title: string, main: string) => `<!doctype html><html><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title><link rel="stylesheet" href="/site.css"></head>
<body><header><nav><a href="/">Home</a> · <a href="/about">About</a></nav></header>
<main><h1>${title}</h1>${main}</main></body></html>`;

let browser: Browser;
let client: HttpClient;
const cleanups: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  browser = await launchChromium({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  });
  // Fixture servers are on loopback: opened explicitly, as the engine's tests do.
  client = createHttpClient({ allowPrivateNetworks: true });
});
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await client.close();
  await browser.close();
});

interface Copy {
  manifest: Manifest;
  store: BlobStore;
  dir: string;
  server: CopyServer;
  /** Mirrors the site again over the same folder (what a repair of the CLI does, in short). */
  remirror(): Promise<void>;
}

async function mirrorAndServe(
  site: Site,
  options: { render?: 'never' | 'auto'; repairRender?: 'always' } = {},
): Promise<Copy> {
  const store = createMemoryBlobStore();
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'fidelity-copy-'));
  const run = (render: 'never' | 'auto' | 'always') =>
    mirror({
      url: `${site.origin}/`,
      store,
      allowPrivateNetworks: true,
      render,
      retries: 0,
    });
  const manifest = await run(options.render ?? 'never');
  await exportStatic(manifest, store, dir);
  const server = await serveCopyFolder(dir);
  cleanups.push(
    () => server.close(),
    () => fs.rm(dir, { recursive: true, force: true }),
  );
  const copy: Copy = {
    manifest,
    store,
    dir,
    server,
    async remirror() {
      copy.manifest = await run(options.repairRender ?? options.render ?? 'never');
      await exportStatic(copy.manifest, store, dir);
    },
  };
  return copy;
}

async function check(
  site: Site,
  copy: Copy,
  extra: Partial<CheckFidelityOptions> = {},
): Promise<FidelityReport> {
  return checkFidelity({
    original: { url: `${site.origin}/`, client },
    copy: { url: copy.server.url },
    pages: await sampleManifest(copy.manifest, copy.store, { maxPages: 10 }),
    browser,
    limits: { concurrency: 2 },
    ...extra,
  });
}

describe('checkFidelity', () => {
  it('scores a faithful copy 99 or more, page by page, with small screenshots', async () => {
    const site = await serve({
      '/': html(
        page('Home', '<p>Welcome to the lighthouse.</p><img class="hero" src="/hero.png" alt="">'),
      ),
      '/about': html(
        page('About', '<p>Keepers since 1901.</p><ul><li>Lamp</li><li>Lens</li></ul>'),
      ),
      '/site.css': send('text/css', STYLE),
      '/hero.png': send('image/png', picture(600, 240, [230, 120, 20])),
    });
    cleanups.push(() => site.close());
    const copy = await mirrorAndServe(site);

    const report = await check(site, copy);

    expect(report.score, formatFidelitySummary(report)).toBeGreaterThanOrEqual(99);
    expect(report.pages.map((p) => `${p.path} ${p.viewport}`).sort()).toEqual([
      '/ desktop',
      '/ mobile',
      '/about desktop',
      '/about mobile',
    ]);
    for (const result of report.pages) {
      expect(result.belowThreshold, `${result.path} ${result.viewport}`).toBe(false);
      expect(result.diffPercent).toBeLessThanOrEqual(1);
      expect(result.textSimilarity).toBe(1);
      expect(result.failedRequests).toEqual([]);
      expect(result.externalRequests).toEqual([]);
      for (const shot of [result.shots.original, result.shots.copy, result.shots.diff])
        expect(PNG.sync.read(shot).width).toBe(320);
    }
    // Each viewport lays the page out at its own width: the shots keep its proportions.
    const height = (viewport: string) =>
      PNG.sync.read(report.pages.find((p) => p.path === '/' && p.viewport === viewport)!.shots.copy)
        .height;
    expect(height('desktop')).toBe(200); // 1280×800 at 320 wide
    expect(height('mobile')).toBeGreaterThan(600); // 390×844 or taller at 320 wide
  });

  it('puts a page whose hero image failed during the copy below the threshold, and repairs it', async () => {
    let heroFails = true;
    const site = await serve({
      '/': html(page('Home', '<img class="hero" src="/hero.png" alt=""><p>Big news.</p>')),
      '/site.css': send('text/css', STYLE),
      '/hero.png': (req, res) => {
        if (heroFails) return void res.writeHead(500, { 'content-type': 'text/plain' }).end('oops');
        send('image/png', picture(600, 240, [20, 120, 230]))(req, res);
      },
    });
    cleanups.push(() => site.close());
    const copy = await mirrorAndServe(site);
    heroFails = false; // the image loads again once the copy is made

    const unrepaired = await check(site, copy, { viewports: ['desktop'] });
    const home = unrepaired.pages.find((p) => p.path === '/')!;
    expect(home.belowThreshold).toBe(true);
    expect(home.reasons).toEqual(expect.arrayContaining(['pixels', 'failed-requests']));
    expect(home.diffPercent).toBeGreaterThan(5);
    expect(home.failedRequests).toEqual([
      { url: `${copy.server.url}/hero.png`, reason: 'HTTP 404', inOriginal: false },
    ]);
    expect(unrepaired.score).toBeLessThan(99);

    const asked: string[] = [];
    const repaired = await check(site, copy, {
      viewports: ['desktop'],
      repair: async (pages) => {
        asked.push(...pages.map((p) => `${p.path}: ${p.reasons.join(', ')}`));
        await copy.remirror();
      },
    });
    expect(asked).toEqual(['/: pixels, failed-requests']);
    const after = repaired.pages.find((p) => p.path === '/')!;
    expect(after.repaired?.before.diffPercent).toBeGreaterThan(5);
    expect(after.repaired?.before.reasons).toContain('failed-requests');
    expect(after.belowThreshold).toBe(false);
    expect(after.diffPercent).toBeLessThanOrEqual(1);
    expect(repaired.summary.repaired).toBe(1);
  });

  it('does not hold a rotating banner against the copy: it is the original’s own noise', async () => {
    let served = 0;
    const banner = () => {
      const n = served++;
      return `<div style="background: hsl(${(n * 137) % 360} 70% 45%); color: white; height: 120px; padding: 16px; font-size: 28px">Offer of the hour #${n}</div>`;
    };
    const site = await serve({
      '/': html(() =>
        page(
          'Shop',
          `${banner()}<p>Everything for the garden.</p><p id="pick"></p>
<script>document.getElementById('pick').textContent = 'Pick of the day: ' + ['rake', 'hoe', 'spade', 'shears'][Math.floor(Math.random() * 4)] + ', ' + new Date().toISOString().slice(0, 16);</script>`,
        ),
      ),
      '/site.css': send('text/css', STYLE),
    });
    cleanups.push(() => site.close());
    const copy = await mirrorAndServe(site);

    const report = await check(site, copy, { viewports: ['desktop'] });

    const home = report.pages.find((p) => p.path === '/')!;
    expect(home.noisePercent).toBeGreaterThan(1);
    expect(home.belowThreshold).toBe(false);
    expect(home.diffPercent).toBeLessThanOrEqual(1);
    expect(report.score).toBeGreaterThanOrEqual(99);
  });

  it('counts what the copy still fetches from the original site as external', async () => {
    const site = await serve({
      '/': html(() =>
        page(
          'Home',
          `<p>Hello.</p><div id="badge"></div>
<script>var img = new Image(); img.src = ${JSON.stringify(site.origin)} + '/badge.png'; document.getElementById('badge').appendChild(img);</script>`,
        ),
      ),
      '/site.css': send('text/css', STYLE),
      '/badge.png': send('image/png', picture(40, 40, [0, 160, 0])),
    });
    cleanups.push(() => site.close());
    const copy = await mirrorAndServe(site);

    const report = await check(site, copy, { viewports: ['desktop'] });

    const home = report.pages.find((p) => p.path === '/')!;
    expect(home.externalRequests).toEqual([`${site.origin}/badge.png`]);
    expect(home.reasons).toContain('external-requests');
    expect(home.belowThreshold).toBe(true);
  });

  it('holds script errors the original does not have against the copy, and repairs them', async () => {
    // The page's config is loaded by a script address built at run time: a crawl that does not
    // run scripts cannot find it, and the copy's app.js then throws on the missing config.
    const site = await serve({
      '/': html(
        page(
          'Home',
          `<h2>Loading…</h2><p>Tide tables for the bay.</p>
<script>document.write('<script src="/con' + 'fig.js"><\\/script>');</script>
<script src="/app.js"></script>`,
        ),
      ),
      '/site.css': send('text/css', STYLE),
      '/config.js': send('text/javascript', 'window.CONFIG = { title: "Tides of the week" };'),
      '/app.js': send(
        'text/javascript',
        "document.querySelector('h2').textContent = window.CONFIG.title;",
      ),
    });
    cleanups.push(() => site.close());
    const copy = await mirrorAndServe(site, { repairRender: 'always' });
    expect(copy.manifest.entries.map((e) => e.path)).not.toContain('/config.js');

    // The original runs without an error; the copy throws.
    const lanes = createRenderLanes(browser, { maxOpen: 2, frozenTime: Date.now() });
    const capture = (url: string, side: 'original' | 'copy') =>
      lanes.capture({
        url,
        viewport: FIDELITY_VIEWPORTS.desktop,
        mobile: false,
        side:
          side === 'original'
            ? { name: 'original', client }
            : { name: 'copy', client, ownOrigin: copy.server.url },
        maxHeight: 4_000,
        timeoutMs: 20_000,
      });
    try {
      const original = await capture(`${site.origin}/`, 'original');
      expect(original.errors).toEqual([]);
      expect(original.text).toContain('Tides of the week');
      const copied = await capture(`${copy.server.url}/`, 'copy');
      expect(copied.errors).toEqual([
        "TypeError: Cannot read properties of undefined (reading 'title')",
      ]);
    } finally {
      await lanes.close();
    }

    const report = await check(site, copy, { viewports: ['desktop'] });
    const home = report.pages.find((p) => p.path === '/')!;
    expect(home.reasons).toContain('script-errors');
    expect(home.reasons).toContain('failed-requests');
    expect(home.scriptErrors).toEqual([
      "TypeError: Cannot read properties of undefined (reading 'title')",
    ]);
    expect(home.belowThreshold).toBe(true);
    expect(report.score).toBeLessThan(99);
    expect(formatFidelitySummary(report)).toMatch(/\berrors\b/);

    // A capture with the render tier records the config the page's scripts fetched.
    const asked: string[][] = [];
    const repaired = await check(site, copy, {
      viewports: ['desktop'],
      repair: async (pages) => {
        asked.push(...pages.map((p) => p.scriptErrors));
        await copy.remirror();
      },
    });
    expect(asked).toEqual([["TypeError: Cannot read properties of undefined (reading 'title')"]]);
    const after = repaired.pages.find((p) => p.path === '/')!;
    expect(after.repaired?.before.reasons).toContain('script-errors');
    expect(after.scriptErrors).toEqual([]);
    expect(after.reasons).not.toContain('script-errors');
  });
});
