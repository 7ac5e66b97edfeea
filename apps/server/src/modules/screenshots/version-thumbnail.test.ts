import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createMemoryBlobStore,
  type BlobStore,
  type Manifest,
  type ManifestEntry,
} from '@mirror/engine';
import { afterEach, describe, expect, it } from 'vitest';
import { createBrowserLauncher } from '../../platform/browser/browser-launcher.js';
import { closeTo, jpegSize, pixelAt } from '../../test/screenshot-fixtures.js';
import { mirrorSite, SERVICE_ENV, signUp } from '../../test/api-helpers.js';
import { startFixtureSite } from '../../test/fixture-site.js';
import { createTestApp, waitFor, type TestApp } from '../../test/test-app.js';
import { createDbRateLimiter } from '../../platform/rate-limit/rate-limiter.js';
import { saveManifest } from '../sites/manifests.js';
import { createScreenshotsService } from './screenshots.service.js';
import { captureVersionThumbnail, findEntry } from './version-thumbnail.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function entry(
  blobs: BlobStore,
  path: string,
  contentType: string,
  body: string,
  extra: Partial<ManifestEntry> = {},
): Promise<ManifestEntry> {
  const { hash, size } = await blobs.put(
    (async function* () {
      yield Buffer.from(body);
    })(),
  );
  return {
    path,
    url: `https://shop.example.com${path}`,
    kind: contentType.startsWith('text/html') ? 'page' : 'asset',
    status: 200,
    contentType,
    hash,
    size,
    headers: {},
    ...extra,
  };
}

/** A copy whose entry page is green only if its stylesheet is served from the copy. */
async function greenCopy(blobs: BlobStore, outsideUrl: string): Promise<Manifest> {
  const entries = [
    await entry(
      blobs,
      '/home',
      'text/html; charset=utf-8',
      `<!doctype html><html><head><link rel="stylesheet" href="/_x/cdn.example.com/site.css">` +
        `</head><body><h1>Copy</h1><img src="/missing.png"><img src="${outsideUrl}/pixel.png">` +
        `<script>fetch(${JSON.stringify(`${outsideUrl}/beacon`)}).catch(() => {});</script></body></html>`,
    ),
    await entry(
      blobs,
      '/_x/cdn.example.com/site.css',
      'text/css',
      'html, body { background: rgb(20, 160, 60); margin: 0; }',
    ),
    await entry(blobs, '/', 'text/html', '', { status: 301, headers: { location: '/home' } }),
  ];
  return {
    version: 1,
    startUrl: 'https://shop.example.com/',
    entryPath: '/home',
    createdAt: new Date().toISOString(),
    entries,
    failures: [],
    notes: [],
    stats: {
      pages: 1,
      assets: 1,
      bytes: 0,
      requests: 3,
      notModified: 0,
      rendered: 0,
      durationMs: 1,
    },
  };
}

/** Stands for the internet: the thumbnail must never reach it. */
async function startOutside() {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? '/');
    res.writeHead(200).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

describe('captureVersionThumbnail', () => {
  it('draws the copy from its blobs alone, without any network', async () => {
    const outside = await startOutside();
    const blobs = createMemoryBlobStore();
    const manifest = await greenCopy(blobs, outside.url);
    const browser = createBrowserLauncher({ chromiumPath: '/usr/bin/chromium' });
    cleanups.push(() => browser.close());

    const image = await captureVersionThumbnail(manifest, blobs, { browser });
    expect(jpegSize(image)).toEqual({ width: 640, height: 400 });
    expect(closeTo(await pixelAt(browser, image, 600, 380), [20, 160, 60])).toBe(true);
    expect(outside.requests).toEqual([]);
  });

  it('is stored and served by the screenshots API', async () => {
    const t = await createTestApp({}, { runJobs: false });
    cleanups.push(() => t.close());
    const manifest = await greenCopy(t.app.blobs, 'http://127.0.0.1:9');
    const service = createScreenshotsService({
      db: t.app.database.db,
      blobs: t.app.blobs,
      sandbox: t.app.sandbox,
      limiter: createDbRateLimiter(t.app.database.db),
      config: t.config,
      log: t.app.log,
    });
    const stored = await service.versionThumbnail(
      'version-1',
      await saveManifest(t.app.blobs, manifest),
    );
    const res = await t.app.inject({ method: 'GET', url: stored.path });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(jpegSize(res.rawPayload)).toEqual({ width: 640, height: 400 });
  });
});

describe('thumbnails of completed versions', () => {
  it('are made after a mirror completes and shown on the clone record and its versions', async () => {
    const site = await startFixtureSite();
    cleanups.push(() => site.close());
    const t = await createTestApp({ ...SERVICE_ENV, VERSION_THUMBNAILS: 'true' });
    cleanups.push(() => t.close());
    const owner = await signUp(t);
    const { id, readings } = await mirrorSite(t, site.url, owner.headers);
    expect(readings.at(-1)!.status).toBe('completed');

    const thumbnailUrl = await waitFor(async () => {
      const list = await t.app.inject({ url: '/api/domains/clones', headers: owner.headers });
      return (list.json() as { thumbnailUrl: string | null }[])[0]!.thumbnailUrl ?? undefined;
    }, 30_000);
    expect(thumbnailUrl).toMatch(/^\/api\/screenshots\/[0-9a-f]{64}\.jpg$/);
    const image = await t.app.inject({ url: thumbnailUrl });
    expect(image.statusCode).toBe(200);
    expect(jpegSize(image.rawPayload)).toEqual({ width: 640, height: 400 });
    const versions = await t.app.inject({
      url: `/api/domains/clone/${id}/versions`,
      headers: owner.headers,
    });
    expect(versions.json()[0]).toMatchObject({ isLive: true, thumbnailUrl, previewUrl: null });
  });
});

describe('thumbnails of checked versions', () => {
  const CHECKED = {
    ...SERVICE_ENV,
    VERSION_THUMBNAILS: 'true',
    FIDELITY_CHECKS: 'true',
    FIDELITY_MAX_PAGES: '1',
  };

  /** The fidelity report of the site's live version, once it ended. */
  async function endedCheck(t: TestApp, id: string, headers: Record<string, string>) {
    return waitFor(async () => {
      const res = await t.app.inject({ url: `/api/domains/clone/${id}/fidelity`, headers });
      const body = res.json() as { state: string; versionId: string };
      return res.statusCode === 200 && ['completed', 'failed'].includes(body.state)
        ? body
        : undefined;
    }, 120_000);
  }

  /** The thumbnail jobs the embedded queue holds (done, failed or waiting) for a version. */
  async function thumbnailJobs(t: TestApp, versionId: string) {
    const rows = await t.app.database.db
      .selectFrom('jobs')
      .select(['payload', 'status'])
      .where('name', '=', 'thumbnail-version')
      .execute();
    return rows.filter((row) => JSON.parse(row.payload).versionId === versionId);
  }

  // A mirror and its check (one page at two widths): 9 s alone, over 20 s beside another
  // Chromium file in the serial phase.
  const CHECK_TIMEOUT = { timeout: 180_000 };

  it(
    "are taken in the fidelity check's Chromium: one launch per mirror, no thumbnail job",
    CHECK_TIMEOUT,
    async () => {
      const site = await startFixtureSite();
      cleanups.push(() => site.close());
      const t = await createTestApp(CHECKED);
      cleanups.push(() => t.close());
      const owner = await signUp(t);
      const { id } = await mirrorSite(t, site.url, owner.headers);
      const check = await endedCheck(t, id, owner.headers);
      expect(check.state).toBe('completed');

      // Stored before the report says "completed", by the check itself.
      const list = await t.app.inject({ url: '/api/domains/clones', headers: owner.headers });
      const thumbnailUrl = (list.json() as { thumbnailUrl: string | null }[])[0]!.thumbnailUrl;
      expect(thumbnailUrl).toMatch(/^\/api\/screenshots\/[0-9a-f]{64}\.jpg$/);
      const image = await t.app.inject({ url: thumbnailUrl! });
      expect(image.statusCode).toBe(200);
      expect(jpegSize(image.rawPayload)).toEqual({ width: 640, height: 400 });
      expect(await thumbnailJobs(t, check.versionId)).toEqual([]);
      // Its bytes count against the owner's storage, like the thumbnail job's.
      const versions = await t.app.inject({
        url: `/api/domains/clone/${id}/versions`,
        headers: owner.headers,
      });
      expect(versions.json()[0]).toMatchObject({ isLive: true, thumbnailUrl });
    },
  );

  it('are left to their own job when the check fails', CHECK_TIMEOUT, async () => {
    const site = await startFixtureSite();
    cleanups.push(() => site.close());
    // No Chromium where the check looks (mirror runs do not render here: MIRROR_RENDER=never).
    const t = await createTestApp({ ...CHECKED, CHROMIUM_PATH: '/nonexistent/chromium' });
    cleanups.push(() => t.close());
    const owner = await signUp(t);
    const { id } = await mirrorSite(t, site.url, owner.headers);
    const check = await endedCheck(t, id, owner.headers);
    expect(check.state).toBe('failed');
    expect(await thumbnailJobs(t, check.versionId)).toHaveLength(1);
  });
});

describe('findEntry', () => {
  it('finds paths as the sites host does: exact, without query, index and .html', () => {
    const byPath = new Map(
      ['/', '/a?x=1', '/docs/', '/about.html', '/blog/index.html'].map((path) => [
        path,
        { path } as ManifestEntry,
      ]),
    );
    const found = (p: string) => findEntry(byPath, p)?.path;
    expect(found('/a?x=1')).toBe('/a?x=1');
    expect(found('/about?utm=1')).toBe('/about.html');
    expect(found('/docs')).toBe('/docs/');
    expect(found('/blog/')).toBe('/blog/index.html');
    expect(found('/nothing')).toBeUndefined();
  });
});
