import { afterEach, describe, expect, it } from 'vitest';
import { startScreenshotSite } from '../../test/screenshot-fixtures.js';
import { BrowserClosedError, createBrowserLauncher } from './browser-launcher.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const viewport = { width: 400, height: 300 };

function launcher(maxPages = 1) {
  const browser = createBrowserLauncher({ chromiumPath: '/usr/bin/chromium', maxPages });
  cleanups.push(() => browser.close());
  return browser;
}

describe('browser launcher', () => {
  it('launches once, on first use, and runs at most maxPages pages at once', async () => {
    const browser = launcher(1);
    expect(browser.stats().launches).toBe(0);
    const order: string[] = [];
    let releaseFirst!: () => void;
    const first = browser.withPage({ viewport }, async () => {
      order.push('first start');
      await new Promise<void>((resolve) => (releaseFirst = resolve));
      order.push('first end');
    });
    await expect.poll(() => order.length, { timeout: 10_000 }).toBe(1);
    const second = browser.withPage({ viewport }, async (page) => {
      order.push('second start');
      return page.evaluate('1 + 1');
    });
    await expect.poll(() => browser.stats().waiting, { timeout: 10_000 }).toBe(1);
    releaseFirst();
    await first;
    expect(await second).toBe(2);
    expect(order).toEqual(['first start', 'first end', 'second start']);
    expect(browser.stats()).toMatchObject({ launches: 1, pages: 2, active: 0, waiting: 0 });
  });

  it('gives up a place in line when aborted', async () => {
    const browser = launcher(1);
    let releaseFirst: (() => void) | undefined;
    const first = browser.withPage(
      { viewport },
      () => new Promise<void>((resolve) => (releaseFirst = resolve)),
    );
    await expect.poll(() => releaseFirst, { timeout: 10_000 }).toBeDefined();
    const controller = new AbortController();
    const waiting = browser.withPage({ viewport, signal: controller.signal }, async () => 'ran');
    await expect.poll(() => browser.stats().waiting, { timeout: 10_000 }).toBe(1);
    controller.abort(new Error('gave up'));
    await expect(waiting).rejects.toThrow('gave up');
    expect(browser.stats().waiting).toBe(0);
    releaseFirst!();
    await first;
    expect(browser.stats().active).toBe(0);
  });

  it('keeps Chromium off the network: a request nobody serves fails', async () => {
    const site = await startScreenshotSite();
    cleanups.push(() => site.close());
    const browser = launcher();
    const error = await browser
      .withPage({ viewport }, (page) => page.goto(`${site.url}/`, { timeout: 5_000 }))
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect((error as Error).message).toMatch(/ERR_PROXY_CONNECTION_FAILED/);
    expect(site.hits.size).toBe(0);
  });

  it('hands its one Chromium to a caller that opens contexts of its own, and closes it', async () => {
    const browser = launcher();
    const chromium = await browser.browser();
    expect(await browser.browser()).toBe(chromium);
    const own = await chromium.newContext();
    await browser.withPage({ viewport }, async (page) => {
      expect(page.context().browser()).toBe(chromium);
    });
    await own.close();
    expect(browser.stats()).toMatchObject({ launches: 1, pages: 1 });
    await browser.close();
    expect(chromium.isConnected()).toBe(false);
    await expect(browser.browser()).rejects.toBeInstanceOf(BrowserClosedError);
  });

  it('refuses work once closed', async () => {
    const browser = launcher();
    await browser.withPage({ viewport }, async () => undefined);
    await browser.close();
    await expect(browser.withPage({ viewport }, async () => undefined)).rejects.toBeInstanceOf(
      BrowserClosedError,
    );
  });
});
