/**
 * A copy exported as WACZ, replayed by ReplayWeb.page, against the original (issue 35): the
 * original's pages are photographed at a viewport, the original is STOPPED, and the same pages are
 * photographed as ReplayWeb.page replays them from the WACZ. Shared by `archives-replay.test.ts`
 * and `bench/archives/replay.mjs`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { screenshotInReplay, startReplayWebPage } from '../src/archive/replay/replay-web-page.js';
import { mirror } from '../src/crawl/mirror.js';
import { writeVersionArchive } from '../src/export/export-archive.js';
import { decodePng, differingPixels } from '../src/fidelity/compare.js';
import { createFsBlobStore } from '../src/storage/fs-blob-store.js';
import type { RenderMode } from '../src/types.js';

export interface ReplayedPage {
  url: string;
  /** Share of the viewport's pixels that differ, 0..1. */
  pixels: number;
}

export interface ReplayComparison {
  pages: ReplayedPage[];
  /** Requests the replay made to the stopped original (none is expected). */
  toOriginal: string[];
  waczBytes: number;
}

const VIEWPORT = { width: 1280, height: 800 };

/** The original's page as a visitor's first screen: loaded, fonts and images in, settled. */
async function shotOfOriginal(browser: Browser, url: string): Promise<Buffer> {
  const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1 });
  try {
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'networkidle', timeout: 30_000 });
    // Fonts in and images decoded, or 5 s (a font that never loads must not stop the run).
    await page.evaluate(
      `Promise.race([new Promise((done) => setTimeout(done, 5000)), Promise.all([document.fonts.ready, ...Array.from(document.images, (i) => i.complete ? null : i.decode().catch(() => null))])])`,
    );
    await page.waitForTimeout(300);
    return await page.screenshot();
  } finally {
    await context.close();
  }
}

/**
 * Copies `startUrl` (render as asked), writes the copy as WACZ, photographs up to `maxPages` of its
 * pages on the original, calls `stop`, then photographs them in ReplayWeb.page and compares.
 */
export async function compareReplay(options: {
  browser: Browser;
  startUrl: string;
  origins: string[];
  stop: () => Promise<void>;
  maxPages: number;
  render?: RenderMode;
}): Promise<ReplayComparison> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mirror-replay-'));
  try {
    const store = createFsBlobStore(path.join(dir, 'blobs'));
    const manifest = await mirror({
      url: options.startUrl,
      store,
      allowPrivateNetworks: true,
      render: options.render ?? 'auto',
    });
    const wacz = path.join(dir, 'copy.wacz');
    await writeVersionArchive({ manifest, store, file: wacz, format: 'wacz', software: 'Mirror' });
    const urls = manifest.entries
      .filter((e) => e.kind === 'page' && e.status === 200 && !e.path.startsWith('/_x/'))
      .map((e) => e.url)
      .slice(0, options.maxPages);
    const originals = new Map<string, Buffer>();
    for (const url of urls) originals.set(url, await shotOfOriginal(options.browser, url));
    await options.stop();

    const replay = await startReplayWebPage({ waczPath: wacz });
    const toOriginal: string[] = [];
    const pages: ReplayedPage[] = [];
    try {
      for (const url of urls) {
        const shot = await screenshotInReplay(options.browser, replay, url, {
          ...VIEWPORT,
          onRequest: (requested) => {
            if (options.origins.some((origin) => requested.startsWith(origin)))
              toOriginal.push(requested);
          },
        });
        const diff = differingPixels(decodePng(originals.get(url)!), decodePng(shot));
        pages.push({ url, pixels: diff.count / (diff.width * diff.height) });
      }
    } finally {
      await replay.close();
    }
    return { pages, toOriginal, waczBytes: fs.statSync(wacz).size };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
