/**
 * A copy exported as WACZ opens in ReplayWeb.page (issue 35): the engine's basic fixture (two
 * origins, stylesheets, web fonts, images, a module script, an iframe) is copied and written as
 * WACZ, and its first three pages (`bench:archives:replay` takes them all) look the same replayed
 * from the WACZ as on the original, which is stopped first and never asked anything.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './browser.js';
import { FIXTURES, serveFixture } from './fixture-server.js';
import { compareReplay } from './replay-compare.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
let browser: Browser | undefined;
beforeAll(async () => {
  if (fs.existsSync(CHROMIUM)) browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('archives: ReplayWeb.page', () => {
  it.skipIf(!fs.existsSync(CHROMIUM))(
    'replays the pages of an exported copy as the original looked, with the original stopped',
    { timeout: 240_000 },
    async () => {
      const cdn = await serveFixture(path.join(FIXTURES, 'cdn'));
      const origin = await serveFixture(path.join(FIXTURES, 'basic'));
      origin.vars.CDN = cdn.origin;
      const result = await compareReplay({
        browser: browser!,
        startUrl: `${origin.origin}/`,
        origins: [origin.origin, cdn.origin],
        stop: async () => {
          await origin.close();
          await cdn.close();
        },
        maxPages: 3,
        render: 'never',
      });
      expect(result.pages.length).toBe(3);
      for (const page of result.pages) expect(page.pixels, page.url).toBeLessThanOrEqual(0.005);
      expect(result.toOriginal).toEqual([]);
    },
  );
});
