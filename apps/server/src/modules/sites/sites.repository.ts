import type { MirrorStats } from '@mirror/engine';
import type { Db } from '../../platform/db/database.js';
import type { SiteStatus, SiteVersionsTable } from '../../platform/db/schema.js';
import type { Updateable } from 'kysely';

export async function countOwnedSites(db: Db, ownerId: string): Promise<number> {
  const row = await db
    .selectFrom('sites')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('owner_id', '=', ownerId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Ids among `ids` that are demo records nobody has claimed yet. */
export async function findUnclaimedDemoIds(db: Db, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('sites')
    .select('id')
    .where('id', 'in', [...ids])
    .where('is_demo', '=', 1)
    .where('owner_id', 'is', null)
    .orderBy('created_at')
    .execute();
  return rows.map((r) => r.id);
}

/** Gives the demo records to the owner; only rows still unclaimed change, so a race claims each once. */
export async function claimDemoSites(
  db: Db,
  ownerId: string,
  ids: readonly string[],
  now: string,
): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .updateTable('sites')
    .set({ owner_id: ownerId, is_demo: 0, expires_at: null, updated_at: now })
    .where('id', 'in', [...ids])
    .where('is_demo', '=', 1)
    .where('owner_id', 'is', null)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/** Sites with the thumbnail and title of their live version (what a clone record shows). */
function selectSites(db: Db) {
  return db
    .selectFrom('sites')
    .selectAll()
    .select((eb) => [
      eb
        .selectFrom('site_versions')
        .select('site_versions.thumbnail_hash')
        .whereRef('site_versions.id', '=', 'sites.live_version_id')
        .as('live_thumbnail_hash'),
      eb
        .selectFrom('site_versions')
        .select('site_versions.title')
        .whereRef('site_versions.id', '=', 'sites.live_version_id')
        .as('live_title'),
    ]);
}

export function findSite(db: Db, id: string) {
  return selectSites(db).where('id', '=', id).executeTakeFirst();
}

export function findSiteBySubdomain(db: Db, subdomain: string) {
  return db.selectFrom('sites').selectAll().where('subdomain', '=', subdomain).executeTakeFirst();
}

export function listOwnedSites(db: Db, ownerId: string) {
  return selectSites(db).where('owner_id', '=', ownerId).orderBy('created_at', 'desc').execute();
}

export async function isSubdomainTaken(db: Db, subdomain: string): Promise<boolean> {
  return (await findSiteBySubdomain(db, subdomain)) !== undefined;
}

export function listVersions(db: Db, siteId: string) {
  return db
    .selectFrom('site_versions')
    .selectAll()
    .where('site_id', '=', siteId)
    .orderBy('number', 'desc')
    .execute();
}

export function findVersion(db: Db, siteId: string, versionId: string) {
  return db
    .selectFrom('site_versions')
    .selectAll()
    .where('site_id', '=', siteId)
    .where('id', '=', versionId)
    .executeTakeFirst();
}

export async function nextVersionNumber(db: Db, siteId: string): Promise<number> {
  const row = await db
    .selectFrom('site_versions')
    .select((eb) => eb.fn.max<number>('number').as('n'))
    .where('site_id', '=', siteId)
    .executeTakeFirst();
  return Number(row?.n ?? 0) + 1;
}

/**
 * Marks a run's version completed with its manifest and counts (plus what the step adds), in the
 * caller's transaction together with the site's own update.
 */
export async function completeVersion(
  db: Db,
  versionId: string,
  done: {
    manifestHash: string;
    stats: Pick<MirrorStats, 'pages' | 'assets' | 'bytes'>;
    /** URLs that failed, in all. */
    failed: number;
    finishedAt: string;
    /** The home page's title; none is stored as '' (known to have none). */
    title: string | undefined;
  },
  extra: Pick<Updateable<SiteVersionsTable>, 'plan' | 'changes' | 'unparsed' | 'draft'> = {},
): Promise<void> {
  const { stats, failed } = done;
  await db
    .updateTable('site_versions')
    .set({
      status: 'completed',
      manifest_hash: done.manifestHash,
      pages: stats.pages,
      assets: stats.assets,
      bytes: stats.bytes,
      failed_urls: failed,
      finished_at: done.finishedAt,
      title: done.title ?? '',
      ...extra,
    })
    .where('id', '=', versionId)
    .execute();
}

/** Records a completed version's thumbnail. */
export async function setVersionThumbnail(db: Db, versionId: string, hash: string): Promise<void> {
  await db
    .updateTable('site_versions')
    .set({ thumbnail_hash: hash })
    .where('id', '=', versionId)
    .execute();
}

export interface RunState {
  status: SiteStatus;
  current_status: string;
  progress: number;
  estimated_time: number | null;
  error?: string | null;
  error_kind?: string | null;
  error_detail?: string | null;
  /** `RunCounts` as JSON, while a mirror runs. */
  run_counts?: string | null;
  current_url?: string | null;
}

export async function updateRunState(db: Db, siteId: string, state: RunState): Promise<void> {
  await db
    .updateTable('sites')
    .set({ ...state, updated_at: new Date().toISOString() })
    .where('id', '=', siteId)
    .execute();
}

/**
 * The edits applied on top of the mirror a version was made from, oldest first: the plans of the
 * customizations and published rewrites between that mirror run and `versionId`. A re-mirror
 * applies them again, so a sync never silently undoes what the owner changed.
 */
export async function editsSinceMirror(db: Db, versionId: string): Promise<unknown[]> {
  const plans: unknown[][] = [];
  let id: string | null = versionId;
  for (let hops = 0; id !== null && hops < 1_000; hops++) {
    const version = await db
      .selectFrom('site_versions')
      .select(['kind', 'plan', 'base_version_id'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!version || version.kind === 'mirror') break;
    if (version.plan) plans.unshift((JSON.parse(version.plan) as { ops?: unknown[] }).ops ?? []);
    id = version.base_version_id;
  }
  return plans.flat();
}

/** The customization or rewrite waiting for this (mirror) version to complete, if any. */
export function findFollowUp(db: Db, versionId: string) {
  return db
    .selectFrom('site_versions')
    .select(['id', 'site_id'])
    .where('base_version_id', '=', versionId)
    .where('status', '=', 'pending')
    .orderBy('number')
    .executeTakeFirst();
}

/** A mirror that failed takes the steps waiting for it along. */
export async function failFollowUps(db: Db, versionId: string, message: string): Promise<void> {
  await db
    .updateTable('site_versions')
    .set({ status: 'failed', error: message, finished_at: new Date().toISOString() })
    .where('base_version_id', '=', versionId)
    .where('status', '=', 'pending')
    .execute();
}

/** Live versions whose title was never read (made before titles were kept), with their manifests. */
export function findUntitledLiveVersions(db: Db, versionIds: readonly string[]) {
  if (versionIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('site_versions')
    .select(['id', 'manifest_hash'])
    .where('id', 'in', [...versionIds])
    .where('title', 'is', null)
    .where('manifest_hash', 'is not', null)
    .execute();
}

export async function setVersionTitle(db: Db, versionId: string, title: string): Promise<void> {
  await db.updateTable('site_versions').set({ title }).where('id', '=', versionId).execute();
}
