import type { CloneStatusResponse, SiteVersion } from '@mirror/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { SERVICE_ENV, signUp } from '../../test/api-helpers.js';
import { startFixtureSite } from '../../test/fixture-site.js';
import { createTestApp, waitFor, type TestApp } from '../../test/test-app.js';

// Issue 20: a running mirror says how far it is (pages and files done out of found, the page
// being copied); a failed one says why in a category the app words for a person, with the
// technical detail kept apart.

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup() {
  const t = await createTestApp({ ...SERVICE_ENV });
  cleanups.push(() => t.close());
  return t;
}

/** Every status reading of a run until it ends, as the web app polls it. */
async function readUntilSettled(
  t: TestApp,
  id: string,
  headers: Record<string, string>,
): Promise<CloneStatusResponse[]> {
  const readings: CloneStatusResponse[] = [];
  await waitFor(async () => {
    const res = await t.app.inject({ url: `/api/domains/clone/${id}/status`, headers });
    const reading = res.json() as CloneStatusResponse;
    readings.push(reading);
    return reading.status === 'completed' || reading.status === 'failed' ? true : undefined;
  }, 60_000);
  return readings;
}

async function startMirror(t: TestApp, sourceUrl: string) {
  const owner = await signUp(t);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/domains/clone',
    payload: { sourceUrl },
    headers: owner.headers,
  });
  expect(res.statusCode).toBe(201);
  return { id: (res.json() as { id: string }).id, headers: owner.headers };
}

describe('clone status while a mirror runs', () => {
  it('counts pages and files done out of found and names the page being copied', async () => {
    const site = await startFixtureSite(12);
    site.delayMs = 400;
    cleanups.push(() => site.close());
    const t = await setup();
    const { id, headers } = await startMirror(t, site.url);

    const readings = await readUntilSettled(t, id, headers);
    // Pages found once the home page is read: 12 linked pages besides it.
    const copying = readings.filter((r) => r.status === 'processing' && r.counts?.pages.found);
    expect(copying.length).toBeGreaterThan(0);
    for (const r of copying) {
      expect(r.counts!.pages.done).toBeLessThanOrEqual(r.counts!.pages.found);
      expect(r.counts!.pages.found).toBeLessThanOrEqual(13);
      expect(r.counts!.files.done).toBeLessThanOrEqual(r.counts!.files.found);
      expect(r.currentUrl).toMatch(new RegExp(`^${site.url}/(page-\\d+\\.html)?$`));
    }
    const last = readings.at(-1)!;
    expect(last).toMatchObject({ status: 'completed', counts: null, currentUrl: null });
    expect(last.errorKind).toBeNull();
  });
});

describe('a failed mirror', () => {
  it("answers a TLS failure as its category, with OpenSSL's text only as the detail", async () => {
    // https:// to a server that speaks plain HTTP: OpenSSL's "wrong version number".
    const site = await startFixtureSite();
    cleanups.push(() => site.close());
    const t = await setup();
    const sourceUrl = site.url.replace('http://', 'https://');
    const { id, headers } = await startMirror(t, sourceUrl);

    const last = (await readUntilSettled(t, id, headers)).at(-1)!;
    expect(last.status).toBe('failed');
    expect(last.errorKind).toBe('tls');
    expect(last.error).toMatch(/^Nothing could be fetched from https:\/\/127\.0\.0\.1:\d+\/: /);
    expect(last.error).not.toMatch(/SSL routines|EPROTO|ERR_SSL/);
    expect(last.errorDetail).toMatch(/SSL routines:.*wrong version number/);
    expect(last.counts).toBeNull();

    const versions = await t.app.inject({ url: `/api/domains/clone/${id}/versions`, headers });
    const [version] = versions.json() as SiteVersion[];
    expect(version).toMatchObject({ status: 'failed', errorKind: 'tls', error: last.error });
  });

  it('answers a name that does not resolve as a DNS failure', async () => {
    const t = await setup();
    const { id, headers } = await startMirror(t, 'http://no-such-host.invalid/');
    const last = (await readUntilSettled(t, id, headers)).at(-1)!;
    expect(last).toMatchObject({ status: 'failed', errorKind: 'dns' });
    expect(last.errorDetail).toMatch(/ENOTFOUND|EAI_AGAIN/);
  });
});
