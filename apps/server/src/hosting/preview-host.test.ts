import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureSite, type FixtureSite } from '../test/fixture-site.js';
import { fromSite, mirrorSite, pollToEnd, SERVICE_ENV, signUp } from '../test/api-helpers.js';
import { createTestApp, type TestApp } from '../test/test-app.js';

/**
 * A draft (and any version not live) is shown on its own preview host, `v-<version id>.<sites>`,
 * guarded only by that unguessable name (issue 30, item 3): the owner's review screen frames it,
 * and whoever has the address sees the draft. So the address must not leave the browser in a
 * Referer and must not be indexed, and discarding the draft takes the address away.
 */

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

type Headers = Record<string, string | string[] | number | undefined>;

describe('preview hosts of drafts', () => {
  let fixture: FixtureSite;
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signUp>>;
  let siteId: string;
  let liveUrl: string;
  let draft: { id: string; previewUrl: string };

  beforeAll(async () => {
    fixture = await startFixtureSite();
    cleanups.push(() => fixture.close());
    t = await createTestApp({ ...SERVICE_ENV });
    cleanups.push(() => t.close());
    owner = await signUp(t);
    const mirrored = await mirrorSite(t, fixture.url, owner.headers);
    expect(mirrored.readings.at(-1)!.status).toBe('completed');
    siteId = mirrored.id;
    liveUrl = mirrored.previewUrl;
    const customized = await t.app.inject({
      method: 'PUT',
      url: `/api/domains/clone/${siteId}/customize`,
      headers: owner.headers,
      payload: { customizations: { instructions: "Replace 'Version' with 'Edition'" } },
    });
    expect(customized.statusCode, customized.body).toBe(202);
    expect((await pollToEnd(t, siteId, owner.headers)).at(-1)!.currentStatus).toBe(
      'draft ready for review',
    );
    const versions = (
      await t.app.inject({ url: `/api/domains/clone/${siteId}/versions`, headers: owner.headers })
    ).json() as { id: string; draft: boolean; previewUrl: string | null }[];
    const found = versions.find((v) => v.draft);
    expect(found?.previewUrl).toMatch(/^http:\/\/v-[0-9a-f]{32}\./);
    draft = { id: found!.id, previewUrl: found!.previewUrl! };
  }, 120_000);

  function expectPreviewRules(label: string, headers: Headers) {
    expect(headers['referrer-policy'], label).toBe('no-referrer');
    expect(headers['x-robots-tag'], label).toBe('noindex');
  }

  it('sends no-referrer and noindex on every answer of a preview host, anonymously', async () => {
    const host = new URL(draft.previewUrl).host;
    const page = await fromSite(t, draft.previewUrl);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Edition 1 /');
    const etag = page.headers.etag as string;
    const answers: [string, number, Headers][] = [
      ['the draft page', page.statusCode, page.headers],
      ['a page by HEAD', ...(await inject('HEAD', '/'))],
      ['a style sheet', ...(await inject('GET', '/style.css'))],
      ['a missing page', ...(await inject('GET', '/missing.html'))],
      ['a revalidation', ...(await inject('GET', '/', { 'if-none-match': etag }))],
      ['a range', ...(await inject('GET', '/logo.svg', { range: 'bytes=0-3' }))],
      ['an unsatisfiable range', ...(await inject('GET', '/logo.svg', { range: 'bytes=9999-' }))],
      ['a POST', ...(await inject('POST', '/'))],
    ];
    expect(answers.map(([, status]) => status)).toEqual([200, 200, 200, 404, 304, 206, 416, 405]);
    for (const [label, , headers] of answers) expectPreviewRules(label, headers);

    async function inject(
      method: 'GET' | 'HEAD' | 'POST',
      url: string,
      headers: Record<string, string> = {},
    ): Promise<[number, Headers]> {
      const res = await t.app.inject({ method, url, headers: { host, ...headers } });
      return [res.statusCode, res.headers];
    }
  });

  it('does the same on a real socket, while the live site keeps its own referrer policy', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as AddressInfo).port;
    const get = (host: string, pathname = '/') =>
      new Promise<http.IncomingMessage>((resolve, reject) => {
        const req = http.request({ host: '127.0.0.1', port, path: pathname, headers: { host } });
        req.on('response', (res) => {
          res.resume();
          res.on('end', () => resolve(res));
        });
        req.on('error', reject);
        req.setTimeout(5_000, () => req.destroy(new Error('timed out')));
        req.end();
      });
    const preview = await get(new URL(draft.previewUrl).host);
    expect(preview.statusCode).toBe(200);
    expectPreviewRules('the draft over a socket', preview.headers);
    // Same version files, other host: the live site is the audience's and may be indexed.
    for (const pathname of ['/', '/style.css']) {
      const live = await get(new URL(liveUrl).host, pathname);
      expect(live.statusCode).toBe(200);
      expect(live.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(live.headers['x-robots-tag']).toBeUndefined();
    }
  });

  it('is revoked by discarding the draft: its address then shows nothing', async () => {
    const discarded = await t.app.inject({
      method: 'DELETE',
      url: `/api/domains/clone/${siteId}/versions/${draft.id}`,
      headers: owner.headers,
    });
    expect(discarded.statusCode).toBe(200);
    const gone = await fromSite(t, draft.previewUrl);
    expect(gone.statusCode).toBe(404);
    expect(gone.body).not.toContain('Edition');
  });
});
