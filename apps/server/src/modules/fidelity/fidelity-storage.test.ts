/**
 * What fidelity checks keep (issue 30): their screenshots are bounded per page, counted against the
 * owner's storage and deleted with their version (item 1); a check's repair reuses the checked
 * version's files, which stay while the check runs, whatever the owner does meanwhile (item 8).
 * Chromium runs one check per test.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FidelityReportResponse, SiteVersion } from '@mirror/contract';
import { PNG } from 'pngjs';
import { afterEach, describe, expect, it } from 'vitest';
import { fromSite, mirrorSite, pollToEnd, SERVICE_ENV, signUp } from '../../test/api-helpers.js';
import { startRevalidatingSite } from '../../test/revalidating-site.js';
import { jobsIdle, jobsSettled } from '../../test/jobs-settled.js';
import { createTestApp, waitFor, type TestApp } from '../../test/test-app.js';
import { FIDELITY_SHOT_BYTES_PER_PAGE } from './fidelity-check.task.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const HOUR = 3_600_000;
/** Local files (one test moves blob times back); checks are asked for by hand. */
const ENV = { ...SERVICE_ENV, S3_BUCKET: '', FIDELITY_CHECKS: 'false' };

const html = { type: 'text/html; charset=utf-8' };

async function askCheck(t: TestApp, id: string, headers: Record<string, string>) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/domains/clone/${id}/fidelity`,
    headers,
    payload: {},
  });
  expect(res.statusCode, res.body).toBe(202);
}

async function finishedReport(t: TestApp, id: string, headers: Record<string, string>) {
  return waitFor(async () => {
    const res = await t.app.inject({ url: `/api/domains/clone/${id}/fidelity`, headers });
    const body = res.json() as FidelityReportResponse;
    return res.statusCode === 200 && (body.state === 'completed' || body.state === 'failed')
      ? body
      : undefined;
  }, 300_000);
}

async function remirror(t: TestApp, id: string, headers: Record<string, string>) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/domains/clone/${id}/remirror`,
    headers,
  });
  expect(res.statusCode, res.body).toBe(202);
  expect((await pollToEnd(t, id, headers)).at(-1)!.status).toBe('completed');
  // The run's job prunes the versions beyond the plan's after the site reads "completed".
  await jobsIdle(t);
}

async function versionsOf(t: TestApp, id: string, headers: Record<string, string>) {
  return (
    await t.app.inject({ url: `/api/domains/clone/${id}/versions`, headers })
  ).json() as SiteVersion[];
}

function publish(t: TestApp, id: string, versionId: string, headers: Record<string, string>) {
  return t.app.inject({
    method: 'POST',
    url: `/api/domains/clone/${id}/versions/${versionId}/publish`,
    headers,
  });
}

async function usedBytes(t: TestApp, headers: Record<string, string>) {
  const res = await t.app.inject({ url: '/api/payments/usage', headers });
  expect(res.statusCode).toBe(200);
  return (res.json() as { storage: { usedBytes: number } }).storage.usedBytes;
}

/** The distinct bytes of the owner's completed versions as listed (what usage counted before). */
async function versionBytes(t: TestApp, ownerId: string) {
  const rows = await t.app.database.db
    .selectFrom('version_blobs as b')
    .innerJoin('site_versions as v', 'v.id', 'b.version_id')
    .innerJoin('sites as s', 's.id', 'v.site_id')
    .select(['b.hash', 'b.size'])
    .where('s.owner_id', '=', ownerId)
    .where('v.status', '=', 'completed')
    .execute();
  return [...new Map(rows.map((r) => [r.hash, Number(r.size)])).values()].reduce(
    (a, b) => a + b,
    0,
  );
}

function ageBlobs(t: TestApp) {
  const old = new Date(Date.now() - HOUR);
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'tmp') continue;
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else fs.utimesSync(file, old, old);
    }
  };
  walk(t.config.mirror.blobsDir);
}

describe('fidelity checks and storage (issue 30)', () => {
  it(
    "keeps a noisy page's screenshots within the page's budget, counts them as the owner's storage, and deletes them with their version",
    { timeout: 600_000 },
    async () => {
      // SVG noise: PNGs of it hardly compress (5.4 MB for this page at two widths before).
      const noise =
        '<!doctype html><meta name="viewport" content="width=device-width"><title>Noise</title>' +
        '<body style="margin:0"><svg width="100%" height="4000"><filter id="n">' +
        '<feTurbulence baseFrequency=".9" numOctaves="4"/></filter>' +
        '<rect width="100%" height="100%" filter="url(#n)"/></svg></body>';
      const site = await startRevalidatingSite({ '/': { ...html, body: noise } });
      cleanups.push(() => site.close());
      const t = await createTestApp(ENV);
      cleanups.push(() => t.close());
      cleanups.push(() => jobsSettled(t));
      const owner = await signUp(t);
      const { id } = await mirrorSite(t, site.url, owner.headers);
      await askCheck(t, id, owner.headers);
      const report = await finishedReport(t, id, owner.headers);
      expect(report.state, report.error ?? '').toBe('completed');

      const shots = new Map<string, number>();
      const perPage = new Map<string, number>();
      for (const page of report.pages) {
        for (const url of [page.originalShot, page.copyShot, page.diffShot]) {
          const res = await t.app.inject({ url: url! });
          expect(res.statusCode).toBe(200);
          expect(PNG.sync.read(res.rawPayload).width).toBeLessThanOrEqual(320);
          const hash = createHash('sha256').update(res.rawPayload).digest('hex');
          if (!shots.has(hash))
            perPage.set(page.path, (perPage.get(page.path) ?? 0) + res.rawPayload.length);
          shots.set(hash, res.rawPayload.length);
        }
      }
      expect(perPage.get('/')).toBeGreaterThan(0);
      for (const bytes of perPage.values())
        expect(bytes).toBeLessThanOrEqual(FIDELITY_SHOT_BYTES_PER_PAGE);

      // Usage counts the copy and its screenshots.
      const shotBytes = [...shots.values()].reduce((a, b) => a + b, 0);
      expect(await usedBytes(t, owner.headers)).toBe(
        (await versionBytes(t, owner.userId)) + shotBytes,
      );

      // Five re-mirrors later (Reflection keeps five versions), the checked version is gone, and
      // the sweep frees its screenshots; usage no longer counts them.
      for (let i = 0; i < 5; i++) await remirror(t, id, owner.headers);
      const kept = await versionsOf(t, id, owner.headers);
      expect(kept).toHaveLength(5);
      expect(kept.map((v) => v.id)).not.toContain(report.versionId);
      await t.app.storageService.sweep(new Date(Date.now() + HOUR));
      for (const hash of shots.keys()) expect(await t.app.blobs.has(hash)).toBe(false);
      const gone = await t.app.inject({ url: report.pages[0]!.diffShot! });
      expect(gone.statusCode).toBe(404);
      expect(await usedBytes(t, owner.headers)).toBe(await versionBytes(t, owner.userId));
    },
  );

  it(
    'publishes a repair made from a rolled-back version although the owner rolled forward, downgraded and swept during the check',
    { timeout: 600_000 },
    async () => {
      const page = (title: string) =>
        `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>` +
        `<meta name="viewport" content="width=device-width, initial-scale=1"></head>` +
        `<body style="margin:0;font:16px sans-serif"><h1>${title}</h1>` +
        `<img src="/hero.png" alt="" style="display:block;width:100%;max-width:600px;height:300px">` +
        `<p><a href="/about">About</a></p></body></html>`;
      const site = await startRevalidatingSite({
        '/': { ...html, body: page('Home') },
        '/about': { ...html, body: page('About') },
      });
      cleanups.push(() => site.close());
      const t = await createTestApp(ENV);
      cleanups.push(() => t.close());
      cleanups.push(() => jobsSettled(t));
      const owner = await signUp(t, 'pro');
      // Six versions, all without the hero image (it fails while they are copied).
      const { id, previewUrl } = await mirrorSite(t, site.url, owner.headers);
      for (let i = 0; i < 5; i++) await remirror(t, id, owner.headers);
      const versions = await versionsOf(t, id, owner.headers);
      const oldest = versions.at(-1)!;
      const newest = versions[0]!;
      expect(versions).toHaveLength(6);

      // The owner rolls back to v1 and asks for its check; the hero loads now, so the check repairs
      // the home page from v1's files.
      expect((await publish(t, id, oldest.id, owner.headers)).statusCode).toBe(200);
      const hero = new PNG({ width: 600, height: 300 });
      for (let i = 0; i < 600 * 300; i++) hero.data.set([220, 40, 40, 255], i * 4);
      site.files.set('/hero.png', { type: 'image/png', body: PNG.sync.write(hero) });
      ageBlobs(t);
      const held = site.hold('/about');
      await askCheck(t, id, owner.headers);
      await held.arrived;

      // While the check renders: roll forward, move to Reflection (five versions kept), the upkeep
      // prunes, a sweep runs, and the owner rolls back to v1 again.
      expect((await publish(t, id, newest.id, owner.headers)).statusCode).toBe(200);
      await t.app.database.db
        .updateTable('users')
        .set({ plan: 'free' })
        .where('id', '=', owner.userId)
        .execute();
      await t.app.sitesService.runMaintenance();
      await t.app.storageService.sweep();
      const back = await publish(t, id, oldest.id, owner.headers);
      held.release();
      expect(back.statusCode, back.body).toBe(200);

      const report = await finishedReport(t, id, owner.headers);
      expect(report.state, report.error ?? '').toBe('completed');
      expect(report.repairedCount).toBeGreaterThan(0);
      const live = (await versionsOf(t, id, owner.headers)).find((v) => v.isLive)!;
      expect(live.id).not.toBe(oldest.id);
      expect(live.changes.join(' ')).toContain('Captured again after the fidelity check');
      for (const file of ['/', '/about', '/hero.png']) {
        expect((await fromSite(t, previewUrl, file)).statusCode, file).toBe(200);
      }
    },
  );
});
