import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startFixtureSite, type FixtureSite } from '../../test/fixture-site.js';
import { spawnServer } from '../../test/spawn-server.js';
import { fromSite, pollToEnd, SERVICE_ENV, signUp } from '../../test/api-helpers.js';
import { createTestApp, sharedStorageEnv, waitFor, type TestApp } from '../../test/test-app.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(env: Record<string, string> = {}) {
  const site = await startFixtureSite();
  const t = await createTestApp({ ...SERVICE_ENV, ...env });
  cleanups.push(
    () => site.close(),
    () => t.close(),
  );
  return { site, t };
}

async function clone(
  t: TestApp,
  payload: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  return t.app.inject({ method: 'POST', url: '/api/domains/clone', payload, headers });
}

// Whole mirrors, re-mirrors and zips: slower on PostgreSQL, Redis and S3 with two files at once.
describe('mirroring as a service', { timeout: 60_000 }, () => {
  it('mirrors a visitor demo and serves it on its subdomain', async () => {
    const { site, t } = await setup();
    const res = await clone(t, { sourceUrl: site.url, isDemo: true });
    expect(res.statusCode).toBe(201);
    const record = res.json();
    expect(record).toMatchObject({
      isDemo: true,
      status: 'pending',
      sourceUrl: site.url,
      progress: 0,
    });
    expect(record.previewUrl).toMatch(/^http:\/\/[a-z]+-[a-z]+-\d{4}\.localhost(:\d+)?\/$/);

    const readings = await pollToEnd(t, record.id);
    const last = readings[readings.length - 1]!;
    expect(last).toMatchObject({
      status: 'completed',
      currentStatus: 'mirror created successfully',
      progress: 1,
    });
    const progress = readings.map((r) => r.progress);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    const order = ['pending', 'processing', 'completing', 'completed'];
    const statuses = readings.map((r) => order.indexOf(r.status));
    expect(statuses).toEqual([...statuses].sort((a, b) => a - b));

    const page = await fromSite(t, record.previewUrl);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Version 1 /');
    expect(page.headers['content-type']).toContain('text/html');
    expect((await fromSite(t, record.previewUrl, '/page-2.html')).body).toContain(
      'Version 1 /page-2.html',
    );
    // The app's own security headers and API never appear on a tenant host.
    expect(page.headers['content-security-policy']).toBeUndefined();
    expect((await fromSite(t, record.previewUrl, '/api/health')).statusCode).toBe(404);
  });

  it('refuses what the plan does not include, with clear messages, and changes nothing', async () => {
    const { site, t } = await setup();
    const guestSub = await clone(t, { sourceUrl: site.url, targetDomain: 'mine' });
    expect(guestSub.statusCode).toBe(403);
    expect(guestSub.json()).toEqual({
      message: 'Custom subdomains are available on Mirror Pro and Mirror Agency.',
    });
    const free = await signUp(t);
    const freeAi = await clone(
      t,
      { sourceUrl: site.url, aiInstructions: 'make it blue' },
      free.headers,
    );
    expect(freeAi.json()).toEqual({
      message: 'AI instructions are available on Mirror Pro and Mirror Agency.',
    });
    expect((await clone(t, { sourceUrl: 'not a url' }, free.headers)).statusCode).toBe(400);
    expect((await clone(t, { sourceUrl: site.url }, free.headers)).statusCode).toBe(201);
    const second = await clone(t, { sourceUrl: site.url }, free.headers);
    expect(second.statusCode).toBe(403);
    expect(second.json()).toEqual({
      message: "You have reached your plan's mirror limit. Upgrade to mirror more websites.",
    });

    const pro = await signUp(t, 'pro');
    const reserved = await clone(t, { sourceUrl: site.url, targetDomain: 'admin' }, pro.headers);
    expect(reserved.json()).toEqual({
      message: 'This subdomain is reserved. Please choose another one.',
    });
    // Version preview hosts (`v-` and 32 hex digits) are never handed out as subdomains.
    const previewLike = await clone(
      t,
      { sourceUrl: site.url, targetDomain: `v-${'ab'.repeat(16)}` },
      pro.headers,
    );
    expect(previewLike.json().message).toBe(
      'This subdomain is reserved. Please choose another one.',
    );
    const bad = await clone(t, { sourceUrl: site.url, targetDomain: '-nope-' }, pro.headers);
    expect(bad.statusCode).toBe(400);
    const ok = await clone(
      t,
      { sourceUrl: site.url, targetDomain: 'bakery.localhost', aiInstructions: 'warmer tone' },
      pro.headers,
    );
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toMatchObject({
      targetDomain: 'bakery.localhost',
      aiInstructions: 'warmer tone',
    });
    const taken = await clone(t, { sourceUrl: site.url, targetDomain: 'bakery' }, pro.headers);
    expect(taken.statusCode).toBe(409);
    const sites = await t.app.database.db.selectFrom('sites').select('id').execute();
    expect(sites).toHaveLength(2);
  });

  it("answers 404 for another user's site and lists only your own", async () => {
    const { site, t } = await setup();
    const owner = await signUp(t);
    const other = await signUp(t);
    const { id } = (await clone(t, { sourceUrl: site.url }, owner.headers)).json();
    for (const [method, url] of [
      ['GET', `/api/domains/clone/${id}`],
      ['GET', `/api/domains/clone/${id}/status`],
      ['GET', `/api/domains/clone/${id}/versions`],
      ['POST', `/api/domains/clone/${id}/remirror`],
      ['DELETE', `/api/domains/clone/${id}`],
      ['GET', `/api/domains/${id}/analytics`],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: other.headers });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    expect(
      (await t.app.inject({ url: '/api/domains/clones', headers: other.headers })).json(),
    ).toEqual([]);
    expect(
      (await t.app.inject({ url: '/api/domains', headers: owner.headers })).json().sites,
    ).toHaveLength(1);
    expect((await t.app.inject({ url: '/api/domains/clones' })).statusCode).toBe(401);
  });

  it('keeps versions, re-mirrors, rolls back, and exports a zip that serves the same pages', async () => {
    const { site, t } = await setup();
    const pro = await signUp(t, 'pro');
    const { id, previewUrl } = (await clone(t, { sourceUrl: site.url }, pro.headers)).json();
    await pollToEnd(t, id, pro.headers);
    site.version = 2;
    const again = await t.app.inject({
      method: 'POST',
      url: `/api/domains/clone/${id}/remirror`,
      headers: pro.headers,
    });
    expect(again.statusCode).toBe(202);
    const busy = await t.app.inject({
      method: 'POST',
      url: `/api/domains/clone/${id}/remirror`,
      headers: pro.headers,
    });
    expect(busy.statusCode).toBe(409);
    await pollToEnd(t, id, pro.headers);
    await waitFor(async () =>
      (await fromSite(t, previewUrl)).body.includes('Version 2') ? true : undefined,
    );

    const versions = (
      await t.app.inject({ url: `/api/domains/clone/${id}/versions`, headers: pro.headers })
    ).json();
    expect(versions.map((v: { number: number; isLive: boolean }) => [v.number, v.isLive])).toEqual([
      [2, true],
      [1, false],
    ]);
    // The re-mirror says what changed against version 1 (issue 33); the first mirror has no report.
    expect(versions[1].changeDigest).toBeNull();
    expect(versions[0].changeDigest).toMatchObject({
      unchanged: false,
      pagesAdded: 0,
      filesChanged: 1,
    });
    expect(versions[0].changeDigest.summary).toMatch(
      /^\d+ pages changed, 1 file changed: \/ \(2\), /,
    );
    const changes = await t.app.inject({
      url: `/api/domains/clone/${id}/versions/${versions[0].id}/changes`,
      headers: pro.headers,
    });
    expect(changes.statusCode).toBe(200);
    const { report, baseNumber } = changes.json();
    expect(baseNumber).toBe(1);
    expect(report.summary).toBe(versions[0].changeDigest.summary);
    const home = report.pages.changed.find((p: { path: string }) => p.path === '/');
    expect(home.hunks[0]).toEqual([
      { op: 'same', text: 'Version' },
      { op: 'removed', text: '1' },
      { op: 'added', text: '2' },
      expect.objectContaining({ op: 'same' }),
    ]);
    expect(home.head).toEqual([{ field: 'title', before: 'Fixture v1', after: 'Fixture v2' }]);
    expect(report.assets.changed.map((a: { path: string }) => a.path)).toEqual(['/style.css']);
    // The dashboard's card says when the site last changed.
    const card = (
      await t.app.inject({ url: `/api/domains/clone/${id}`, headers: pro.headers })
    ).json();
    expect(card.lastChange).toEqual({
      at: versions[0].finishedAt,
      digest: versions[0].changeDigest,
    });
    const none = await t.app.inject({
      url: `/api/domains/clone/${id}/versions/${versions[1].id}/changes`,
      headers: pro.headers,
    });
    expect(none.statusCode).toBe(404);
    expect(none.json().message).toMatch(/no change report/);
    const rollback = await t.app.inject({
      method: 'POST',
      url: `/api/domains/clone/${id}/versions/${versions[1].id}/publish`,
      headers: pro.headers,
    });
    expect(rollback.statusCode).toBe(200);
    expect((await fromSite(t, previewUrl)).body).toContain('Version 1');

    const zip = await t.app.inject({
      url: `/api/domains/clone/${id}/export.zip`,
      headers: pro.headers,
    });
    expect(zip.statusCode).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zip-'));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    fs.writeFileSync(path.join(dir, 'site.zip'), zip.rawPayload);
    execFileSync('python3', [
      '-c',
      'import sys,zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])',
      path.join(dir, 'site.zip'),
      path.join(dir, 'out'),
    ]);
    expect(fs.readFileSync(path.join(dir, 'out', 'index.html'), 'utf8')).toContain('Version 1 /');
    expect(fs.readFileSync(path.join(dir, 'out', 'page-2.html'), 'utf8')).toContain(
      'Version 1 /page-2.html',
    );
    expect(fs.existsSync(path.join(dir, 'out', 'style.css'))).toBe(true);
  });

  it('counts visits and answers analytics for 7, 30 and 90 days', async () => {
    const { site, t } = await setup();
    const owner = await signUp(t);
    const { id, previewUrl } = (await clone(t, { sourceUrl: site.url }, owner.headers)).json();
    await pollToEnd(t, id, owner.headers);
    const host = new URL(previewUrl).host;
    const browser = { host, 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0.0.0' };
    await t.app.inject({ url: '/', headers: browser });
    await t.app.inject({ url: '/page-1.html', headers: { ...browser, referer: previewUrl } });
    await t.app.inject({ url: '/style.css', headers: browser });
    await t.app.close();
    const reopened = await createTestApp({
      ...SERVICE_ENV,
      DATA_DIR: t.config.dataDir,
      ...(t.config.database.kind === 'postgres'
        ? { DATABASE_SCHEMA: t.config.database.schema! }
        : {}),
    });
    cleanups.push(() => reopened.close());
    const res = await reopened.app.inject({
      url: `/api/domains/${id}/analytics?period=30d`,
      headers: owner.headers,
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.days).toHaveLength(30);
    expect(body.totals).toMatchObject({ visits: 1, pageViews: 2, uniqueVisitors: 1 });
    expect(body.totals.bytes).toBeGreaterThan(0);
    expect(
      (
        await reopened.app.inject({
          url: `/api/domains/${id}/analytics?period=1y`,
          headers: owner.headers,
        })
      ).statusCode,
    ).toBe(400);
  });

  it('moves a site to another subdomain for paid plans; the old address stops serving', async () => {
    const { site, t } = await setup();
    const pro = await signUp(t, 'pro');
    const free = await signUp(t);
    const first = (await clone(t, { sourceUrl: site.url }, pro.headers)).json();
    await clone(t, { sourceUrl: site.url, targetDomain: 'taken' }, pro.headers);
    const freeSite = (await clone(t, { sourceUrl: site.url }, free.headers)).json();
    await pollToEnd(t, first.id, pro.headers);
    const rename = (id: string, headers: Record<string, string>, payload: object) =>
      t.app.inject({ method: 'PUT', url: `/api/domains/clone/${id}`, headers, payload });

    const moved = await rename(first.id, pro.headers, { targetDomain: 'Bakery' });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().previewUrl).toMatch(/^http:\/\/bakery\.localhost(:\d+)?\/$/);
    expect((await fromSite(t, moved.json().previewUrl)).statusCode).toBe(200);
    const old = await fromSite(t, first.previewUrl);
    expect(old.statusCode).toBe(404);
    expect(old.body).toContain('No site here');

    expect((await rename(first.id, pro.headers, { targetDomain: 'taken' })).json().message).toBe(
      'This subdomain is already taken. Please choose another one.',
    );
    expect((await rename(first.id, pro.headers, { targetDomain: 'admin' })).statusCode).toBe(400);
    expect((await rename(first.id, pro.headers, {})).statusCode).toBe(400);
    const refused = await rename(freeSite.id, free.headers, { targetDomain: 'mine' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(
      'Custom subdomains are available on Mirror Pro and Mirror Agency.',
    );
    expect((await rename(first.id, free.headers, { targetDomain: 'x1' })).statusCode).toBe(404);
  });

  it('deletes a site and stops serving it', async () => {
    const { site, t } = await setup();
    const owner = await signUp(t);
    const { id, previewUrl } = (await clone(t, { sourceUrl: site.url }, owner.headers)).json();
    await pollToEnd(t, id, owner.headers);
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/domains/clone/${id}`,
      headers: owner.headers,
    });
    expect(del.statusCode).toBe(200);
    expect((await fromSite(t, previewUrl)).body).toContain('No site here');
  });
});

describe('upkeep', () => {
  it('re-mirrors sites whose sync is due (paid plans only) and deletes unclaimed demos past 7 days', async () => {
    const { site, t } = await setup();
    const free = await signUp(t);
    const pro = await signUp(t, 'pro');
    const { id } = (await clone(t, { sourceUrl: site.url }, pro.headers)).json();
    await pollToEnd(t, id, pro.headers);
    const freeSite = (await clone(t, { sourceUrl: site.url }, free.headers)).json();
    const refused = await t.app.inject({
      method: 'PUT',
      url: `/api/domains/clone/${freeSite.id}`,
      headers: free.headers,
      payload: { syncSchedule: 'daily' },
    });
    expect(refused.statusCode).toBe(403);
    const daily = await t.app.inject({
      method: 'PUT',
      url: `/api/domains/clone/${id}`,
      headers: pro.headers,
      payload: { syncSchedule: 'daily' },
    });
    expect(daily.json().syncSchedule).toBe('daily');
    const demo = (await clone(t, { sourceUrl: site.url })).json();
    await pollToEnd(t, demo.id);
    await pollToEnd(t, freeSite.id, free.headers);

    // Nothing is due yet.
    expect(await t.app.sitesService.runMaintenance()).toEqual({ expired: 0, synced: 0 });
    // A day and a bit later the sync is due; eight days later the demo has expired.
    site.version = 3;
    expect(await t.app.sitesService.runMaintenance(new Date(Date.now() + 25 * 3_600_000))).toEqual({
      expired: 0,
      synced: 1,
    });
    await pollToEnd(t, id, pro.headers);
    const versionsOf = async () =>
      (
        await t.app.inject({ url: `/api/domains/clone/${id}/versions`, headers: pro.headers })
      ).json();
    const versions = await versionsOf();
    expect(versions).toHaveLength(2);
    expect(versions[0].changeDigest.unchanged).toBe(false);
    expect(versions[0].checkedUnchangedAt).toBeNull();

    // The next day's sync finds nothing changed: no new version, and the live one says when.
    const requestsBefore = site.requests;
    expect(
      (await t.app.sitesService.runMaintenance(new Date(Date.now() + 50 * 3_600_000))).synced,
    ).toBe(1);
    const [last] = await pollToEnd(t, id, pro.headers).then((states) => states.slice(-1));
    expect(last!.status).toBe('completed');
    expect(site.requests).toBeGreaterThan(requestsBefore);
    const after = await versionsOf();
    expect(after.map((v: { id: string }) => v.id)).toEqual(
      versions.map((v: { id: string }) => v.id),
    );
    expect(after[0].isLive).toBe(true);
    expect(Date.parse(after[0].checkedUnchangedAt)).toBeGreaterThan(Date.now() - 60_000);
    const record = (
      await t.app.inject({ url: `/api/domains/clone/${id}`, headers: pro.headers })
    ).json();
    expect(record).toMatchObject({ status: 'completed', liveVersionId: versions[0].id });
    expect(
      (await t.app.sitesService.runMaintenance(new Date(Date.now() + 8 * 24 * 3_600_000))).expired,
    ).toBe(1);
    expect((await t.app.inject({ url: `/api/domains/clone/${demo.id}/status` })).statusCode).toBe(
      404,
    );
  });
});

describe('sync frequency by plan (issue 33)', () => {
  it('syncs hourly on Agency only, and slows an hourly sync to daily after a downgrade', async () => {
    const { site, t } = await setup();
    const pro = await signUp(t, 'pro');
    const agency = await signUp(t, 'agency');
    const schedule = (id: string, headers: Record<string, string>, syncSchedule: string) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/domains/clone/${id}`,
        headers,
        payload: { syncSchedule },
      });
    const proSite = (await clone(t, { sourceUrl: site.url }, pro.headers)).json();
    const agencySite = (await clone(t, { sourceUrl: site.url }, agency.headers)).json();
    await pollToEnd(t, proSite.id, pro.headers);
    await pollToEnd(t, agencySite.id, agency.headers);

    const refused = await schedule(proSite.id, pro.headers, 'hourly');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('Hourly sync is available on Mirror Agency.');
    expect((await schedule(agencySite.id, agency.headers, 'hourly')).json().syncSchedule).toBe(
      'hourly',
    );
    // An hour and a bit later the hourly sync is due (the daily one would not be).
    site.version = 2;
    expect(
      (await t.app.sitesService.runMaintenance(new Date(Date.now() + 61 * 60_000))).synced,
    ).toBe(1);
    await pollToEnd(t, agencySite.id, agency.headers);

    // Moved to Pro: the next due sync runs, and the schedule is daily from then on.
    await t.app.database.db
      .updateTable('users')
      .set({ plan: 'pro' })
      .where('id', '=', agency.userId)
      .execute();
    const later = new Date(Date.now() + 3 * 3_600_000);
    expect((await t.app.sitesService.runMaintenance(later)).synced).toBe(1);
    await pollToEnd(t, agencySite.id, agency.headers);
    const row = await t.app.database.db
      .selectFrom('sites')
      .select(['sync_schedule', 'next_sync_at'])
      .where('id', '=', agencySite.id)
      .executeTakeFirstOrThrow();
    expect(row.sync_schedule).toBe('daily');
    expect(Date.parse(row.next_sync_at!)).toBe(later.getTime() + 24 * 3_600_000);
  });
});

describe('zip export', () => {
  /** The export's temporary folder goes to a TMPDIR of the test's own, restored afterwards. */
  function exportTmpdir(): string {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'export-tmp-'));
    const previousTmp = process.env.TMPDIR;
    process.env.TMPDIR = tmp;
    cleanups.push(() => {
      if (previousTmp === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = previousTmp;
      fs.rmSync(tmp, { recursive: true, force: true });
    });
    return tmp;
  }

  it('leaves nothing on disk when the client goes away mid-download', async () => {
    // A site whose export is larger than the socket buffers: a 6 MB photo that does not compress.
    const photo = randomBytes(6 * 1024 * 1024);
    const origin = http.createServer((req, res) => {
      if (req.url === '/photo.jpg')
        return res.writeHead(200, { 'content-type': 'image/jpeg' }).end(photo);
      if (req.url === '/') {
        return res
          .writeHead(200, { 'content-type': 'text/html' })
          .end('<!doctype html><title>Big</title><img src="/photo.jpg">');
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => origin.close(() => resolve())));
    const t = await createTestApp({ ...SERVICE_ENV });
    cleanups.push(() => t.close());
    const owner = await signUp(t);
    const sourceUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}/`;
    const { id } = (await clone(t, { sourceUrl }, owner.headers)).json();
    expect((await pollToEnd(t, id, owner.headers)).at(-1)?.status).toBe('completed');

    const tmp = exportTmpdir();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const port = (t.app.server.address() as AddressInfo).port;
    for (let round = 0; round < 3; round++) {
      await new Promise<void>((resolve, reject) => {
        const request = http.get(
          {
            host: '127.0.0.1',
            port,
            path: `/api/domains/clone/${id}/export.zip`,
            headers: owner.headers,
          },
          (res) => {
            expect(res.statusCode).toBe(200);
            res.once('data', () => {
              // The first bytes arrived, and the visitor closes the tab.
              request.destroy();
              resolve();
            });
          },
        );
        request.on('error', (error) => (request.destroyed ? undefined : reject(error)));
      });
    }
    const exports = () => fs.readdirSync(tmp).filter((name) => name.startsWith('mirror-export-'));
    await expect.poll(exports, { timeout: 10_000 }).toEqual([]);
  });

  it('ends the download, never the process, when a file is gone before the zip reads it', async () => {
    // What a client that goes away at the wrong moment causes: the folder is removed while the zip
    // still has files to read. The read error used to be thrown out of the process.
    const site = await startFixtureSite();
    cleanups.push(() => site.close());
    const t = await createTestApp({ ...SERVICE_ENV });
    cleanups.push(() => t.close());
    const owner = await signUp(t);
    const { id } = (await clone(t, { sourceUrl: site.url }, owner.headers)).json();
    expect((await pollToEnd(t, id, owner.headers)).at(-1)?.status).toBe('completed');
    const tmp = exportTmpdir();
    const user = await t.app.database.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', owner.userId)
      .executeTakeFirstOrThrow();

    const zip = await t.app.sitesService.exportZip(user, id);
    for (const name of fs.readdirSync(tmp)) fs.rmSync(path.join(tmp, name), { recursive: true });
    const read = async () => {
      for await (const chunk of zip) void chunk;
    };
    await expect(read()).rejects.toThrow(/ENOENT/);
    expect(fs.readdirSync(tmp)).toEqual([]);
  });

  it('names a site by its home page title, and reads it for versions made before titles were kept', async () => {
    const { site, t } = await setup();
    const owner = await signUp(t);
    const { id } = (await clone(t, { sourceUrl: site.url }, owner.headers)).json();
    expect((await pollToEnd(t, id, owner.headers)).at(-1)?.status).toBe('completed');
    const titles = async () =>
      (
        (await t.app.inject({ url: '/api/domains/clones', headers: owner.headers })).json() as {
          title: string | null;
        }[]
      ).map((s) => s.title);
    expect(await titles()).toEqual(['Fixture v1']);

    // A version from before migration 0017 has no title yet: listing the sites reads it once.
    const db = t.app.database.db;
    await db.updateTable('site_versions').set({ title: null }).execute();
    expect(await titles()).toEqual(['Fixture v1']);
    expect(await db.selectFrom('site_versions').select('title').execute()).toEqual([
      { title: 'Fixture v1' },
    ]);

    // A home page without a title: the site is named by its host (null), and that is kept.
    await db.updateTable('site_versions').set({ title: '' }).execute();
    expect(await titles()).toEqual([null]);
    const single = await t.app.inject({ url: `/api/domains/clone/${id}`, headers: owner.headers });
    expect(single.json().title).toBeNull();
  });

  it('holds exactly the files the site serves, for a site whose links say index.html', async () => {
    // A Start Bootstrap theme: its home link is `index.html`, so the copy has `/` and `/index.html`.
    // The zip used to hold a stray `index-<hash>.html` beside `index.html`.
    const home =
      '<!doctype html><html><head><title>Clean Blog</title><link rel="stylesheet" href="css/styles.css"></head>' +
      '<body><a href="index.html">Home</a> <a href="about.html">About</a><img src="assets/bg.svg"></body></html>';
    const files: Record<string, [string, string]> = {
      '/': ['text/html', home],
      '/index.html': ['text/html', home],
      '/about.html': [
        'text/html',
        '<!doctype html><title>About</title><a href="index.html">Home</a>',
      ],
      '/css/styles.css': ['text/css', 'body{background:url(../assets/bg.svg)}'],
      '/assets/bg.svg': ['image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg"/>'],
    };
    const origin = http.createServer((req, res) => {
      const file = files[new URL(req.url ?? '/', 'http://x').pathname];
      if (!file) return res.writeHead(404).end();
      res.writeHead(200, { 'content-type': file[0] }).end(file[1]);
    });
    await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => origin.close(() => resolve())));
    const t = await createTestApp({ ...SERVICE_ENV });
    cleanups.push(() => t.close());
    const owner = await signUp(t);
    const sourceUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}/`;
    const { id } = (await clone(t, { sourceUrl }, owner.headers)).json();
    expect((await pollToEnd(t, id, owner.headers)).at(-1)?.status).toBe('completed');

    const zip = await t.app.inject({
      url: `/api/domains/clone/${id}/export.zip`,
      headers: owner.headers,
    });
    expect(zip.statusCode).toBe(200);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zip-'));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    fs.writeFileSync(path.join(dir, 'site.zip'), zip.rawPayload);
    const names = execFileSync(
      'python3',
      [
        '-c',
        'import sys,zipfile; print("\\n".join(zipfile.ZipFile(sys.argv[1]).namelist()))',
        path.join(dir, 'site.zip'),
      ],
      { encoding: 'utf8' },
    );
    expect(names.trim().split('\n').sort()).toEqual([
      'about.html',
      'assets/bg.svg',
      'css/styles.css',
      'index.html',
    ]);
  });
});

describe('a killed process', () => {
  /** The real server on the test app's data: database, job queue and blobs of this run. */
  function startServer(storage: Record<string, string>) {
    return spawnServer({ ...storage, JOB_LEASE_MS: '2000', ...SERVICE_ENV });
  }

  it('picks the job up again after a restart, serving the previous version meanwhile', async () => {
    const site: FixtureSite = await startFixtureSite(20);
    cleanups.push(() => site.close());
    const t = await createTestApp({ ...SERVICE_ENV });
    const storage = sharedStorageEnv(t.config);
    const owner = await signUp(t);
    const { id, previewUrl } = (await clone(t, { sourceUrl: site.url }, owner.headers)).json();
    await pollToEnd(t, id, owner.headers);
    await t.app.close();
    cleanups.push(() => t.close());

    // Version 2 is slow to fetch: kill the server while it is being mirrored.
    site.version = 2;
    site.delayMs = 150;
    const first = startServer(storage);
    const port = await first.port;
    const base = `http://127.0.0.1:${port}`;
    const api = (p: string, init: RequestInit = {}) =>
      fetch(`${base}${p}`, {
        ...init,
        headers: { ...owner.headers, ...init.headers },
      });
    const siteHost = new URL(previewUrl).hostname;
    // fetch() drops a Host header; node:http sends it, as a browser on {sub}.localhost would.
    const servedPage = async (child: { port: Promise<string> }) => {
      const port = Number(await child.port);
      return new Promise<string>((resolve, reject) => {
        http
          .get({ host: '127.0.0.1', port, path: '/', headers: { host: siteHost } }, (res) => {
            let body = '';
            res.on('data', (c: Buffer) => (body += c.toString()));
            res.on('end', () => resolve(body));
          })
          .on('error', reject);
      });
    };
    expect((await api(`/api/domains/clone/${id}/remirror`, { method: 'POST' })).status).toBe(202);
    await waitFor(
      async () =>
        ((await (await api(`/api/domains/clone/${id}/status`)).json()) as { status: string })
          .status === 'processing'
          ? true
          : undefined,
      20_000,
    );
    await waitFor(() => (site.requests > 8 ? true : undefined), 20_000);
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));

    site.delayMs = 0;
    const second = startServer(storage);
    cleanups.push(() => void second.child.kill('SIGTERM'));
    expect(await servedPage(second)).toContain('Version 1');
    const secondApi = async <T>(p: string) =>
      (await (
        await fetch(`http://127.0.0.1:${await second.port}${p}`, { headers: owner.headers })
      ).json()) as T;
    await waitFor(
      async () =>
        (await secondApi<{ status: string }>(`/api/domains/clone/${id}/status`)).status ===
        'completed'
          ? true
          : undefined,
      40_000,
    );
    expect(await servedPage(second)).toContain('Version 2');
    const versions = await secondApi<{ number: number; status: string }[]>(
      `/api/domains/clone/${id}/versions`,
    );
    expect(versions.map((v: { number: number; status: string }) => [v.number, v.status])).toEqual([
      [2, 'completed'],
      [1, 'completed'],
    ]);
  }, 90_000);
});
