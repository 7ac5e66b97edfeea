import { chromium, type Browser, type Page } from 'playwright-core';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import { CHROMIUM_ARGS } from '../src/render/index.js';

// The render tier's flags, plus hinting off so screenshots of the original and the copy match.
const ARGS = [...CHROMIUM_ARGS, '--font-render-hinting=none'];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ARGS,
  });
}

export interface PageVisit {
  screenshot: Buffer;
  failed: string[];
  foreign: string[];
  title: string;
}

/** Loads a page and reports failed requests and requests to any origin but the allowed ones. */
export async function visit(
  browser: Browser,
  url: string,
  allowedOrigins: string[],
): Promise<PageVisit> {
  const context = await browser.newContext({
    viewport: { width: 1024, height: 900 },
    reducedMotion: 'reduce',
  });
  const page: Page = await context.newPage();
  const failed: string[] = [];
  const foreign: string[] = [];
  page.on('requestfailed', (r) =>
    failed.push(`${r.url()} (${r.failure()?.errorText ?? 'failed'})`),
  );
  page.on('response', (r) => {
    if (r.status() >= 400) failed.push(`${r.url()} (HTTP ${r.status()})`);
  });
  page.on('request', (r) => {
    const u = r.url();
    if (
      !u.startsWith('data:') &&
      !u.startsWith('blob:') &&
      !allowedOrigins.includes(new URL(u).origin)
    )
      foreign.push(u);
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  await page.evaluate('document.fonts.ready');
  const screenshot = await page.screenshot({ fullPage: true });
  const title = await page.title();
  await context.close();
  return { screenshot, failed, foreign, title };
}

/** Share of pixels that differ (0..1); images of different sizes differ entirely in the extra area. */
export function pixelDifference(a: Buffer, b: Buffer): number {
  const imgA = PNG.sync.read(a);
  const imgB = PNG.sync.read(b);
  const width = Math.max(imgA.width, imgB.width);
  const height = Math.max(imgA.height, imgB.height);
  const pad = (img: PNG) => {
    if (img.width === width && img.height === height) return img.data;
    const out = new PNG({ width, height });
    out.data.fill(0);
    PNG.bitblt(img, out, 0, 0, img.width, img.height, 0, 0);
    return out.data;
  };
  const diff = pixelmatch(pad(imgA), pad(imgB), undefined, width, height, { threshold: 0.1 });
  return diff / (width * height);
}
