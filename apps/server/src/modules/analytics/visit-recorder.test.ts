import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../platform/db/database.js';
import { createTestConfig, dropTestStorage } from '../../test/test-app.js';
import { createAnalyticsService } from './analytics.service.js';
import { createVisitRecorder, MAX_KEYS_PER_DAY, type VisitRecorder } from './visit-recorder.js';

// The recorder against the real database (SQLite, or PostgreSQL when DATABASE_URL is set), with
// several recorders on one database standing for several sites processes.

const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const HOST = 'shop.sites.test';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const warnings: string[] = [];
const log = {
  debug: () => undefined,
  warn: (_d: object, message: string) => void warnings.push(message),
};

async function setup() {
  const config = createTestConfig();
  const database = await openDatabase(config.database);
  cleanups.push(async () => {
    await database.destroy();
    await dropTestStorage(config);
  });
  const siteId = randomUUID();
  const now = new Date().toISOString();
  await database.db
    .insertInto('sites')
    .values({
      id: siteId,
      owner_id: null,
      source_url: 'https://origin.test/',
      subdomain: 'shop',
      created_at: now,
      updated_at: now,
    })
    .execute();
  warnings.length = 0;
  return { database, siteId, analytics: createAnalyticsService({ db: database.db }) };
}

function recorder(database: DatabaseHandle, now?: () => number): VisitRecorder {
  const r = createVisitRecorder({ db: database.db, trustProxy: false, log, now });
  cleanups.push(() => r.close());
  return r;
}

/** What the sites host hands over: the request's headers, target and peer. */
function page(
  address: string,
  url = '/',
  headers: Record<string, string> = { 'user-agent': CHROME },
): IncomingMessage {
  return { url, headers: { host: HOST, ...headers }, socket: { remoteAddress: address } } as never;
}

describe('visit recorder', () => {
  it('lets several processes agree on who is new today, in the database', async () => {
    const { database, siteId, analytics } = await setup();
    const first = recorder(database);
    const second = recorder(database);
    first.recordSite(siteId, page('198.51.100.1'), 'page', 100);
    second.recordSite(siteId, page('198.51.100.1', '/about'), 'page', 50);
    second.recordSite(siteId, page('::ffff:198.51.100.2'), 'page', 100);
    second.recordSite(siteId, page('198.51.100.2'), 'asset', 7);
    await first.flush();
    await second.flush();
    // Seen again later, by either process: still the same two people today.
    first.recordSite(siteId, page('198.51.100.2', '/about'), 'page', 50);
    await first.flush();
    const { totals } = await analytics.siteAnalytics(siteId, '7d');
    expect(totals).toEqual({
      visits: 2, // one each: a visit is a session, whichever process saw its pages
      pageViews: 4,
      uniqueVisitors: 2,
      bytes: 307,
      botViews: 0,
    });
    const marks = await database.db.selectFrom('daily_visitors').selectAll().execute();
    // Two visitors today (the others are the half hours of their visits).
    expect(marks.filter((m) => m.scope === siteId)).toHaveLength(2);
    // Neither addresses nor browsers are stored, only their salted marks.
    expect(JSON.stringify(marks)).not.toMatch(/198\.51|Chrome/);
    expect(warnings).toEqual([]);
  });

  it('keeps a bounded number of paths and referrers a day, the rest as "other"', async () => {
    const { database, siteId, analytics } = await setup();
    const first = recorder(database);
    const second = recorder(database);
    for (let i = 0; i < 60; i++)
      first.recordSite(siteId, page('198.51.100.1', `/a${i}`), 'page', 1);
    for (let i = 0; i < 60; i++) {
      second.recordSite(
        siteId,
        page('198.51.100.1', `/b${i}`, { 'user-agent': CHROME, referer: `https://r${i}.example/` }),
        'page',
        1,
      );
      // The page's style sheet: the arrival was a browser's, so its referrer is listed.
      second.recordSite(
        siteId,
        page('198.51.100.1', '/style.css', {
          'user-agent': CHROME,
          referer: `http://${HOST}/b${i}`,
        }),
        'asset',
        1,
      );
    }
    // A known path still counts as itself once the day is full.
    second.recordSite(siteId, page('198.51.100.1', '/a0'), 'page', 1);
    await first.flush();
    await second.flush();
    const keys = await database.db
      .selectFrom('site_visit_keys')
      .select(['kind', 'key', 'hits'])
      .where('site_id', '=', siteId)
      .execute();
    const pages = keys.filter((k) => k.kind === 'page');
    expect(pages.filter((k) => k.key !== '')).toHaveLength(MAX_KEYS_PER_DAY);
    expect(pages.find((k) => k.key === '')?.hits).toBe(120 - MAX_KEYS_PER_DAY);
    expect(pages.find((k) => k.key === '/a0')?.hits).toBe(2);
    expect(keys.filter((k) => k.kind === 'referrer')).toHaveLength(60);
    const report = await analytics.siteAnalytics(siteId, '7d');
    expect(report.totals.pageViews).toBe(121);
    expect(report.topPages[0]).toEqual({ path: '/a0', views: 2 });
    expect(report.topPages).toHaveLength(10);
    expect(report.topPages.map((p) => p.path)).not.toContain('');
  });

  it('counts a visit per session: 3 people reading 3 pages each are 3 visits and 9 page views', async () => {
    const { database, siteId, analytics } = await setup();
    const start = Date.parse('2025-03-10T09:00:00Z');
    let clock = start;
    const first = recorder(database, () => clock);
    const second = recorder(database, () => clock);
    const people = ['198.51.100.1', '198.51.100.2', '2001:db8:5::1'];
    // Each reads three pages a few minutes apart, typed or from a bookmark (no Referer at all),
    // the pages answered by either of two sites processes.
    for (const [n, path] of ['/', '/menu', '/contact'].entries()) {
      clock = start + n * 4 * 60_000;
      for (const [i, address] of people.entries()) {
        (i % 2 === n % 2 ? first : second).recordSite(siteId, page(address, path), 'page', 100);
      }
      await first.flush();
      await second.flush();
    }
    const day = await analytics.siteAnalytics(siteId, '7d', new Date(clock));
    expect(day.totals).toMatchObject({ visits: 3, pageViews: 9, uniqueVisitors: 3 });

    // A pause of under half an hour is the same visit; back after two hours, a new one.
    clock = start + 30 * 60_000;
    first.recordSite(siteId, page('198.51.100.1', '/'), 'page', 100);
    clock = start + 2 * 3_600_000;
    second.recordSite(siteId, page('198.51.100.1', '/menu'), 'page', 100);
    await first.flush();
    await second.flush();
    const later = await analytics.siteAnalytics(siteId, '7d', new Date(clock));
    expect(later.totals).toMatchObject({ visits: 4, pageViews: 11, uniqueVisitors: 3 });
    expect(warnings).toEqual([]);
  });

  it('counts bots apart and keeps them out of visitors, pages and referrers', async () => {
    const { database, siteId, analytics } = await setup();
    const r = recorder(database);
    r.recordSite(siteId, page('198.51.100.1', '/', {}), 'page', 10);
    r.recordSite(siteId, page('198.51.100.1', '/', { 'user-agent': 'curl/8.5.0' }), 'page', 10);
    r.recordSite(
      siteId,
      page('198.51.100.1', '/x', { 'user-agent': 'Googlebot/2.1', referer: 'https://g.example/' }),
      'page',
      10,
    );
    await r.flush();
    const report = await analytics.siteAnalytics(siteId, '7d');
    expect(report.totals).toEqual({
      visits: 0,
      pageViews: 0,
      uniqueVisitors: 0,
      bytes: 30,
      botViews: 3,
    });
    expect(report.topPages).toEqual([]);
    expect(report.topReferrers).toEqual([]);
  });

  it('forgets visitor marks and salts after a day, keys after 90 days, counts after 400', async () => {
    const { database, siteId, analytics } = await setup();
    const day = Date.parse('2024-01-01T12:00:00Z');
    const r = recorder(database, () => day);
    r.recordSite(
      siteId,
      page('198.51.100.1', '/old', { 'user-agent': CHROME, referer: 'https://r.example/' }),
      'page',
      5,
    );
    r.recordSite(
      siteId,
      page('198.51.100.1', '/old.css', { 'user-agent': CHROME, referer: `http://${HOST}/old` }),
      'asset',
      5,
    );
    await r.flush();
    const db = database.db;
    const counts = async () => ({
      days: (
        await db.selectFrom('site_visits').select('day').where('site_id', '=', siteId).execute()
      ).length,
      keys: (
        await db.selectFrom('site_visit_keys').select('day').where('site_id', '=', siteId).execute()
      ).length,
      marks: (
        await db
          .selectFrom('daily_visitors')
          .select('day')
          .where('day', '=', '2024-01-01')
          .execute()
      ).length,
      salts: (
        await db
          .selectFrom('server_secrets')
          .select('name')
          .where('name', '=', 'visitor-salt:2024-01-01')
          .execute()
      ).length,
    });
    // The visitor's mark of the day, and of the half hour the visit was in.
    expect(await counts()).toEqual({ days: 1, keys: 2, marks: 2, salts: 1 });
    await analytics.prune(new Date('2024-01-02T08:00:00Z'));
    expect(await counts()).toEqual({ days: 1, keys: 2, marks: 2, salts: 1 });
    await analytics.prune(new Date('2024-01-03T08:00:00Z'));
    expect(await counts()).toEqual({ days: 1, keys: 2, marks: 0, salts: 0 });
    await analytics.prune(new Date('2024-03-31T08:00:00Z'));
    expect(await counts()).toEqual({ days: 1, keys: 0, marks: 0, salts: 0 });
    await analytics.prune(new Date('2025-02-03T08:00:00Z'));
    expect(await counts()).toEqual({ days: 1, keys: 0, marks: 0, salts: 0 });
    await analytics.prune(new Date('2025-02-04T08:00:00Z'));
    expect(await counts()).toEqual({ days: 0, keys: 0, marks: 0, salts: 0 });
  });
});
