/**
 * The visual diff of changed pages on two real origins (a version before and after), in Chromium:
 * an edited price shows, a banner that a script paints at random on every visit does not.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../render/chromium.js';
import { compareRenderedPages, type VisualDiffReport } from './visual-diff.js';

const page = (title: string, main: string) => `<!doctype html><html><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title>
<style>body { font: 18px/1.5 sans-serif; margin: 0; color: #222 } main { padding: 24px }
.price { font-size: 40px; font-weight: bold } #banner { height: 90px; color: white; font-size: 32px; padding: 12px }</style>
</head><body><main><h1>${title}</h1>${main}</main></body></html>`;

/**
 * A banner painted by the page's script on every visit, in a colour and with a number from the
 * browser's own random source (not `Math.random`, which renders seed alike): no two visits match.
 */
const RANDOM_BANNER = `<div id="banner">Offer <span id="n"></span></div><script>
const [r, g, b, n] = crypto.getRandomValues(new Uint32Array(4));
const banner = document.getElementById('banner');
banner.style.background = 'rgb(' + [r % 256, g % 256, b % 256].join(',') + ')';
document.getElementById('n').textContent = String(n);
</script>`;

/** A version of the site: its pages by path. */
async function serve(pages: Record<string, string>) {
  const server = createServer((req, res) => {
    const body = pages[new URL(req.url ?? '/', 'http://x').pathname];
    if (body === undefined) return res.writeHead(404, { 'content-type': 'text/plain' }).end('no');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const pricing = (price: string) =>
  page(
    'Pricing',
    `<p>The Pro plan costs</p><p class="price">${price} a month</p><p>Cancel any time.</p>`,
  );
const news = page('News', `${RANDOM_BANNER}<p>Spring news from the team, as every season.</p>`);

/** Pixels of the heatmap painted as differing (red). */
function redPixels(png: Buffer): number {
  const { data, width, height } = PNG.sync.read(png);
  let red = 0;
  for (let i = 0; i < width * height; i++) {
    if (data[i * 4] === 230 && data[i * 4 + 1] === 30 && data[i * 4 + 2] === 30) red++;
  }
  return red;
}

let browser: Browser;
let report: VisualDiffReport;
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  browser = await launchChromium({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  });
  const before = await serve({ '/pricing': pricing('$9'), '/news': news });
  const after = await serve({ '/pricing': pricing('$12'), '/news': news });
  cleanups.push(before.close, after.close);
  report = await compareRenderedPages({
    before: { url: before.url },
    after: { url: after.url },
    paths: ['/pricing', '/news'],
    browser,
  });
}, 120_000);

afterAll(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
  await browser?.close();
});

describe('the visual diff of changed pages', () => {
  it('lists each page at desktop and phone widths, page by page', () => {
    expect(report.pages.map((p) => `${p.path} ${p.viewport}`)).toEqual([
      '/pricing desktop',
      '/pricing mobile',
      '/news desktop',
      '/news mobile',
    ]);
  });

  it('shows an edited price, with a heatmap of where it changed', () => {
    for (const viewport of ['desktop', 'mobile'] as const) {
      const result = report.pages.find((p) => p.path === '/pricing' && p.viewport === viewport)!;
      expect(result.unmeasured).toBeUndefined();
      expect(result.diffPercent).toBeGreaterThan(0);
      expect(result.noisePercent).toBe(0);
      for (const shot of [result.shots.before, result.shots.after, result.shots.diff])
        expect(PNG.sync.read(shot).width).toBe(320);
      expect(result.shots.before.equals(result.shots.after)).toBe(false);
      expect(redPixels(result.shots.diff)).toBeGreaterThan(0);
    }
  });

  it('reports a page whose only difference is a banner picked at random as unchanged', () => {
    for (const viewport of ['desktop', 'mobile'] as const) {
      const result = report.pages.find((p) => p.path === '/news' && p.viewport === viewport)!;
      expect(result.unmeasured).toBeUndefined();
      // The banner differs between the versions, and between two renders of the new one: noise.
      expect(result.shots.before.equals(result.shots.after)).toBe(false);
      expect(result.noisePercent).toBeGreaterThan(0);
      expect(result.diffPercent).toBe(0);
      expect(redPixels(result.shots.diff)).toBe(0);
    }
  });
});
