import { SCREENSHOT_MESSAGES } from '@mirror/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../errors.js';
import { createBrowserLauncher } from '../../platform/browser/browser-launcher.js';
import { createDbRateLimiter } from '../../platform/rate-limit/rate-limiter.js';
import {
  closeTo,
  jpegSize,
  pixelAt,
  startInternalServer,
  startScreenshotSite,
} from '../../test/screenshot-fixtures.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { createScreenshotsService, SCREENSHOT_RATE_LIMIT } from './screenshots.service.js';
import { CAPTURE_DEFAULTS } from './capture-url.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/**
 * The service as production builds it (private networks refused), except for the engine's test
 * seam: `public.test` resolves to the fixture on 127.0.0.1, the one address exempt from the
 * policy. Everything else on loopback (127.0.0.2) and the metadata address stay refused.
 */
async function setup(options: { timeoutMs?: number; rateLimitFactor?: string } = {}) {
  const t: TestApp = await createTestApp(
    options.rateLimitFactor ? { RATE_LIMIT_FACTOR: options.rateLimitFactor } : {},
    { runJobs: false },
  );
  cleanups.push(() => t.close());
  expect(t.config.mirror.allowPrivateNetworks).toBe(false);
  // Only for reading pixels of the pictures: the service runs its own, in the sandbox.
  const browser = createBrowserLauncher({ chromiumPath: t.config.mirror.chromiumPath });
  cleanups.push(() => browser.close());
  const serviceWithin = (timeoutMs?: number) =>
    createScreenshotsService({
      db: t.app.database.db,
      blobs: t.app.blobs,
      sandbox: t.app.sandbox,
      limiter: createDbRateLimiter(t.app.database.db, t.config.rateLimitFactor),
      config: t.config,
      log: t.app.log,
      net: {
        hosts: { 'public.test': [['127.0.0.1']], 'intranet.example.com': [['10.9.9.9']] },
        allowAddresses: ['127.0.0.1'],
      },
      ...(timeoutMs ? { timeoutMs } : {}),
    });
  const service = serviceWithin(options.timeoutMs);
  const user = await t.app.database.db
    .insertInto('users')
    .values({
      id: crypto.randomUUID(),
      name: 'Shot Taker',
      email: `u${Math.random().toString(36).slice(2)}@example.com`,
      password_hash: 'x',
      role: 'user',
      plan: 'free',
      locale: null,
      created_at: new Date().toISOString(),
      updated_at: new Date().toISOString(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { t, browser, service, serviceWithin, user };
}

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

// Each test starts the sandbox and Chromium, some several times: on a loaded 2-core CI machine
// one capture took 5 to 15 s, and these tests hit the suite's 20 s.
describe('screenshots service', { timeout: 60_000 }, () => {
  it('never lets the page reach a refused address, whatever it tries', async () => {
    const internal = await startInternalServer('127.0.0.2');
    cleanups.push(() => internal.close());
    const site = await startScreenshotSite(internal.url);
    cleanups.push(() => site.close());
    const { service, browser, user, t } = await setup();

    const shot = await service.screenshot(user, `http://public.test:${site.port}/leaky`);
    expect(site.hits.get('/leaky')).toBe(1);
    // The redirect to the internal server was fetched, its target refused.
    expect(site.hits.get('/to-internal')).toBe(1);
    expect(internal.requests).toEqual([]);

    const image = await t.app.inject({ method: 'GET', url: shot.path });
    expect(jpegSize(image.rawPayload)).toEqual({ width: 640, height: 400 });
    expect(closeTo(await pixelAt(browser, image.rawPayload, 620, 390), [30, 30, 220])).toBe(true);
  });

  it('refuses a host that resolves to a private address before launching', async () => {
    const { service, user, t } = await setup();
    const error = await failure(service.screenshot(user, 'http://intranet.example.com/'));
    expect(error.status).toBe(400);
    expect(error.message).toBe(SCREENSHOT_MESSAGES.refused);
    expect(t.app.sandbox.started).toBe(0);
  });

  it('says a site that cannot be reached got no screenshot, without asking to check an address', async () => {
    const { service, user, t } = await setup();
    // `.invalid` never resolves (RFC 6761): the reference's host is gone.
    const error = await failure(service.screenshot(user, 'https://reference.invalid/'));
    expect(error.status).toBe(400);
    expect(error.message).toBe(SCREENSHOT_MESSAGES.notFound);
    expect(error.message).toMatch(/no screenshot/);
    expect(error.message).not.toMatch(/check the address/i);
    expect(t.app.sandbox.started).toBe(0);
  });

  it('refuses a page that redirects to a private address', async () => {
    const internal = await startInternalServer('127.0.0.2');
    cleanups.push(() => internal.close());
    const site = await startScreenshotSite(internal.url);
    cleanups.push(() => site.close());
    const { service, user } = await setup();
    const error = await failure(
      service.screenshot(user, `http://public.test:${site.port}/to-internal`),
    );
    expect(error.status).toBe(400);
    expect(error.message).toBe(SCREENSHOT_MESSAGES.refused);
    expect(internal.requests).toEqual([]);
  });

  it('gives up after its time limit with a 504', async () => {
    const site = await startScreenshotSite();
    cleanups.push(() => site.close());
    const { service, serviceWithin, user, t } = await setup({ timeoutMs: 2_500 });
    const error = await failure(service.screenshot(user, `http://public.test:${site.port}/slow`));
    const gaveUp = Date.now();
    expect(error.status).toBe(504);
    expect(error.message).toBe(SCREENSHOT_MESSAGES.timedOut);
    // What the limit governs is the wait for the page: the usual limit (15 s) would hold on to a
    // page that never answers; this one lets go within its 2.5 s of Chromium asking for it, plus
    // closing Chromium on a loaded machine. The time before that (starting the sandbox's process
    // and Chromium) is not the limit's, and took up to 16 s on a loaded 2-core CI machine; when it
    // outlasts the limit, Chromium never asks for the page, and the sandbox's own clock (limit
    // plus its grace for start-up) ends the capture with the same 504.
    const asked = site.firstAsked.get('/slow');
    if (asked !== undefined)
      expect(gaveUp - asked).toBeLessThan(CAPTURE_DEFAULTS.timeoutMs - 5_000);
    // Its process is gone: the next capture starts at once. It runs with the usual limit, which a
    // cold Chromium on a loaded machine may need more than the 2.5 s above.
    await expect.poll(() => t.app.sandbox.active).toBe(0);
    const ok = await serviceWithin().screenshot(user, `http://public.test:${site.port}/`);
    expect(ok.path).toMatch(/\.jpg$/);
  });

  it('limits captures per user, not cache hits', async () => {
    const site = await startScreenshotSite();
    cleanups.push(() => site.close());
    const { service, user } = await setup({ rateLimitFactor: '0.1' });
    const allowed = Math.round(SCREENSHOT_RATE_LIMIT.limit * 0.1);
    for (let i = 0; i < allowed; i++) {
      await service.screenshot(user, `http://public.test:${site.port}/?n=${i}`);
    }
    // Cached: free.
    await service.screenshot(user, `http://public.test:${site.port}/?n=0`);
    const error = await failure(
      service.screenshot(user, `http://public.test:${site.port}/?n=${allowed}`),
    );
    expect(error.status).toBe(429);
    expect(error.message).toBe(SCREENSHOT_MESSAGES.rateLimited);
  });
});
