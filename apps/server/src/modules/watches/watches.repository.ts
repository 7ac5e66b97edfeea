import { randomBytes, randomUUID } from 'node:crypto';
import type {
  KeywordRule,
  Watch,
  WatchEmail,
  WatchInput,
  WatchReason,
  WatchRule,
  WatchScope,
  WebhookDelivery,
} from '@mirror/contract';
import type { Selectable } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { WatchesTable, WebhookDeliveriesTable } from '../../platform/db/schema.js';

type WatchRow = Selectable<WatchesTable>;

function toWatch(row: WatchRow): Watch {
  return {
    id: row.id,
    siteId: row.site_id,
    name: row.name,
    scope: row.scope as WatchScope,
    pages: JSON.parse(row.pages) as string[],
    selector: row.selector,
    textFallback: row.text_fallback,
    keywords: JSON.parse(row.keywords) as KeywordRule[],
    minWords: row.min_words,
    email: row.email as WatchEmail,
    webhookUrl: row.webhook_url,
    webhookSecret: row.webhook_secret,
    createdAt: row.created_at,
    lastHitAt: row.last_hit_at,
  };
}

function columnsOf(input: WatchInput) {
  const part = input.scope === 'part';
  return {
    name: input.name,
    scope: input.scope,
    pages: JSON.stringify(input.scope === 'site' ? [] : input.pages),
    selector: part ? input.selector || null : null,
    text_fallback: part ? input.textFallback || null : null,
    keywords: JSON.stringify(input.keywords),
    min_words: input.minWords,
    email: input.email,
    webhook_url: input.webhookUrl,
  };
}

export async function listWatches(db: Db, siteId: string): Promise<Watch[]> {
  const rows = await db
    .selectFrom('watches')
    .selectAll()
    .where('site_id', '=', siteId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toWatch);
}

export async function findWatch(db: Db, siteId: string, id: string): Promise<Watch | undefined> {
  const row = await db
    .selectFrom('watches')
    .selectAll()
    .where('site_id', '=', siteId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? toWatch(row) : undefined;
}

export async function countOwnedWatches(db: Db, ownerId: string): Promise<number> {
  const row = await db
    .selectFrom('watches')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('owner_id', '=', ownerId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertWatch(
  db: Db,
  siteId: string,
  ownerId: string,
  input: WatchInput,
): Promise<Watch> {
  const row: WatchRow = {
    id: randomUUID(),
    site_id: siteId,
    owner_id: ownerId,
    ...columnsOf(input),
    webhook_secret: `whsec_${randomBytes(24).toString('base64url')}`,
    created_at: new Date().toISOString(),
    last_hit_at: null,
  };
  await db.insertInto('watches').values(row).execute();
  return toWatch(row);
}

export async function updateWatch(
  db: Db,
  siteId: string,
  id: string,
  input: WatchInput,
): Promise<Watch | undefined> {
  await db
    .updateTable('watches')
    .set(columnsOf(input))
    .where('site_id', '=', siteId)
    .where('id', '=', id)
    .execute();
  return findWatch(db, siteId, id);
}

export async function deleteWatch(db: Db, siteId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('watches')
    .where('site_id', '=', siteId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** What a mirror run of the site evaluates. */
export async function watchRulesOf(db: Db, siteId: string): Promise<WatchRule[]> {
  return (await listWatches(db, siteId)).map((w) => ({
    id: w.id,
    scope: w.scope,
    pages: w.pages,
    selector: w.selector,
    textFallback: w.textFallback,
    keywords: w.keywords,
    minWords: w.minWords,
  }));
}

export interface HitRecord {
  id: string;
  watch: Watch;
  versionId: string;
  reasons: WatchReason[];
}

/**
 * Keeps a version's hits (of watches that still exist) and marks their watches; hits of watches
 * that mail no one, or mail at once, are not owed to a digest.
 */
export async function insertHits(
  db: Db,
  siteId: string,
  versionId: string,
  hits: { watchId: string; reasons: WatchReason[] }[],
): Promise<HitRecord[]> {
  const watches = new Map((await listWatches(db, siteId)).map((w) => [w.id, w]));
  const now = new Date().toISOString();
  const records: HitRecord[] = [];
  for (const hit of hits) {
    const watch = watches.get(hit.watchId);
    if (!watch) continue;
    const id = randomUUID();
    await db
      .insertInto('watch_hits')
      .values({
        id,
        watch_id: watch.id,
        site_id: siteId,
        version_id: versionId,
        reasons: JSON.stringify(hit.reasons),
        created_at: now,
        mailed_at: watch.email === 'daily' ? null : now,
      })
      .execute();
    await db.updateTable('watches').set({ last_hit_at: now }).where('id', '=', watch.id).execute();
    records.push({ id, watch, versionId, reasons: hit.reasons });
  }
  return records;
}

export interface DigestHit {
  id: string;
  siteId: string;
  versionId: string;
  watchName: string;
  reasons: WatchReason[];
  createdAt: string;
}

/** Owners of daily watches with hits not mailed yet, and when their last digest went. */
export async function ownersOwedDigests(
  db: Db,
): Promise<{ ownerId: string; lastMailedAt: string | null }[]> {
  // One query: the owners with unmailed hits, each with when a daily digest last went out.
  const rows = await db
    .selectFrom('watch_hits')
    .innerJoin('watches', 'watches.id', 'watch_hits.watch_id')
    .select((eb) => [
      'watches.owner_id',
      eb.fn
        .max(
          eb.case().when('watches.email', '=', 'daily').then(eb.ref('watch_hits.mailed_at')).end(),
        )
        .as('at'),
    ])
    .groupBy('watches.owner_id')
    .having((eb) => eb(eb.fn.countAll().filterWhere('watch_hits.mailed_at', 'is', null), '>', 0))
    .execute();
  return rows.map((row) => ({
    ownerId: row.owner_id,
    lastMailedAt: (row.at as string | null) ?? null,
  }));
}

export async function unmailedHitsOf(db: Db, ownerId: string): Promise<DigestHit[]> {
  const rows = await db
    .selectFrom('watch_hits')
    .innerJoin('watches', 'watches.id', 'watch_hits.watch_id')
    .select([
      'watch_hits.id',
      'watch_hits.site_id',
      'watch_hits.version_id',
      'watch_hits.reasons',
      'watch_hits.created_at',
      'watches.name',
    ])
    .where('watches.owner_id', '=', ownerId)
    .where('watch_hits.mailed_at', 'is', null)
    .orderBy('watch_hits.created_at')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    siteId: r.site_id,
    versionId: r.version_id,
    watchName: r.name,
    reasons: JSON.parse(r.reasons) as WatchReason[],
    createdAt: r.created_at,
  }));
}

export async function markMailed(db: Db, hitIds: string[], at: string): Promise<void> {
  if (hitIds.length === 0) return;
  await db.updateTable('watch_hits').set({ mailed_at: at }).where('id', 'in', hitIds).execute();
}

/** Hits of a site's watches, newest first (the feed). */
export async function recentHitsOf(db: Db, siteId: string, limit: number) {
  const rows = await db
    .selectFrom('watch_hits')
    .innerJoin('watches', 'watches.id', 'watch_hits.watch_id')
    .select([
      'watch_hits.id',
      'watch_hits.version_id',
      'watch_hits.reasons',
      'watch_hits.created_at',
      'watches.name',
    ])
    .where('watch_hits.site_id', '=', siteId)
    .orderBy('watch_hits.created_at', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    versionId: r.version_id,
    watchName: r.name,
    reasons: JSON.parse(r.reasons) as WatchReason[],
    createdAt: r.created_at,
  }));
}

type DeliveryRow = Selectable<WebhookDeliveriesTable>;

export function toDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    watchId: row.watch_id,
    versionId: row.version_id,
    url: row.url,
    status: row.status as WebhookDelivery['status'],
    attempts: row.attempts,
    lastStatusCode: row.last_status_code,
    lastError: row.last_error,
    createdAt: row.created_at,
    finishedAt: row.finished_at,
    nextAttemptAt: row.next_attempt_at,
  };
}

export async function insertDelivery(
  db: Db,
  delivery: { id: string; watchId: string; siteId: string; versionId: string; url: string },
  body: string,
): Promise<void> {
  const now = new Date().toISOString();
  await db
    .insertInto('webhook_deliveries')
    .values({
      id: delivery.id,
      watch_id: delivery.watchId,
      site_id: delivery.siteId,
      version_id: delivery.versionId,
      url: delivery.url,
      body,
      status: 'pending',
      attempts: 0,
      last_status_code: null,
      last_error: null,
      created_at: now,
      finished_at: null,
      next_attempt_at: now,
    })
    .execute();
}

export async function findDelivery(db: Db, id: string) {
  const row = await db
    .selectFrom('webhook_deliveries')
    .innerJoin('watches', 'watches.id', 'webhook_deliveries.watch_id')
    .selectAll('webhook_deliveries')
    .select('watches.webhook_secret')
    .where('webhook_deliveries.id', '=', id)
    .executeTakeFirst();
  return row;
}

export async function recordAttempt(
  db: Db,
  id: string,
  attempt: {
    attempts: number;
    status: WebhookDelivery['status'];
    statusCode: number | null;
    error: string | null;
    nextAttemptAt: string | null;
  },
): Promise<void> {
  const done = attempt.status !== 'pending';
  await db
    .updateTable('webhook_deliveries')
    .set({
      attempts: attempt.attempts,
      status: attempt.status,
      last_status_code: attempt.statusCode,
      last_error: attempt.error,
      next_attempt_at: attempt.nextAttemptAt,
      finished_at: done ? new Date().toISOString() : null,
    })
    .where('id', '=', id)
    .execute();
}

export async function listDeliveries(
  db: Db,
  siteId: string,
  limit: number,
): Promise<WebhookDelivery[]> {
  const rows = await db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('site_id', '=', siteId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map(toDelivery);
}

/** The site's feed token, made on first use (two makers at once: the first one stays). */
export async function feedTokenOf(db: Db, siteId: string): Promise<string> {
  const find = () =>
    db.selectFrom('change_feeds').select('token').where('site_id', '=', siteId).executeTakeFirst();
  const found = await find();
  if (found) return found.token;
  await db
    .insertInto('change_feeds')
    .values({ site_id: siteId, token: randomBytes(24).toString('base64url') })
    .onConflict((oc) => oc.column('site_id').doNothing())
    .execute();
  return (await find())!.token;
}

export async function siteOfFeedToken(db: Db, token: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('change_feeds')
    .select('site_id')
    .where('token', '=', token)
    .executeTakeFirst();
  return row?.site_id;
}

/** What notifications call a site: its live home page's title, else its original's host. */
function siteNameOf(title: string | null, sourceUrl: string): string {
  return title || new URL(sourceUrl).host;
}

/** Who is told of a site's changes, and what the site and the version are called. */
export async function notificationContext(db: Db, siteId: string, versionId: string) {
  const row = await db
    .selectFrom('sites')
    .innerJoin('users', 'users.id', 'sites.owner_id')
    .innerJoin('site_versions', (join) =>
      join.onRef('site_versions.site_id', '=', 'sites.id').on('site_versions.id', '=', versionId),
    )
    .select([
      'sites.source_url',
      'users.email',
      'users.name',
      'site_versions.number',
      'site_versions.title',
    ])
    .where('sites.id', '=', siteId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    owner: { to: row.email, name: row.name },
    siteName: siteNameOf(row.title, row.source_url),
    versionNumber: row.number,
  };
}

export async function findUserContact(db: Db, userId: string) {
  const row = await db
    .selectFrom('users')
    .select(['email', 'name'])
    .where('id', '=', userId)
    .executeTakeFirst();
  return row ? { to: row.email, name: row.name } : undefined;
}

export async function siteNames(db: Db, siteIds: string[]): Promise<Map<string, string>> {
  if (siteIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('sites')
    .leftJoin('site_versions', 'site_versions.id', 'sites.live_version_id')
    .select(['sites.id', 'sites.source_url', 'site_versions.title'])
    .where('sites.id', 'in', siteIds)
    .execute();
  return new Map(rows.map((r) => [r.id, siteNameOf(r.title, r.source_url)]));
}

/** Deliveries older than this are forgotten. */
export async function deleteDeliveriesBefore(db: Db, before: string): Promise<void> {
  await db.deleteFrom('webhook_deliveries').where('created_at', '<', before).execute();
}
