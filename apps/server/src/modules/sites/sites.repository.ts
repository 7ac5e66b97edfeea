import { randomUUID } from 'node:crypto';
import {
  CLONE_STATUS_TEXTS,
  CUSTOMIZE_STATUS_TEXTS,
  PLANS,
  type ChangeReport,
  type EditOp,
  type SyncSchedule,
} from '@mirror/contract';
import type { MirrorStats } from '@mirror/engine';
import type { Db } from '../../platform/db/database.js';
import type {
  SiteStatus,
  SitesTable,
  SiteVersionsTable,
  VersionKind,
} from '../../platform/db/schema.js';
import type { Insertable, Updateable } from 'kysely';

export async function countOwnedSites(db: Db, ownerId: string): Promise<number> {
  const row = await db
    .selectFrom('sites')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('owner_id', '=', ownerId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The demo records among `ids` that nobody has claimed yet and whose mirror did not fail (a failed
 * demo is never worth a plan's slot), newest first.
 */
export async function findClaimableDemos(
  db: Db,
  ids: readonly string[],
): Promise<{ id: string; status: SiteStatus }[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('sites')
    .select(['id', 'status'])
    .where('id', 'in', [...ids])
    .where('is_demo', '=', 1)
    .where('owner_id', 'is', null)
    .where('status', '!=', 'failed')
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
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
      // The newest mirror version with a change report: what the site's last sync found.
      eb
        .selectFrom('site_versions')
        .select('site_versions.change_digest')
        .whereRef('site_versions.site_id', '=', 'sites.id')
        .where('site_versions.change_digest', 'is not', null)
        .orderBy('site_versions.number', 'desc')
        .limit(1)
        .as('last_change_digest'),
      eb
        .selectFrom('site_versions')
        .select('site_versions.finished_at')
        .whereRef('site_versions.site_id', '=', 'sites.id')
        .where('site_versions.change_digest', 'is not', null)
        .orderBy('site_versions.number', 'desc')
        .limit(1)
        .as('last_change_at'),
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
  extra: Pick<
    Updateable<SiteVersionsTable>,
    'plan' | 'changes' | 'unparsed' | 'draft' | 'change_digest' | 'imported_from'
  > = {},
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

/** Records a completed version's thumbnail and its bytes. */
export async function setVersionThumbnail(
  db: Db,
  versionId: string,
  hash: string,
  size: number,
): Promise<void> {
  await db
    .updateTable('site_versions')
    .set({ thumbnail_hash: hash, thumbnail_size: size })
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

/**
 * The mirror a version was made from: the version itself for a mirror, else the mirror at the
 * root of its customizations and rewrites (what a change report compares a new mirror with, so
 * the owner's own edits never read as changes of the site).
 */
export async function findMirrorBase(db: Db, versionId: string) {
  let id: string | null = versionId;
  for (let hops = 0; id !== null && hops < 1_000; hops++) {
    const version = await db
      .selectFrom('site_versions')
      .select(['id', 'kind', 'manifest_hash', 'base_version_id'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!version) return undefined;
    if (version.kind === 'mirror') return { id: version.id, manifestHash: version.manifest_hash };
    id = version.base_version_id;
  }
  return undefined;
}

/**
 * A scheduled sync that found the site unchanged (issue 33): its version and the steps waiting for
 * it go, the site is as it was, and the live version says when it was last found unchanged.
 */
export async function dropUnchangedSync(
  db: Db,
  run: { siteId: string; versionId: string; liveVersionId: string; checkedAt: string },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('site_versions')
      .where('base_version_id', '=', run.versionId)
      .where('status', '=', 'pending')
      .execute();
    await trx.deleteFrom('site_versions').where('id', '=', run.versionId).execute();
    await trx
      .updateTable('site_versions')
      .set({ checked_unchanged_at: run.checkedAt })
      .where('id', '=', run.liveVersionId)
      .execute();
    await trx
      .updateTable('sites')
      .set({
        ...RUN_COMPLETED,
        ...RUN_ENDED,
        current_version_id: run.liveVersionId,
        updated_at: run.checkedAt,
      })
      .where('id', '=', run.siteId)
      .execute();
  });
}

/** A site whose run completed with nothing left to do. */
export const RUN_COMPLETED = {
  status: 'completed',
  current_status: CLONE_STATUS_TEXTS.completed,
  progress: 1,
  estimated_time: 0,
} as const;

/** What a run in progress shows of itself, cleared when it ends. */
export const RUN_ENDED = { error: null, run_counts: null, current_url: null } as const;

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

export async function insertSite(db: Db, site: Insertable<SitesTable>): Promise<void> {
  await db.insertInto('sites').values(site).execute();
}

export async function deleteSite(db: Db, id: string): Promise<void> {
  await db.deleteFrom('sites').where('id', '=', id).execute();
}

/** A step recorded with a run, started by the run's job once the mirror succeeds. */
export interface RunStep {
  kind: Exclude<VersionKind, 'mirror'>;
  instructions: string | null;
  idea: string | null;
  ops: EditOp[];
  carried?: boolean;
}

/**
 * A new pending mirror version (and the step to run after it), and the site's state reset for
 * its run, in one transaction.
 */
export async function insertRun(
  db: Db,
  siteId: string,
  versionId: string,
  followUp: RunStep | undefined,
  now: string,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const number = await nextVersionNumber(trx, siteId);
    const pending = {
      site_id: siteId,
      status: 'pending' as const,
      manifest_hash: null,
      error: null,
      created_at: now,
      finished_at: null,
    };
    await trx
      .insertInto('site_versions')
      .values({ ...pending, id: versionId, number })
      .execute();
    if (followUp) {
      await trx
        .insertInto('site_versions')
        .values({
          ...pending,
          id: randomUUID(),
          number: number + 1,
          kind: followUp.kind,
          base_version_id: versionId,
          instructions: followUp.instructions,
          idea: followUp.idea,
          requested_ops: followUp.ops.length > 0 ? JSON.stringify(followUp.ops) : null,
          carried: followUp.carried ? 1 : 0,
        })
        .execute();
    }
    await trx
      .updateTable('sites')
      .set({
        status: 'pending',
        current_status: CLONE_STATUS_TEXTS.validating,
        progress: 0,
        estimated_time: null,
        error: null,
        error_kind: null,
        error_detail: null,
        run_counts: null,
        current_url: null,
        current_version_id: versionId,
        updated_at: now,
      })
      .where('id', '=', siteId)
      .execute();
  });
}

export async function setLiveVersion(db: Db, siteId: string, versionId: string): Promise<void> {
  await db
    .updateTable('sites')
    .set({ live_version_id: versionId, updated_at: new Date().toISOString() })
    .where('id', '=', siteId)
    .execute();
}

/** The version was deleted (pruned) before it could be published: nothing changed. */
class VersionGone extends Error {}

/**
 * The live pointer moves to the version; a published draft becomes a version like any other.
 * False when the version is gone: the site's row is taken first (version pruning takes it too), so
 * a version pruned meanwhile is seen here and the pointer never names a deleted version.
 */
export async function publishVersion(
  db: Db,
  siteId: string,
  version: { id: string; draft: number },
  /** More writes of the publish (a draft's settings of the site's forms), in its transaction. */
  alsoWrite?: (trx: Db) => Promise<void>,
): Promise<boolean> {
  try {
    await db.transaction().execute(async (trx) => {
      await setLiveVersion(trx, siteId, version.id);
      await alsoWrite?.(trx);
      const still = await trx
        .selectFrom('site_versions')
        .select('id')
        .where('id', '=', version.id)
        .where('site_id', '=', siteId)
        .where('status', '=', 'completed')
        .executeTakeFirst();
      if (!still) throw new VersionGone();
      if (version.draft === 1) {
        await trx
          .updateTable('site_versions')
          .set({ draft: 0 })
          .where('id', '=', version.id)
          .execute();
        // The status stops asking for a review once no draft waits for one (issue 31).
        await trx
          .updateTable('sites')
          .set({ current_status: CUSTOMIZE_STATUS_TEXTS.published })
          .where('id', '=', siteId)
          .where('current_status', 'in', [
            CUSTOMIZE_STATUS_TEXTS.draftReady,
            CUSTOMIZE_STATUS_TEXTS.editsReady,
          ])
          .where(({ not, exists, selectFrom }) =>
            not(
              exists(
                selectFrom('site_versions')
                  .select('id')
                  .where('site_id', '=', siteId)
                  .where('draft', '=', 1),
              ),
            ),
          )
          .execute();
      }
    });
    return true;
  } catch (err) {
    if (err instanceof VersionGone) return false;
    throw err;
  }
}

export async function setSubdomain(db: Db, siteId: string, subdomain: string): Promise<void> {
  await db
    .updateTable('sites')
    .set({ subdomain, updated_at: new Date().toISOString() })
    .where('id', '=', siteId)
    .execute();
}

/** The schedule and the next sync's time (none when off, or to turn a sync off unasked). */
export async function setSyncSchedule(
  db: Db,
  siteId: string,
  schedule: SyncSchedule,
  nextSyncAt: string | null,
  updatedAt?: string,
): Promise<void> {
  await db
    .updateTable('sites')
    .set({
      sync_schedule: schedule,
      next_sync_at: nextSyncAt,
      ...(updatedAt ? { updated_at: updatedAt } : {}),
    })
    .where('id', '=', siteId)
    .execute();
}

export async function setNextSync(db: Db, siteId: string, nextSyncAt: string): Promise<void> {
  await db
    .updateTable('sites')
    .set({ next_sync_at: nextSyncAt })
    .where('id', '=', siteId)
    .execute();
}

/** Deletes the unclaimed demos past their time; answers their ids. */
export async function deleteExpiredDemos(db: Db, now: string): Promise<string[]> {
  const rows = await db
    .deleteFrom('sites')
    .where('owner_id', 'is', null)
    .where('expires_at', '<=', now)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/** Sites whose scheduled sync is due and that are not running now. */
export function findDueSyncs(db: Db, now: string, running: readonly SiteStatus[]) {
  return db
    .selectFrom('sites')
    .select(['id', 'sync_schedule'])
    .where('sync_schedule', '!=', 'off')
    .where('next_sync_at', '<=', now)
    .where('status', 'not in', [...running])
    .execute();
}

/** A version with its site's owner (what the jobs of other modules check first). */
export function findVersionWithOwner(db: Db, versionId: string) {
  return db
    .selectFrom('site_versions')
    .innerJoin('sites', 'sites.id', 'site_versions.site_id')
    .select([
      'site_versions.id',
      'site_versions.site_id',
      'site_versions.status',
      'site_versions.manifest_hash',
      'site_versions.thumbnail_hash',
      'sites.owner_id',
    ])
    .where('site_versions.id', '=', versionId)
    .executeTakeFirst();
}

/** A mirror version made from `baseVersionId` outside a run (a fidelity check's repair). */
export async function insertRepairVersion(
  db: Db,
  version: { id: string; siteId: string; baseVersionId: string },
): Promise<void> {
  await db
    .insertInto('site_versions')
    .values({
      id: version.id,
      site_id: version.siteId,
      number: await nextVersionNumber(db, version.siteId),
      status: 'processing',
      manifest_hash: null,
      error: null,
      created_at: new Date().toISOString(),
      finished_at: null,
      kind: 'mirror',
      base_version_id: version.baseVersionId,
    })
    .execute();
}

export async function deleteVersion(db: Db, versionId: string): Promise<void> {
  await db.deleteFrom('site_versions').where('id', '=', versionId).execute();
}

/**
 * Keeps a new mirror version's change report (issue 33), in the caller's transaction with the
 * version's completion; its summary goes on the version for the version history.
 */
export async function saveChangeReport(
  db: Db,
  report: { versionId: string; siteId: string; baseVersionId: string; changes: ChangeReport },
): Promise<void> {
  await db
    .insertInto('change_reports')
    .values({
      version_id: report.versionId,
      site_id: report.siteId,
      base_version_id: report.baseVersionId,
      report: JSON.stringify(report.changes),
      created_at: new Date().toISOString(),
    })
    .onConflict((oc) => oc.column('version_id').doNothing())
    .execute();
}

/** A version's change report, with the number of the version it was compared with (if kept). */
export async function findChangeReport(db: Db, siteId: string, versionId: string) {
  const row = await db
    .selectFrom('change_reports')
    .leftJoin('site_versions as base', 'base.id', 'change_reports.base_version_id')
    .select([
      'change_reports.report',
      'change_reports.base_version_id',
      'base.number as base_number',
    ])
    .where('change_reports.site_id', '=', siteId)
    .where('change_reports.version_id', '=', versionId)
    .executeTakeFirst();
  return row;
}

/** Deletes change reports older than their site owner's plan keeps them (`reportRetentionDays`). */
export async function deleteChangeReportsPastRetention(db: Db, now: Date): Promise<void> {
  for (const plan of PLANS) {
    const before = new Date(now.getTime() - plan.limits.reportRetentionDays * 86_400_000);
    await db
      .deleteFrom('change_reports')
      .where('created_at', '<', before.toISOString())
      .where('site_id', 'in', (eb) =>
        eb
          .selectFrom('sites')
          .innerJoin('users', 'users.id', 'sites.owner_id')
          .select('sites.id')
          .where('users.plan', '=', plan.id),
      )
      .execute();
  }
}
