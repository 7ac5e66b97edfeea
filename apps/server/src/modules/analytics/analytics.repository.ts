import { sql } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import { findOrCreateSecret } from '../../platform/db/server-secrets.js';

type DbOrTrx = Pick<Db, 'selectFrom' | 'insertInto' | 'deleteFrom'>;

const SALT_PREFIX = 'visitor-salt:';
/** Rows per insert statement (three or four parameters each, far below both databases' limits). */
const CHUNK = 250;

/** The day's salt, made by whichever process asks first (every process then reads the same). */
export function findOrCreateSalt(db: Db, day: string): Promise<string> {
  return findOrCreateSecret(db, `${SALT_PREFIX}${day}`);
}

/** Adds the day's visitor marks; answers how many were not there yet (new visitors). */
export async function insertVisitorHashes(
  db: DbOrTrx,
  day: string,
  scope: string,
  hashes: readonly string[],
): Promise<number> {
  let added = 0;
  for (let i = 0; i < hashes.length; i += CHUNK) {
    const rows = hashes.slice(i, i + CHUNK).map((hash) => ({ day, scope, hash }));
    const inserted = await db
      .insertInto('daily_visitors')
      .values(rows)
      .onConflict((oc) => oc.columns(['day', 'scope', 'hash']).doNothing())
      .returning('hash')
      .execute();
    added += inserted.length;
  }
  return added;
}

/** Adds marks like `insertVisitorHashes`, answering which of them were not there yet. */
export async function addVisitorHashes(
  db: DbOrTrx,
  day: string,
  scope: string,
  hashes: readonly string[],
): Promise<Set<string>> {
  const added = new Set<string>();
  for (let i = 0; i < hashes.length; i += CHUNK) {
    const rows = hashes.slice(i, i + CHUNK).map((hash) => ({ day, scope, hash }));
    const inserted = await db
      .insertInto('daily_visitors')
      .values(rows)
      .onConflict((oc) => oc.columns(['day', 'scope', 'hash']).doNothing())
      .returning('hash')
      .execute();
    for (const row of inserted) added.add(row.hash);
  }
  return added;
}

/** Which of these marks the day already holds under `scope`. */
export async function findVisitorHashes(
  db: DbOrTrx,
  day: string,
  scope: string,
  hashes: readonly string[],
): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < hashes.length; i += CHUNK) {
    const rows = await db
      .selectFrom('daily_visitors')
      .select('hash')
      .where('day', '=', day)
      .where('scope', '=', scope)
      .where('hash', 'in', hashes.slice(i, i + CHUNK))
      .execute();
    for (const row of rows) found.add(row.hash);
  }
  return found;
}

export interface SiteDayCounts {
  siteId: string;
  day: string;
  visits: number;
  pageViews: number;
  visitors: number;
  bytes: number;
  botViews: number;
}

export async function addSiteCounts(db: DbOrTrx, c: SiteDayCounts): Promise<void> {
  await db
    .insertInto('site_visits')
    .values({
      site_id: c.siteId,
      day: c.day,
      visits: c.visits,
      page_views: c.pageViews,
      visitors: c.visitors,
      bytes: c.bytes,
      bot_views: c.botViews,
    })
    .onConflict((oc) =>
      oc.columns(['site_id', 'day']).doUpdateSet({
        visits: sql`site_visits.visits + excluded.visits`,
        page_views: sql`site_visits.page_views + excluded.page_views`,
        visitors: sql`site_visits.visitors + excluded.visitors`,
        bytes: sql`site_visits.bytes + excluded.bytes`,
        bot_views: sql`site_visits.bot_views + excluded.bot_views`,
      }),
    )
    .execute();
}

export interface ParkedDayCounts {
  domainId: string;
  day: string;
  pageViews: number;
  visitors: number;
  botViews: number;
}

export async function addParkedCounts(db: DbOrTrx, c: ParkedDayCounts): Promise<void> {
  await db
    .insertInto('parked_visits')
    .values({
      domain_id: c.domainId,
      day: c.day,
      page_views: c.pageViews,
      visitors: c.visitors,
      bot_views: c.botViews,
    })
    .onConflict((oc) =>
      oc.columns(['domain_id', 'day']).doUpdateSet({
        page_views: sql`parked_visits.page_views + excluded.page_views`,
        visitors: sql`parked_visits.visitors + excluded.visitors`,
        bot_views: sql`parked_visits.bot_views + excluded.bot_views`,
      }),
    )
    .execute();
}

export type VisitKeyKind = 'page' | 'referrer';

/** The distinct keys a site has for a day and kind ('' is the "other" bucket). */
export async function listSiteKeys(
  db: DbOrTrx,
  siteId: string,
  day: string,
  kind: VisitKeyKind,
): Promise<string[]> {
  const rows = await db
    .selectFrom('site_visit_keys')
    .select('key')
    .where('site_id', '=', siteId)
    .where('day', '=', day)
    .where('kind', '=', kind)
    .execute();
  return rows.map((row) => row.key);
}

export async function addSiteKeys(
  db: DbOrTrx,
  siteId: string,
  day: string,
  kind: VisitKeyKind,
  hits: ReadonlyMap<string, number>,
): Promise<void> {
  const all = [...hits].map(([key, n]) => ({ site_id: siteId, day, kind, key, hits: n }));
  for (let i = 0; i < all.length; i += CHUNK) {
    await db
      .insertInto('site_visit_keys')
      .values(all.slice(i, i + CHUNK))
      .onConflict((oc) =>
        oc.columns(['site_id', 'day', 'kind', 'key']).doUpdateSet({
          hits: sql`site_visit_keys.hits + excluded.hits`,
        }),
      )
      .execute();
  }
}

/** A site's daily rows from `fromDay` on. */
export function listSiteDays(db: Db, siteId: string, fromDay: string) {
  return db
    .selectFrom('site_visits')
    .select(['day', 'visits', 'page_views', 'visitors', 'bytes', 'bot_views'])
    .where('site_id', '=', siteId)
    .where('day', '>=', fromDay)
    .execute();
}

/** A site's most frequent keys of a kind from `fromDay` on, without the "other" bucket. */
export async function topSiteKeys(
  db: Db,
  siteId: string,
  kind: VisitKeyKind,
  fromDay: string,
  limit: number,
): Promise<{ key: string; hits: number }[]> {
  const rows = await db
    .selectFrom('site_visit_keys')
    .select(['key', (eb) => eb.fn.sum<number | string>('hits').as('hits')])
    .where('site_id', '=', siteId)
    .where('kind', '=', kind)
    .where('day', '>=', fromDay)
    .where('key', '!=', '')
    .groupBy('key')
    .orderBy('hits', 'desc')
    .orderBy('key')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ key: row.key, hits: Number(row.hits) }));
}

/** Sums over a user's sites between two days (inclusive). */
export async function sumOwnerSites(db: Db, ownerId: string, fromDay: string, toDay: string) {
  const row = await db
    .selectFrom('site_visits')
    .innerJoin('sites', 'sites.id', 'site_visits.site_id')
    .select((eb) => [
      eb.fn.sum<number | string | null>('site_visits.page_views').as('page_views'),
      eb.fn.sum<number | string | null>('site_visits.visitors').as('visitors'),
      eb.fn.sum<number | string | null>('site_visits.bytes').as('bytes'),
    ])
    .where('sites.owner_id', '=', ownerId)
    .where('site_visits.day', '>=', fromDay)
    .where('site_visits.day', '<=', toDay)
    .executeTakeFirstOrThrow();
  return {
    pageViews: Number(row.page_views ?? 0),
    visitors: Number(row.visitors ?? 0),
    bytes: Number(row.bytes ?? 0),
  };
}

/** Sums over a user's parked domains between two days (inclusive). */
export async function sumOwnerParked(db: Db, ownerId: string, fromDay: string, toDay: string) {
  const row = await db
    .selectFrom('parked_visits')
    .innerJoin('domains', 'domains.id', 'parked_visits.domain_id')
    .select((eb) => [
      eb.fn.sum<number | string | null>('parked_visits.page_views').as('page_views'),
      eb.fn.sum<number | string | null>('parked_visits.visitors').as('visitors'),
    ])
    .where('domains.owner_id', '=', ownerId)
    .where('parked_visits.day', '>=', fromDay)
    .where('parked_visits.day', '<=', toDay)
    .executeTakeFirstOrThrow();
  return { pageViews: Number(row.page_views ?? 0), visitors: Number(row.visitors ?? 0) };
}

/** Sums per parked domain from `fromDay` on. */
export async function sumParkedDomains(db: Db, domainIds: readonly string[], fromDay: string) {
  if (domainIds.length === 0) return [];
  const rows = await db
    .selectFrom('parked_visits')
    .select((eb) => [
      'domain_id',
      eb.fn.sum<number | string>('page_views').as('page_views'),
      eb.fn.sum<number | string>('visitors').as('visitors'),
    ])
    .where('domain_id', 'in', [...domainIds])
    .where('day', '>=', fromDay)
    .groupBy('domain_id')
    .execute();
  return rows.map((row) => ({
    domainId: row.domain_id,
    pageViews: Number(row.page_views),
    visitors: Number(row.visitors),
  }));
}

/** Drops what retention no longer keeps (each argument: the first day that stays). */
export async function pruneAnalytics(
  db: Db,
  keep: { counts: string; keys: string; visitors: string },
): Promise<void> {
  await db.deleteFrom('site_visits').where('day', '<', keep.counts).execute();
  await db.deleteFrom('parked_visits').where('day', '<', keep.counts).execute();
  await db.deleteFrom('site_visit_keys').where('day', '<', keep.keys).execute();
  await db.deleteFrom('daily_visitors').where('day', '<', keep.visitors).execute();
  await db
    .deleteFrom('server_secrets')
    .where('name', 'like', `${SALT_PREFIX}%`)
    .where('name', '<', `${SALT_PREFIX}${keep.visitors}`)
    .execute();
}
