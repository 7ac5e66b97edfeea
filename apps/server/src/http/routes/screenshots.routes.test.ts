import { HTTP_FALLBACK_MESSAGES, SCREENSHOT_MESSAGES } from '@mirror/contract';
import { afterEach, describe, expect, it } from 'vitest';
import {
  closeTo,
  jpegSize,
  pixelAt,
  startScreenshotSite,
  type ScreenshotSite,
} from '../../test/screenshot-fixtures.js';
import { createBrowserLauncher } from '../../platform/browser/browser-launcher.js';
import { signUp } from '../../test/api-helpers.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(env: Record<string, string> = {}) {
  const t = await createTestApp(env, { runJobs: false });
  cleanups.push(() => t.close());
  return t;
}

async function site(): Promise<ScreenshotSite> {
  const s = await startScreenshotSite();
  cleanups.push(() => s.close());
  return s;
}

function shoot(t: TestApp, payload: unknown, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: 'POST',
    url: '/api/domains/screenshot',
    payload: payload as Record<string, unknown>,
    headers,
  });
}

describe('POST /api/domains/screenshot', () => {
  it('needs a signed-in user, before looking at the body', async () => {
    const t = await setup({ MIRROR_ALLOW_PRIVATE_NETWORKS: 'true' });
    for (const payload of [{ url: 'https://example.com' }, {}]) {
      const res = await shoot(t, payload);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: HTTP_FALLBACK_MESSAGES[401] });
    }
    expect(t.app.sandbox.started).toBe(0);
  });

  it('refuses URLs that are not http(s) websites', async () => {
    const t = await setup({ MIRROR_ALLOW_PRIVATE_NETWORKS: 'true' });
    const headers = (await signUp(t)).headers;
    for (const url of [
      '',
      '   ',
      'not a url',
      'ftp://example.com/file',
      'javascript:alert(1)',
      42,
    ]) {
      const res = await shoot(t, { url }, headers);
      expect(res.statusCode, String(url)).toBe(400);
      expect(res.json()).toEqual({ message: SCREENSHOT_MESSAGES.urlInvalid });
    }
    expect((await shoot(t, {}, headers)).statusCode).toBe(400);
    expect(t.app.sandbox.started).toBe(0);
  });

  it('refuses loopback, private and metadata addresses without launching Chromium', async () => {
    const t = await setup();
    const headers = (await signUp(t)).headers;
    for (const url of [
      'http://127.0.0.1:8080/',
      'http://localhost/',
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.1/',
      'http://0x7f000001/',
    ]) {
      const res = await shoot(t, { url }, headers);
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toEqual({ message: SCREENSHOT_MESSAGES.refused });
    }
    // IPv6 literals are not website addresses by the hero's rule (SPEC §5): refused as invalid.
    for (const url of ['http://[::1]/', 'http://[::ffff:169.254.169.254]/']) {
      expect((await shoot(t, { url }, headers)).statusCode, url).toBe(400);
    }
    expect(t.app.sandbox.started).toBe(0);
  });

  it('captures a page as a 640 px JPEG, serves it, and answers again from the cache', async () => {
    const t = await setup({ MIRROR_ALLOW_PRIVATE_NETWORKS: 'true' });
    const s = await site();
    const headers = (await signUp(t)).headers;

    const res = await shoot(t, { url: `${s.url}/` }, headers);
    expect(res.statusCode).toBe(200);
    const body = res.json() as { success: boolean; screenshot: string };
    expect(body.success).toBe(true);
    expect(body.screenshot).toMatch(/^\/api\/screenshots\/[a-f0-9]{64}\.jpg$/);
    expect(s.hits.get('/style.css')).toBe(1);

    const image = await t.app.inject({ method: 'GET', url: body.screenshot });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/jpeg');
    expect(image.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(image.headers['x-content-type-options']).toBe('nosniff');
    expect(jpegSize(image.rawPayload)).toEqual({ width: 640, height: 400 });
    // The stylesheet made it into the picture: the page is red.
    const browser = createBrowserLauncher({ chromiumPath: t.config.mirror.chromiumPath });
    cleanups.push(() => browser.close());
    expect(closeTo(await pixelAt(browser, image.rawPayload, 600, 380), [220, 30, 30])).toBe(true);

    const started = t.app.sandbox.started;
    const requests = s.hits.get('/');
    // The same site without the trailing slash: the cached one.
    const again = await shoot(t, { url: s.url }, headers);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(body);
    expect(t.app.sandbox.started).toBe(started);
    expect(s.hits.get('/')).toBe(requests);
  });

  it('shares one capture between concurrent requests for the same URL', async () => {
    const t = await setup({ MIRROR_ALLOW_PRIVATE_NETWORKS: 'true' });
    const s = await site();
    const headers = (await signUp(t)).headers;
    const answers = await Promise.all(
      [1, 2, 3].map(() => shoot(t, { url: `${s.url}/?same=1` }, headers)),
    );
    for (const answer of answers) expect(answer.statusCode).toBe(200);
    expect(new Set(answers.map((a) => a.json().screenshot as string)).size).toBe(1);
    expect(s.hits.get('/?same=1')).toBe(1);
    expect(t.app.sandbox.started).toBe(1);
  });

  it('follows the main page redirect and reports a page that cannot load', async () => {
    const t = await setup({ MIRROR_ALLOW_PRIVATE_NETWORKS: 'true' });
    const s = await site();
    const headers = (await signUp(t)).headers;
    const redirected = await shoot(t, { url: `${s.url}/redirect` }, headers);
    expect(redirected.statusCode).toBe(200);
    expect(s.hits.get('/')).toBe(1);

    const closedPort = s.url.replace(String(s.port), '9');
    const failed = await shoot(t, { url: `${closedPort}/` }, headers);
    expect(failed.statusCode).toBe(502);
    expect(failed.json()).toEqual({ message: SCREENSHOT_MESSAGES.failed });
  });
});

describe('GET /api/screenshots/:file', () => {
  it('serves only screenshots: unknown hashes, other blobs and odd names are 404', async () => {
    const t = await setup();
    const { hash } = await t.app.blobs.put(
      (async function* () {
        yield Buffer.from('a mirrored page, not a screenshot');
      })(),
    );
    for (const file of [
      `${'a'.repeat(64)}.jpg`,
      `${hash}.jpg`,
      `${hash}`,
      `${hash}.png`,
      'x.jpg',
    ]) {
      const res = await t.app.inject({ method: 'GET', url: `/api/screenshots/${file}` });
      expect(res.statusCode, file).toBe(404);
      expect(res.json()).toEqual({ message: SCREENSHOT_MESSAGES.notFoundFile });
    }
  });
});
