/**
 * What a run reuses by hash without writing it again stays through a storage sweep (issue 30, item
 * 8): each test holds a run at a point where it has taken such a reference, makes that blob's only
 * other holder go away (a pruned version, a discarded draft), sweeps the store and lets the run
 * finish; the published copy must still serve the blob. The blobs' times are moved back an hour
 * first (local files), as if the reused files were old: within the grace period a sweep leaves
 * everything alone anyway. (A repair's previous copy is tested with the fidelity check, in
 * modules/fidelity/fidelity-storage.test.ts.)
 */
import fs from 'node:fs';
import path from 'node:path';
import { uploadPath } from '@mirror/customize';
import { readBlob, type Manifest } from '@mirror/engine';
import { afterEach, describe, expect, it } from 'vitest';
import {
  fromSite,
  mirrorSite,
  pollToEnd,
  SERVICE_ENV,
  signUp,
  type SignedUp,
} from '../../test/api-helpers.js';
import { startFixtureSite } from '../../test/fixture-site.js';
import { startRevalidatingSite } from '../../test/revalidating-site.js';
import { jobsSettled } from '../../test/jobs-settled.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const HOUR = 3_600_000;
/** Local files: the tests move blob times back, which a bucket does not allow. */
const ENV = { ...SERVICE_ENV, S3_BUCKET: '' };

interface Version {
  id: string;
  number: number;
  status: string;
  isLive: boolean;
  draft: boolean;
  changes: string[];
}

async function versionsOf(t: TestApp, id: string, headers: Record<string, string>) {
  const res = await t.app.inject({ url: `/api/domains/clone/${id}/versions`, headers });
  expect(res.statusCode).toBe(200);
  return res.json() as Version[];
}

function publish(t: TestApp, id: string, versionId: string, headers: Record<string, string>) {
  return t.app.inject({
    method: 'POST',
    url: `/api/domains/clone/${id}/versions/${versionId}/publish`,
    headers,
  });
}

async function remirror(t: TestApp, id: string, headers: Record<string, string>) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/domains/clone/${id}/remirror`,
    headers,
  });
  expect(res.statusCode, res.body).toBe(202);
}

async function customize(t: TestApp, id: string, headers: Record<string, string>, ops: object[]) {
  const res = await t.app.inject({
    method: 'PUT',
    url: `/api/domains/clone/${id}/customize`,
    headers,
    payload: { customizations: { ops }, regenerate: true },
  });
  expect(res.statusCode, res.body).toBeLessThan(300);
}

function discard(t: TestApp, id: string, versionId: string, headers: Record<string, string>) {
  return t.app.inject({
    method: 'DELETE',
    url: `/api/domains/clone/${id}/versions/${versionId}`,
    headers,
  });
}

/** Every stored blob last written an hour ago, as if the files reused now were old. */
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

async function manifestOf(t: TestApp, versionId: string): Promise<Manifest> {
  const row = await t.app.database.db
    .selectFrom('site_versions')
    .select('manifest_hash')
    .where('id', '=', versionId)
    .executeTakeFirstOrThrow();
  return JSON.parse((await readBlob(t.app.blobs, row.manifest_hash!)).toString('utf8')) as Manifest;
}

/**
 * Another site of the owner whose mirror waits at its first page: with one job at a time, the
 * step asked for next waits behind it until `release()`.
 */
async function occupyJobSlot(t: TestApp, owner: SignedUp) {
  const blocker = await startRevalidatingSite({
    '/': { type: 'text/html', body: '<!doctype html><title>Blocker</title><p>Wait.</p>' },
  });
  cleanups.push(() => blocker.close());
  const held = blocker.hold('/');
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/domains/clone',
    headers: owner.headers,
    payload: { sourceUrl: blocker.url },
  });
  expect(res.statusCode, res.body).toBe(201);
  await held.arrived;
  const id = (res.json() as { id: string }).id;
  return {
    async release() {
      held.release();
      expect((await pollToEnd(t, id, owner.headers)).at(-1)!.status).toBe('completed');
    },
  };
}

describe('storage sweep and the blobs a run reuses (issue 30, item 8)', () => {
  it(
    'keeps the files a re-mirror revalidated (304) when a downgrade prunes their version and a sweep runs during the run',
    { timeout: 400_000 },
    async () => {
      const page = (title: string) =>
        `<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1>` +
        `<a href="/page-1.html">Page 1</a><img src="/logo.png" alt=""></body></html>`;
      const logoA = Buffer.from('\x89PNG logo, first design');
      const logoB = Buffer.from('\x89PNG logo, second design');
      const site = await startRevalidatingSite({
        '/': { type: 'text/html; charset=utf-8', body: page('Home') },
        '/page-1.html': { type: 'text/html; charset=utf-8', body: page('Page 1') },
        '/logo.png': { type: 'image/png', body: logoA },
      });
      cleanups.push(() => site.close());
      const t = await createTestApp(ENV);
      cleanups.push(() => t.close());
      cleanups.push(() => jobsSettled(t));
      const owner = await signUp(t, 'pro'); // keeps 30 versions
      const first = await mirrorSite(t, site.url, owner.headers);
      expect(first.readings.at(-1)!.status).toBe('completed');
      site.files.set('/logo.png', { type: 'image/png', body: logoB });
      for (let i = 0; i < 5; i++) {
        await remirror(t, first.id, owner.headers);
        expect((await pollToEnd(t, first.id, owner.headers)).at(-1)!.status).toBe('completed');
      }
      const versions = await versionsOf(t, first.id, owner.headers);
      expect(versions.map((v) => v.number)).toEqual([6, 5, 4, 3, 2, 1]);
      const [newest, , , , , oldest] = versions;

      // Back to the first design: the live version is v1, and the origin serves its logo again.
      expect((await publish(t, first.id, oldest!.id, owner.headers)).statusCode).toBe(200);
      site.files.set('/logo.png', { type: 'image/png', body: logoA });
      ageBlobs(t);
      const held = site.hold('/page-1.html', '/logo.png');
      const seen = site.notModified.length;
      await remirror(t, first.id, owner.headers);
      await held.arrived;
      // The run kept v1's logo on a 304, without writing it again.
      expect(site.notModified.slice(seen)).toContain('/logo.png');

      // Meanwhile the owner rolls forward and moves to Reflection (it keeps 5 versions): v1 is
      // old and not live, the upkeep prunes what it may, and a sweep runs.
      expect((await publish(t, first.id, newest!.id, owner.headers)).statusCode).toBe(200);
      await t.app.database.db
        .updateTable('users')
        .set({ plan: 'free' })
        .where('id', '=', owner.userId)
        .execute();
      await t.app.sitesService.runMaintenance();
      await t.app.storageService.sweep();
      held.release();
      expect((await pollToEnd(t, first.id, owner.headers)).at(-1)!.status).toBe('completed');

      const logo = await fromSite(t, first.previewUrl, '/logo.png');
      expect(logo.statusCode).toBe(200);
      expect(logo.rawPayload.equals(logoA)).toBe(true);
    },
  );

  it(
    'keeps the fonts an undo carries over from its draft when that draft is discarded and swept before the undo runs',
    { timeout: 300_000 },
    async () => {
      const fonts = await startRevalidatingSite({
        '/css2': {
          type: 'text/css',
          body: "@font-face{font-family:'Inter';src:url(/inter.woff2) format('woff2')}",
        },
        '/inter.woff2': { type: 'font/woff2', body: 'wOF2 only in the first draft' },
      });
      cleanups.push(() => fonts.close());
      const fontHost = new URL(fonts.url).host;
      const site = await startFixtureSite();
      cleanups.push(() => site.close());
      const t = await createTestApp({ ...ENV, JOB_CONCURRENCY: '1' });
      cleanups.push(() => t.close());
      cleanups.push(() => jobsSettled(t));
      const owner = await signUp(t, 'pro');
      const { id, previewUrl } = await mirrorSite(t, site.url, owner.headers);

      await customize(t, id, owner.headers, [
        { op: 'changeFont', family: 'Inter', stylesheetUrl: `${fonts.url}css2?family=Inter` },
        { op: 'setTitle', title: 'Renamed' },
      ]);
      expect((await pollToEnd(t, id, owner.headers)).at(-1)!.status).toBe('completed');
      const draft = (await versionsOf(t, id, owner.headers)).find((v) => v.draft)!;
      expect(draft).toBeDefined();

      // The undo (keep the font, drop the title) waits behind another run.
      const slot = await occupyJobSlot(t, owner);
      const undone = await t.app.inject({
        method: 'POST',
        url: `/api/domains/clone/${id}/versions/${draft.id}/undo`,
        headers: owner.headers,
        payload: { index: 1 },
      });
      expect(undone.statusCode, undone.body).toBeLessThan(300);
      // The owner discards the first draft, and a sweep runs before the undo does.
      expect((await discard(t, id, draft.id, owner.headers)).statusCode).toBeLessThan(300);
      ageBlobs(t);
      await t.app.storageService.sweep();
      await slot.release();
      expect((await pollToEnd(t, id, owner.headers)).at(-1)!.status).toBe('completed');

      const second = (await versionsOf(t, id, owner.headers)).find((v) => v.draft)!;
      expect(second.id).not.toBe(draft.id);
      expect((await publish(t, id, second.id, owner.headers)).statusCode).toBe(200);
      const font = await fromSite(t, previewUrl, `/_x/${fontHost}/inter.woff2`);
      expect(font.statusCode).toBe(200);
      expect(font.body).toBe('wOF2 only in the first draft');
      const css = await fromSite(t, previewUrl, `/_x/${fontHost}/css2?family=Inter`);
      expect(css.statusCode).toBe(200);
    },
  );

  it(
    'keeps an uploaded image a customization names when its only other holder is discarded and swept before the step runs',
    { timeout: 300_000 },
    async () => {
      const site = await startFixtureSite();
      cleanups.push(() => site.close());
      const t = await createTestApp({ ...ENV, JOB_CONCURRENCY: '1' });
      cleanups.push(() => t.close());
      cleanups.push(() => jobsSettled(t));
      const owner = await signUp(t, 'pro');
      const { id, previewUrl } = await mirrorSite(t, site.url, owner.headers);

      // A draft whose home page (a file of the owner's account) nothing else holds.
      await customize(t, id, owner.headers, [{ op: 'setTitle', title: 'Only in this draft' }]);
      expect((await pollToEnd(t, id, owner.headers)).at(-1)!.status).toBe('completed');
      const draft = (await versionsOf(t, id, owner.headers)).find((v) => v.draft)!;
      const home = (await manifestOf(t, draft.id)).entries.find((e) => e.path === '/')!;
      const image = (await readBlob(t.app.blobs, home.hash)).toString('utf8');
      expect(image).toContain('Only in this draft');

      const slot = await occupyJobSlot(t, owner);
      const upload = { hash: home.hash, contentType: 'image/svg+xml' };
      await customize(t, id, owner.headers, [{ op: 'replaceImage', logo: true, upload }]);
      expect((await discard(t, id, draft.id, owner.headers)).statusCode).toBeLessThan(300);
      ageBlobs(t);
      await t.app.storageService.sweep();
      await slot.release();
      expect((await pollToEnd(t, id, owner.headers)).at(-1)!.status).toBe('completed');

      const step = (await versionsOf(t, id, owner.headers)).find((v) => v.draft)!;
      expect(step.changes.join('\n')).not.toMatch(/was not found/);
      expect((await publish(t, id, step.id, owner.headers)).statusCode).toBe(200);
      const served = await fromSite(t, previewUrl, uploadPath(upload.hash, upload.contentType));
      expect(served.statusCode).toBe(200);
      expect(served.body).toBe(image);
    },
  );
});
