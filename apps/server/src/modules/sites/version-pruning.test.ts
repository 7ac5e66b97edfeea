/**
 * Versions a site keeps (issue 30, item 1): the plan's count of the newest, plus the live version,
 * drafts and what they were made on; older versions go, and the sweep frees their files.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mirrorSite, pollToEnd, SERVICE_ENV, signUp } from '../../test/api-helpers.js';
import { startFixtureSite } from '../../test/fixture-site.js';
import { jobsIdle, jobsSettled } from '../../test/jobs-settled.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { PLAN_VERSIONS_KEPT } from './plan-limits.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface Version {
  id: string;
  number: number;
  kind: string;
  isLive: boolean;
  draft: boolean;
}

async function versionsOf(t: TestApp, id: string, headers: Record<string, string>) {
  const res = await t.app.inject({ url: `/api/domains/clone/${id}/versions`, headers });
  expect(res.statusCode).toBe(200);
  return res.json() as Version[];
}

async function manifestHash(t: TestApp, versionId: string) {
  const row = await t.app.database.db
    .selectFrom('site_versions')
    .select('manifest_hash')
    .where('id', '=', versionId)
    .executeTakeFirstOrThrow();
  return row.manifest_hash!;
}

async function usedBytes(t: TestApp, headers: Record<string, string>) {
  const res = await t.app.inject({ url: '/api/payments/usage', headers });
  expect(res.statusCode).toBe(200);
  return (res.json() as { storage: { usedBytes: number } }).storage.usedBytes;
}

describe('version pruning', () => {
  it(
    'keeps the newest five versions of a Reflection site, its live version and its draft with the version it was made on, and deletes the others with their files',
    { timeout: 400_000 },
    async () => {
      expect(PLAN_VERSIONS_KEPT).toEqual({ free: 5, pro: 30, agency: 100 });
      const site = await startFixtureSite(2);
      cleanups.push(() => site.close());
      const t = await createTestApp(SERVICE_ENV);
      cleanups.push(() => t.close());
      cleanups.push(() => jobsSettled(t));
      const owner = await signUp(t);
      const { id } = await mirrorSite(t, site.url, owner.headers);

      // A draft on v1, left for review.
      const edit = await t.app.inject({
        method: 'PUT',
        url: `/api/domains/clone/${id}/customize`,
        headers: owner.headers,
        payload: { customizations: { ops: [{ op: 'setTitle', title: 'Kept draft' }] } },
      });
      expect(edit.statusCode, edit.body).toBeLessThan(300);
      expect((await pollToEnd(t, id, owner.headers)).at(-1)!.status).toBe('completed');

      // Six re-mirrors of a site that changes each time.
      let v3Id = '';
      for (let n = 2; n <= 7; n++) {
        site.version = n;
        const res = await t.app.inject({
          method: 'POST',
          url: `/api/domains/clone/${id}/remirror`,
          headers: owner.headers,
        });
        expect(res.statusCode, res.body).toBe(202);
        expect((await pollToEnd(t, id, owner.headers)).at(-1)!.status).toBe('completed');
        // The run's job prunes the versions beyond the plan's after the site reads "completed".
        await jobsIdle(t);
        if (n === 2) v3Id = (await versionsOf(t, id, owner.headers))[0]!.id;
      }
      const before = await usedBytes(t, owner.headers);

      const versions = await versionsOf(t, id, owner.headers);
      // Numbers: v1 mirror, v2 the draft, v3..v8 re-mirrors. v3 is the only one beyond the
      // newest five that nothing uses; v1 stays because the draft was made on it.
      expect(versions.map((v) => [v.number, v.kind, v.isLive, v.draft])).toEqual([
        [8, 'mirror', true, false],
        [7, 'mirror', false, false],
        [6, 'mirror', false, false],
        [5, 'mirror', false, false],
        [4, 'mirror', false, false],
        [2, 'customize', false, true],
        [1, 'mirror', false, false],
      ]);
      const listed = await t.app.database.db
        .selectFrom('version_blobs as b')
        .innerJoin('site_versions as v', 'v.id', 'b.version_id')
        .select('b.hash')
        .where('v.site_id', '=', id)
        .execute();
      const keptHashes = new Set(listed.map((r) => r.hash));

      // A rollback to a pruned version finds nothing; the kept ones still publish.
      const v4 = versions.find((v) => v.number === 4)!;
      const v1 = versions.find((v) => v.number === 1)!;
      const draftBaseManifest = await manifestHash(t, v1.id);
      const stored = new Map<string, number>();
      for await (const blob of t.app.blobs.list()) stored.set(blob.hash, blob.size);
      const orphans = [...stored.keys()].filter((h) => !keptHashes.has(h));
      expect(orphans.length).toBeGreaterThan(0);

      // The sweep, an hour on, frees the pruned version's own files; usage counted them already.
      await t.app.storageService.sweep(new Date(Date.now() + 3_600_000));
      for (const hash of orphans) expect(await t.app.blobs.has(hash), hash).toBe(false);
      expect(await t.app.blobs.has(draftBaseManifest)).toBe(true);
      expect(await usedBytes(t, owner.headers)).toBe(before);
      const gone = await t.app.inject({
        method: 'POST',
        url: `/api/domains/clone/${id}/versions/${v3Id}/publish`,
        headers: owner.headers,
      });
      expect(gone.statusCode).toBe(404);
      const rollback = await t.app.inject({
        method: 'POST',
        url: `/api/domains/clone/${id}/versions/${v4.id}/publish`,
        headers: owner.headers,
      });
      expect(rollback.statusCode).toBe(200);
    },
  );
});
