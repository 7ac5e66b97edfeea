import { randomUUID } from 'node:crypto';
import { PLAN_STORAGE_BYTES, STORAGE_MESSAGES } from '@mirror/contract';
import { readBlob } from '@mirror/engine';
import { afterEach, describe, expect, it } from 'vitest';
import {
  fromSite,
  mirrorSite,
  pollToEnd,
  SERVICE_ENV,
  SIGN_UP_PASSWORD,
  signUp,
} from '../../test/api-helpers.js';
import { startFixtureSite } from '../../test/fixture-site.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

// Storage per account and the garbage collector (issue 18, item 4). The sweeps here look at the
// store "an hour from now", when every blob written by the test is past the grace period, so they
// run the same on local files and on S3 (whose LastModified a test cannot move back).
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const HOUR = 3_600_000;

/** A body written to the store now, as a run would write it. */
async function put(t: TestApp, text: string) {
  return t.app.blobs.put(
    (async function* () {
      yield Buffer.from(text);
    })(),
  );
}
const later = () => new Date(Date.now() + HOUR);

async function setup() {
  const t = await createTestApp(SERVICE_ENV);
  cleanups.push(() => t.close());
  const site = await startFixtureSite(3);
  cleanups.push(() => site.close());
  return { t, site };
}

async function stored(t: TestApp): Promise<Map<string, number>> {
  const all = new Map<string, number>();
  for await (const blob of t.app.blobs.list()) all.set(blob.hash, blob.size);
  return all;
}

async function blobsOfOwner(t: TestApp, ownerId: string): Promise<Set<string>> {
  const rows = await t.app.database.db
    .selectFrom('version_blobs as b')
    .innerJoin('site_versions as v', 'v.id', 'b.version_id')
    .innerJoin('sites as s', 's.id', 'v.site_id')
    .select('b.hash')
    .where('s.owner_id', '=', ownerId)
    .execute();
  return new Set(rows.map((r) => r.hash));
}

async function usage(t: TestApp, headers: Record<string, string>) {
  const res = await t.app.inject({ url: '/api/payments/usage', headers });
  expect(res.statusCode).toBe(200);
  return res.json().storage as { usedBytes: number; limitBytes: number };
}

describe('storage: garbage collection', () => {
  it('deleting an account frees the bytes only its sites held, and keeps what others share', async () => {
    const { t, site } = await setup();
    const alice = await signUp(t);
    const aliceSite = await mirrorSite(t, site.url, alice.headers);
    expect(aliceSite.readings.at(-1)?.status).toBe('completed');
    // Bob copies the same site once it changed: its style sheet and logo are the same bodies.
    site.version = 2;
    const bob = await signUp(t);
    const bobSite = await mirrorSite(t, site.url, bob.headers);
    expect(bobSite.readings.at(-1)?.status).toBe('completed');

    const aliceUsage = await usage(t, alice.headers);
    expect(aliceUsage.usedBytes).toBeGreaterThan(0);
    expect(aliceUsage.limitBytes).toBe(PLAN_STORAGE_BYTES.free);
    const aliceBlobs = await blobsOfOwner(t, alice.userId);
    const bobBlobs = await blobsOfOwner(t, bob.userId);
    const onlyAlice = [...aliceBlobs].filter((h) => !bobBlobs.has(h));
    const shared = [...aliceBlobs].filter((h) => bobBlobs.has(h));
    expect(onlyAlice.length).toBeGreaterThan(0);
    expect(shared.length).toBeGreaterThan(0);
    const before = await stored(t);
    const aliceOnlyBytes = onlyAlice.reduce((sum, h) => sum + before.get(h)!, 0);

    const deleted = await t.app.inject({
      method: 'DELETE',
      url: '/api/auth/me',
      headers: alice.headers,
      payload: { password: SIGN_UP_PASSWORD },
    });
    expect(deleted.statusCode).toBe(200);
    const swept = await t.app.storageService.sweep(later());

    const after = await stored(t);
    for (const hash of onlyAlice) expect(after.has(hash), hash).toBe(false);
    for (const hash of bobBlobs) expect(after.has(hash), hash).toBe(true);
    const bytes = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
    expect(bytes(before) - bytes(after)).toBe(aliceOnlyBytes);
    expect(swept.freedBytes).toBe(aliceOnlyBytes);
    // Bob's copy still answers, every page of it.
    for (const path of ['/', '/page-1.html', '/style.css']) {
      expect((await fromSite(t, bobSite.previewUrl, path)).statusCode, path).toBe(200);
    }
  });

  it("keeps a version's capture log (the responses as answered, for WARC export) and counts it", async () => {
    const { t, site } = await setup();
    const owner = await signUp(t);
    const copy = await mirrorSite(t, site.url, owner.headers);
    expect(copy.readings.at(-1)?.status).toBe('completed');
    const version = await t.app.database.db
      .selectFrom('site_versions')
      .select(['id', 'manifest_hash'])
      .where('site_id', '=', copy.id)
      .executeTakeFirstOrThrow();
    const manifest = JSON.parse(
      (await readBlob(t.app.blobs, version.manifest_hash!)).toString('utf8'),
    ) as { capture?: { hash: string; size: number } };
    expect(manifest.capture).toBeDefined();
    const listed = await t.app.database.db
      .selectFrom('version_blobs')
      .select(['hash', 'size'])
      .where('version_id', '=', version.id)
      .execute();
    expect(listed).toContainEqual({ hash: manifest.capture!.hash, size: manifest.capture!.size });
    // A sweep an hour on leaves it: the version still refers to it.
    await t.app.storageService.sweep(later());
    expect(await t.app.blobs.has(manifest.capture!.hash)).toBe(true);
  });

  it('frees a deleted site, but not a blob written within the grace period', async () => {
    const { t, site } = await setup();
    const owner = await signUp(t, 'pro');
    const first = await mirrorSite(t, site.url, owner.headers);
    const blobsBefore = await blobsOfOwner(t, owner.userId);
    const orphan = await put(t, `written just now ${randomUUID()}`);

    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/domains/clone/${first.id}`,
      headers: owner.headers,
    });
    expect(removed.statusCode).toBe(200);
    // Now: everything is inside the grace period, nothing goes.
    expect((await t.app.storageService.sweep(new Date())).removed).toBe(0);
    expect(await t.app.blobs.has(orphan.hash)).toBe(true);
    // An hour on, the deleted site's blobs and the orphan are gone.
    await t.app.storageService.sweep(later());
    for (const hash of blobsBefore) expect(await t.app.blobs.has(hash)).toBe(false);
    expect(await t.app.blobs.has(orphan.hash)).toBe(false);
  });

  it('never takes a blob from under a run in progress', async () => {
    const { t, site } = await setup();
    const owner = await signUp(t, 'pro');
    const copy = await mirrorSite(t, site.url, owner.headers);
    // A run that started now and has written a blob its manifest will refer to.
    const written = await put(t, `a run's page ${randomUUID()}`);
    await t.app.database.db
      .insertInto('site_versions')
      .values({
        id: randomUUID(),
        site_id: copy.id,
        number: 99,
        status: 'processing',
        manifest_hash: null,
        error: null,
        created_at: new Date().toISOString(),
        finished_at: null,
      })
      .execute();
    await t.app.storageService.sweep(later());
    expect(await t.app.blobs.has(written.hash)).toBe(true);
  });
});

describe('storage: what an account keeps (issue 30, item 1)', () => {
  it("counts its versions' thumbnails and fidelity screenshots, sizes kept before they were recorded too", async () => {
    const { t, site } = await setup();
    const owner = await signUp(t);
    const copy = await mirrorSite(t, site.url, owner.headers);
    const before = (await usage(t, owner.headers)).usedBytes;
    const thumbnail = await put(t, `a thumbnail ${randomUUID()}`.repeat(50));
    const shot = await put(t, `a screenshot ${randomUUID()}`.repeat(80));
    const db = t.app.database.db;
    const live = await db
      .selectFrom('sites')
      .select('live_version_id')
      .where('id', '=', copy.id)
      .executeTakeFirstOrThrow();
    // As rows made before sizes were kept: no size yet.
    await db
      .updateTable('site_versions')
      .set({ thumbnail_hash: thumbnail.hash })
      .where('id', '=', live.live_version_id!)
      .execute();
    await db
      .insertInto('fidelity_blobs')
      .values({ version_id: live.live_version_id!, hash: shot.hash })
      .execute();
    expect((await usage(t, owner.headers)).usedBytes).toBe(before + thumbnail.size + shot.size);
  });
});

describe('storage: plan quota', () => {
  async function fillStorage(t: TestApp, siteId: string, bytes: number) {
    const db = t.app.database.db;
    const site = await db
      .selectFrom('sites')
      .select('live_version_id')
      .where('id', '=', siteId)
      .executeTakeFirstOrThrow();
    // A stand-in for large files the live version holds.
    await db
      .insertInto('version_blobs')
      .values({ version_id: site.live_version_id!, hash: 'f'.repeat(64), size: bytes })
      .execute();
  }

  it('shows storage on the usage panel and refuses runs once it is used up, changing nothing', async () => {
    const { t, site } = await setup();
    const owner = await signUp(t);
    const copy = await mirrorSite(t, site.url, owner.headers);
    const { usedBytes } = await usage(t, owner.headers);
    await fillStorage(t, copy.id, PLAN_STORAGE_BYTES.free - usedBytes + 1);
    const full = await usage(t, owner.headers);
    expect(full.usedBytes).toBe(PLAN_STORAGE_BYTES.free + 1);

    const versionsBefore = await t.app.database.db
      .selectFrom('site_versions')
      .selectAll()
      .execute();
    for (const request of [
      { method: 'POST' as const, url: `/api/domains/clone/${copy.id}/remirror` },
      {
        method: 'PUT' as const,
        url: `/api/domains/clone/${copy.id}/customize`,
        payload: { customizations: { instructions: 'Change the title to "Hello"' } },
      },
    ]) {
      const res = await t.app.inject({ ...request, headers: owner.headers });
      expect(res.statusCode, request.url).toBe(403);
      expect(res.json().message).toBe(
        STORAGE_MESSAGES.full(PLAN_STORAGE_BYTES.free + 1, PLAN_STORAGE_BYTES.free),
      );
      expect(res.json().message).toContain('1 GB of the 1 GB');
    }
    expect(await t.app.database.db.selectFrom('site_versions').selectAll().execute()).toEqual(
      versionsBefore,
    );
  });

  it('fails a finished copy that would go over the plan without publishing it', async () => {
    const { t, site } = await setup();
    const owner = await signUp(t);
    const copy = await mirrorSite(t, site.url, owner.headers);
    const { usedBytes } = await usage(t, owner.headers);
    // Room for what is there, not for the new pages of the next copy.
    await fillStorage(t, copy.id, PLAN_STORAGE_BYTES.free - usedBytes - 10);
    const liveBefore = await fromSite(t, copy.previewUrl, '/');
    site.version = 2;

    const res = await t.app.inject({
      method: 'POST',
      url: `/api/domains/clone/${copy.id}/remirror`,
      headers: owner.headers,
    });
    expect(res.statusCode).toBe(202);
    const readings = await pollToEnd(t, copy.id, owner.headers);
    const last = readings.at(-1)!;
    expect(last.status).toBe('failed');
    expect(last.error).toMatch(/^This copy was not published: with it, your sites would use /);
    // The live copy is the old one, and the refused version counts for nothing.
    const liveAfter = await fromSite(t, copy.previewUrl, '/');
    expect(liveAfter.body).toBe(liveBefore.body);
    expect(liveAfter.body).toContain('Fixture v1');
    expect((await usage(t, owner.headers)).usedBytes).toBe(PLAN_STORAGE_BYTES.free - 10);
  });
});
