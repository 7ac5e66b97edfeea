/**
 * The visual diff of a change report (issue 33) end to end: a real origin on 127.0.0.1 whose price
 * is edited between a mirror and its scheduled sync, the diff made by its job in a sandboxed
 * process with Chromium, its screenshots served to the owner only, counted as the owner's storage
 * and deleted with the report.
 */
import type { SiteVersion, VersionChanges } from '@mirror/contract';
import { PNG } from 'pngjs';
import { afterEach, describe, expect, it } from 'vitest';
import { mirrorSite, pollToEnd, SERVICE_ENV, signUp } from '../../test/api-helpers.js';
import { jobsSettled } from '../../test/jobs-settled.js';
import { startRevalidatingSite } from '../../test/revalidating-site.js';
import { createTestApp, waitFor, type TestApp } from '../../test/test-app.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const html = { type: 'text/html; charset=utf-8' };

const page = (title: string, main: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>` +
  `<meta name="viewport" content="width=device-width, initial-scale=1"></head>` +
  `<body style="margin:0;font:18px sans-serif"><nav><a href="/">Home</a> <a href="/pricing">Pricing</a></nav>` +
  `<h1>${title}</h1>${main}</body></html>`;
const pricing = (price: string) =>
  page('Pricing', `<p style="font-size:40px">Pro ${price} a month</p>`);

async function usedBytes(t: TestApp, headers: Record<string, string>) {
  const res = await t.app.inject({ url: '/api/payments/usage', headers });
  return (res.json() as { storage: { usedBytes: number } }).storage.usedBytes;
}

describe('visual diffs of change reports', () => {
  it(
    "renders a sync's changed page before and after, serves its pictures to the owner only, and deletes them with the report",
    { timeout: 600_000 },
    async () => {
      const site = await startRevalidatingSite({
        '/': { ...html, body: page('Home', '<p>Welcome.</p>') },
        '/pricing': { ...html, body: pricing('$9') },
      });
      cleanups.push(() => site.close());
      const t = await createTestApp({ ...SERVICE_ENV, VISUAL_DIFFS: 'true' });
      cleanups.push(() => t.close());
      cleanups.push(() => jobsSettled(t));
      const owner = await signUp(t, 'pro');
      const other = await signUp(t, 'pro');
      const { id } = await mirrorSite(t, site.url, owner.headers);
      const usedBefore = await usedBytes(t, owner.headers);
      const daily = await t.app.inject({
        method: 'PUT',
        url: `/api/domains/clone/${id}`,
        headers: owner.headers,
        payload: { syncSchedule: 'daily' },
      });
      expect(daily.statusCode, daily.body).toBe(200);

      // The price is edited; the next day's sync finds it.
      site.files.set('/pricing', { ...html, body: pricing('$12') });
      expect(
        (await t.app.sitesService.runMaintenance(new Date(Date.now() + DAY + HOUR))).synced,
      ).toBe(1);
      expect((await pollToEnd(t, id, owner.headers)).at(-1)!.status).toBe('completed');
      const versions = (
        await t.app.inject({ url: `/api/domains/clone/${id}/versions`, headers: owner.headers })
      ).json() as SiteVersion[];
      expect(versions).toHaveLength(2);
      const changesUrl = `/api/domains/clone/${id}/versions/${versions[0]!.id}/changes`;
      const changes = await waitFor(async () => {
        const res = await t.app.inject({ url: changesUrl, headers: owner.headers });
        const body = res.json() as VersionChanges;
        return body.visual?.state === 'completed' || body.visual?.state === 'failed'
          ? body
          : undefined;
      }, 300_000);
      expect(changes.report.pages.changed.map((p) => p.path)).toEqual(['/pricing']);
      const visual = changes.visual!;
      expect(visual.state, visual.error ?? '').toBe('completed');
      expect(visual.pages.map((p) => `${p.path} ${p.viewport}`)).toEqual([
        '/pricing desktop',
        '/pricing mobile',
      ]);

      let shotBytes = 0;
      for (const result of visual.pages) {
        expect(result.unmeasured).toBeNull();
        expect(result.diffPercent).toBeGreaterThan(0);
        for (const url of [result.beforeShot, result.afterShot, result.diffShot]) {
          const shot = await t.app.inject({ url, headers: owner.headers });
          expect(shot.statusCode, url).toBe(200);
          expect(shot.headers['content-type']).toBe('image/png');
          expect(PNG.sync.read(shot.rawPayload).width).toBe(320);
          shotBytes += shot.rawPayload.length;
          // Another account is told there is no such picture; a visitor is asked to sign in.
          expect((await t.app.inject({ url, headers: other.headers })).statusCode).toBe(404);
          expect((await t.app.inject({ url })).statusCode).toBe(401);
        }
      }
      // A picture of another report is not served under this one.
      const elsewhere = `/api/domains/clone/${id}/versions/${versions[1]!.id}/changes/shots/${visual.pages[0]!.diffShot.split('/').at(-1)}`;
      expect((await t.app.inject({ url: elsewhere, headers: owner.headers })).statusCode).toBe(404);

      // The pictures count against the owner's storage, on top of the new version's own files.
      const usedWithShots = await usedBytes(t, owner.headers);
      expect(usedWithShots).toBeGreaterThan(usedBefore + shotBytes);

      // Past Pro's report retention (180 days) the report goes, and its pictures with it.
      await t.app.inject({
        method: 'PUT',
        url: `/api/domains/clone/${id}`,
        headers: owner.headers,
        payload: { syncSchedule: 'off' },
      });
      await t.app.sitesService.runMaintenance(new Date(Date.now() + 181 * DAY));
      expect((await t.app.inject({ url: changesUrl, headers: owner.headers })).statusCode).toBe(
        404,
      );
      expect(
        (await t.app.inject({ url: visual.pages[0]!.diffShot, headers: owner.headers })).statusCode,
      ).toBe(404);
      expect(await usedBytes(t, owner.headers)).toBe(usedWithShots - shotBytes);
    },
  );

  it(
    'renders the pages that use a changed stylesheet, though no text changed, and only those',
    { timeout: 600_000 },
    async () => {
      const styled = (title: string) =>
        page(title, '<p class="box">Same words</p>').replace(
          '</title>',
          '</title><link rel="stylesheet" href="/css/site.css">',
        );
      const css = (color: string) => ({
        type: 'text/css',
        body: `.box { background: ${color}; height: 200px }`,
      });
      const site = await startRevalidatingSite({
        // The home page links the page without the stylesheet, so the mirror finds it.
        '/': {
          ...html,
          body: styled('Home').replace('</nav>', ' <a href="/plain">Plain</a></nav>'),
        },
        '/pricing': { ...html, body: styled('Pricing') },
        '/plain': { ...html, body: page('Plain', '<p>No styles here.</p>') },
        '/css/site.css': css('white'),
      });
      cleanups.push(() => site.close());
      const t = await createTestApp({ ...SERVICE_ENV, VISUAL_DIFFS: 'true' });
      cleanups.push(() => t.close());
      cleanups.push(() => jobsSettled(t));
      const owner = await signUp(t, 'pro');
      const { id } = await mirrorSite(t, site.url, owner.headers);

      // Only the stylesheet changes: every page's text stays the same.
      site.files.set('/css/site.css', css('red'));
      const remirror = await t.app.inject({
        method: 'POST',
        url: `/api/domains/clone/${id}/remirror`,
        headers: owner.headers,
      });
      expect(remirror.statusCode, remirror.body).toBe(202);
      expect((await pollToEnd(t, id, owner.headers)).at(-1)!.status).toBe('completed');
      const versions = (
        await t.app.inject({ url: `/api/domains/clone/${id}/versions`, headers: owner.headers })
      ).json() as SiteVersion[];
      const changesUrl = `/api/domains/clone/${id}/versions/${versions[0]!.id}/changes`;
      const changes = await waitFor(async () => {
        const res = await t.app.inject({ url: changesUrl, headers: owner.headers });
        const body = res.json() as VersionChanges;
        return body.visual?.state === 'completed' || body.visual?.state === 'failed'
          ? body
          : undefined;
      }, 300_000);
      expect(changes.report.pages.changed).toEqual([]);
      expect(changes.report.assets.changed.map((file) => file.path)).toEqual(['/css/site.css']);
      const visual = changes.visual!;
      expect(visual.state, visual.error ?? '').toBe('completed');
      // The two pages that use the stylesheet, not the one without it.
      expect(visual.pages.map((p) => `${p.path} ${p.viewport}`).sort()).toEqual([
        '/ desktop',
        '/ mobile',
        '/pricing desktop',
        '/pricing mobile',
      ]);
      for (const result of visual.pages) expect(result.diffPercent).toBeGreaterThan(1);
    },
  );
});
