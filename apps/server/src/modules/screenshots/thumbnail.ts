import type { Page } from 'playwright-core';
import type { PageOptions } from '../../platform/browser/browser-launcher.js';

/**
 * One look for every thumbnail: the first screen of a 1280×800 desktop layout, drawn at half
 * scale (640×400) as a JPEG. Playwright writes PNG or JPEG only; JPEG keeps photos small.
 */
export const THUMBNAIL = {
  viewport: { width: 1280, height: 800 },
  deviceScaleFactor: 0.5,
  width: 640,
  height: 400,
  quality: 70,
  contentType: 'image/jpeg',
  extension: 'jpg',
} as const;

export const THUMBNAIL_PAGE: Pick<PageOptions, 'viewport' | 'deviceScaleFactor'> = {
  viewport: THUMBNAIL.viewport,
  deviceScaleFactor: THUMBNAIL.deviceScaleFactor,
};

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}

/**
 * Waits until no request has been in flight for `quietMs` (or `maxMs` passed), so late images and
 * web fonts make it into the picture. Call before navigating: it counts from the first request.
 */
export function trackNetworkIdle(page: Page): (quietMs: number, maxMs: number) => Promise<void> {
  let inFlight = 0;
  let lastActivity = Date.now();
  page.on('request', () => {
    inFlight++;
    lastActivity = Date.now();
  });
  const settled = () => {
    inFlight = Math.max(0, inFlight - 1);
    lastActivity = Date.now();
  };
  page.on('requestfinished', settled);
  page.on('requestfailed', settled);
  return async (quietMs, maxMs) => {
    const until = Date.now() + maxMs;
    while (Date.now() < until) {
      if (inFlight === 0 && Date.now() - lastActivity >= quietMs) return;
      await sleep(Math.min(50, until - Date.now()));
    }
  };
}

/** The visible screen as a JPEG thumbnail; fonts are waited for briefly, animations stopped. */
export async function takeThumbnail(page: Page, timeoutMs: number): Promise<Buffer> {
  await page
    .evaluate('Promise.race([document.fonts.ready, new Promise((r) => setTimeout(r, 1000))])')
    .catch(() => undefined);
  return page.screenshot({
    type: 'jpeg',
    quality: THUMBNAIL.quality,
    animations: 'disabled',
    caret: 'hide',
    timeout: Math.max(1_000, timeoutMs),
  });
}
