import type { ReferenceWebsite, ScreenshotStatusResponse } from '@mirror/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { signUp } from '../../test/api-helpers.js';
import { jpegSize, startScreenshotSite } from '../../test/screenshot-fixtures.js';
import { braveResult, startSearchApiServer } from '../../test/search-api-server.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { createDbRateLimiter } from '../../platform/rate-limit/rate-limiter.js';
import { createScreenshotsService } from '../screenshots/screenshots.service.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/**
 * The most sandboxed captures running at once while `work` runs, counted from start to answer
 * (`sandbox.active` also counts a process that has answered and is closing its Chromium).
 */
async function peakRuns<T>(t: TestApp, work: () => Promise<T>): Promise<[T, number]> {
  const sandbox = t.app.sandbox;
  const run = sandbox.run.bind(sandbox);
  let running = 0;
  let peak = 0;
  const durations: number[] = [];
  sandbox.run = (async (...args: Parameters<typeof run>) => {
    peak = Math.max(peak, ++running);
    const started = Date.now();
    try {
      return await run(...args);
    } finally {
      running--;
      durations.push(Date.now() - started);
    }
  }) as typeof sandbox.run;
  try {
    return [await work(), peak];
  } finally {
    sandbox.run = run;
    if (process.env.SCREENSHOT_TIMINGS) {
      process.stdout.write(`sandboxed captures took (ms): ${durations.join(', ')}\n`);
    }
  }
}

async function status(
  t: TestApp,
  url: string,
  headers: Record<string, string>,
): Promise<ScreenshotStatusResponse> {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/domains/screenshot?url=${encodeURIComponent(url)}`,
    headers,
  });
  expect(res.statusCode).toBe(200);
  expect(res.headers['cache-control']).toBe('no-store');
  return res.json();
}

describe('reference screenshots of an idea search', () => {
  it('captures the references in the background, bounded, then answers them at once', async () => {
    // Three sites on three hosts (the search keeps one result per host): one allows framing,
    // one sends X-Frame-Options: DENY, one CSP frame-ancestors 'none'.
    const sites = await Promise.all(
      ['127.0.0.1', '127.0.0.2', '127.0.0.3'].map((host) => startScreenshotSite(undefined, host)),
    );
    for (const site of sites) cleanups.push(() => site.close());
    const urls = [`${sites[0]!.url}/`, `${sites[1]!.url}/deny`, `${sites[2]!.url}/ancestors`];
    const api = await startSearchApiServer([
      { results: urls.map((url, i) => braveResult(`Site ${i}`, url)) },
    ]);
    cleanups.push(api.close);
    const t = await createTestApp({
      SEARCH_API_KEY: api.apiKey,
      SEARCH_API_URL: api.url,
      MIRROR_ALLOW_PRIVATE_NETWORKS: 'true',
      REFERENCE_SCREENSHOTS: 'true',
    });
    cleanups.push(() => t.close());
    const { headers } = await signUp(t);
    const search = async () => {
      // No catalogue site matches this idea: the references are the three local sites.
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/domains/search-by-idea',
        payload: { idea: 'zzqxv', limit: 5 },
        headers,
      });
      expect(res.statusCode).toBe(200);
      return res.json() as ReferenceWebsite[];
    };

    const started = Date.now();
    const [ready, peak] = await peakRuns(t, async () => {
      const first = await search();
      expect(first.map((r) => r.url)).toEqual(urls);
      for (const r of first) {
        expect(r).toMatchObject({ screenshot: null, screenshotUrl: null, frameable: false });
      }
      // The cards poll until each picture is there.
      const done = new Map<string, { answer: ScreenshotStatusResponse; ms: number }>();
      await expect
        .poll(
          async () => {
            for (const url of urls) {
              if (done.has(url)) continue;
              const answer = await status(t, url, headers);
              expect(answer.status).not.toBe('failed');
              if (answer.status === 'ready') done.set(url, { answer, ms: Date.now() - started });
            }
            return done.size;
          },
          { timeout: 60_000, interval: 250 },
        )
        .toBe(urls.length);
      return done;
    });
    if (process.env.SCREENSHOT_TIMINGS) {
      const times = urls.map((url) => ready.get(url)!.ms);
      process.stdout.write(`reference captures on screen after (ms): ${times.join(', ')}\n`);
    }
    // One capture per reference, at most two at once, none for the user's rate limit.
    expect(t.app.sandbox.started).toBe(3);
    expect(peak).toBeLessThanOrEqual(2);
    const limited = await t.app.database.db
      .selectFrom('rate_limits')
      .select('key')
      .where('key', 'like', 'screenshot:%')
      .execute();
    expect(limited).toEqual([]);
    expect(ready.get(urls[0]!)!.answer.frameable).toBe(true);
    expect(ready.get(urls[1]!)!.answer.frameable).toBe(false);
    expect(ready.get(urls[2]!)!.answer.frameable).toBe(false);

    // The next search answers the pictures at once, and captures nothing.
    const second = await search();
    expect(second.map((r) => [r.screenshotUrl, r.frameable])).toEqual(
      urls.map((url, i) => [ready.get(url)!.answer.screenshot, i === 0]),
    );
    for (const r of second) expect(r.screenshot).toBe(r.screenshotUrl);
    const image = await t.app.inject({ method: 'GET', url: second[0]!.screenshotUrl! });
    expect(image.statusCode).toBe(200);
    expect(jpegSize(image.rawPayload)).toEqual({ width: 640, height: 400 });
    expect(t.app.sandbox.started).toBe(3);

    // A stale picture is answered at once and refreshed in the background.
    const key = new URL(urls[0]!).href;
    await t.app.database.db
      .updateTable('screenshots')
      .set({ expires_at: new Date(Date.now() - 1_000).toISOString() })
      .where('url', '=', key)
      .execute();
    const third = await search();
    expect(third[0]!.screenshotUrl).toBe(second[0]!.screenshotUrl);
    expect(third[0]!.frameable).toBe(true);
    await expect
      .poll(
        async () => {
          const row = await t.app.database.db
            .selectFrom('screenshots')
            .select('expires_at')
            .where('url', '=', key)
            .executeTakeFirstOrThrow();
          return new Date(row.expires_at).getTime() > Date.now();
        },
        { timeout: 30_000, interval: 250 },
      )
      .toBe(true);
    expect(t.app.sandbox.started).toBe(4);
  }, 120_000);
});

describe('reference captures', () => {
  it('start at most perSearch per search, one at a time, and report failures', async () => {
    const site = await startScreenshotSite();
    cleanups.push(() => site.close());
    const t = await createTestApp({}, { runJobs: false });
    cleanups.push(() => t.close());
    const service = createScreenshotsService({
      db: t.app.database.db,
      blobs: t.app.blobs,
      sandbox: t.app.sandbox,
      limiter: createDbRateLimiter(t.app.database.db, t.config.rateLimitFactor),
      config: t.config,
      log: t.app.log,
      net: { hosts: { 'public.test': [['127.0.0.1']] }, allowAddresses: ['127.0.0.1'] },
      referenceCaptures: { perSearch: 2, slots: 1 },
    });
    // Four references, and one on a private address (refused before any Chromium runs).
    const urls = [1, 2, 3, 4].map((n) => `http://public.test:${site.port}/?n=${n}`);
    const refused = 'http://127.0.0.2:9/';
    const [, peak] = await peakRuns(t, async () => {
      const previews = await service.referencePreviews([refused, ...urls], { capture: true });
      expect([...previews.values()]).toEqual(
        Array.from({ length: 5 }, () => ({ screenshotUrl: null, frameable: false })),
      );
      await expect
        .poll(async () => (await service.status(urls[0]!)).status, { timeout: 60_000 })
        .toBe('ready');
      // The refused one used up one of the two captures of this search.
      expect((await service.status(refused)).status).toBe('failed');
      expect((await service.status(urls[1]!)).status).toBe('pending');
    });
    expect(t.app.sandbox.started).toBe(1);
    expect(peak).toBeLessThanOrEqual(1);
    // A failed site is not tried again soon; the others are, on the next search.
    const again = await service.referencePreviews([refused, ...urls], { capture: true });
    expect(again.get(urls[0]!)!.screenshotUrl).toMatch(/^\/api\/screenshots\/[a-f0-9]{64}\.jpg$/);
    await expect
      .poll(async () => (await service.status(urls[2]!)).status, { timeout: 60_000 })
      .toBe('ready');
    expect((await service.status(refused)).status).toBe('failed');
    expect(t.app.sandbox.started).toBe(3);
  }, 120_000);
});

describe('GET /api/domains/screenshot', () => {
  it('answers a status from the cache alone, and is in the OpenAPI document', async () => {
    const t = await createTestApp();
    cleanups.push(() => t.close());
    const anonymous = await t.app.inject({
      method: 'GET',
      url: '/api/domains/screenshot?url=example.com',
    });
    expect(anonymous.statusCode).toBe(401);
    const { headers } = await signUp(t);
    expect(await status(t, 'example.com', headers)).toEqual({
      status: 'pending',
      screenshot: null,
      frameable: false,
    });
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/domains/screenshot?url=ftp%3A%2F%2Fexample.com',
      headers,
    });
    expect(bad.statusCode).toBe(400);
    expect(t.app.sandbox.started).toBe(0);

    type Schema = {
      properties: Record<string, { type?: string; enum?: string[] }>;
      required?: string[];
      items: Schema;
    };
    type Operation = {
      parameters: { name: string; in: string }[];
      responses: Record<string, { content: Record<string, { schema: Schema }> }>;
    };
    const doc = (await t.app.inject({ url: '/api/docs/json' })).json() as {
      paths: Record<string, Record<string, Operation>>;
    };
    const get = doc.paths['/api/domains/screenshot']!.get!;
    expect(get.parameters.map((p) => [p.in, p.name])).toEqual([['query', 'url']]);
    const answer = get.responses['200']!.content['application/json']!.schema;
    expect(Object.keys(answer.properties).sort()).toEqual(['frameable', 'screenshot', 'status']);
    expect(answer.properties.status!.enum).toEqual(['ready', 'pending', 'failed']);
    const search = doc.paths['/api/domains/search-by-idea']!.post!;
    const item = search.responses['200']!.content['application/json']!.schema.items;
    expect(item.required).toEqual(expect.arrayContaining(['screenshotUrl', 'frameable']));
    expect(item.properties.frameable!.type).toBe('boolean');
  });
});
