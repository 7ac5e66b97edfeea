import { getPlan, PLAN_LIMIT_MESSAGES, type PlanId, type SyncSchedule } from '@mirror/contract';
import type { Kysely, Transaction } from 'kysely';
import { forbidden } from '../../errors.js';
import type { Database } from '../../platform/db/schema.js';

/**
 * Plan limits on sites an account already has (issue 18, item 5). A downgrade deletes nothing: an
 * account with more sites than its plan includes keeps them all, served as they are, but only the
 * most recently created ones, as many as the plan includes, can publish a new version (re-mirror,
 * customization, rewrite, fidelity repair, scheduled sync, rollback: `publishRefusal`); the others
 * are read-only until sites are deleted or the plan is upgraded. Scheduled sync needs a plan that
 * has it (`limits.scheduledSync`).
 */

type Executor = Kysely<Database> | Transaction<Database>;

export interface SiteRef {
  id: string;
  sourceUrl: string;
  /** The live home page's title (the site's name); null names it by its host. */
  title: string | null;
}

/** The owner's sites, most recently created first (the order that decides which stay editable). */
function ownedSitesNewestFirst(db: Executor, ownerId: string) {
  return db
    .selectFrom('sites')
    .select(['id', 'source_url', 'sync_schedule'])
    .select((eb) =>
      eb
        .selectFrom('site_versions')
        .select('site_versions.title')
        .whereRef('site_versions.id', '=', 'sites.live_version_id')
        .as('title'),
    )
    .where('owner_id', '=', ownerId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export interface SiteLimitState {
  count: number;
  limit: number | null;
  /** Sites beyond the limit, newest first: served, never changed. */
  readOnly: (SiteRef & { syncSchedule: SyncSchedule })[];
  /** Sites whose scheduled sync the plan does not allow (read-only ones, or all without sync). */
  syncDisallowed: (SiteRef & { syncSchedule: Exclude<SyncSchedule, 'off'> })[];
}

/** Where an owner's sites stand against a plan. */
export async function siteLimitState(
  db: Executor,
  ownerId: string,
  plan: PlanId,
): Promise<SiteLimitState> {
  const { limits } = getPlan(plan);
  const rows = await ownedSitesNewestFirst(db, ownerId);
  const toRef = (r: (typeof rows)[number]) => ({
    id: r.id,
    sourceUrl: r.source_url,
    title: r.title || null,
    syncSchedule: r.sync_schedule,
  });
  const readOnly = limits.mirrors === null ? [] : rows.slice(limits.mirrors).map(toRef);
  const readOnlyIds = new Set(readOnly.map((r) => r.id));
  const syncDisallowed = rows
    .filter((r) => r.sync_schedule !== 'off')
    .filter((r) => !limits.scheduledSync || readOnlyIds.has(r.id))
    .map((r) => ({ ...toRef(r), syncSchedule: r.sync_schedule as Exclude<SyncSchedule, 'off'> }));
  return { count: rows.length, limit: limits.mirrors, readOnly, syncDisallowed };
}

/**
 * The one gate of every path that publishes a version (issue 30, item 2): a re-mirror, a
 * customization or AI rewrite (and the undo of one of its edits), a fidelity re-check and the
 * repair it publishes, a scheduled sync, and publishing a version by hand (a rollback or a draft).
 * The plan rules decide: a site beyond its owner's plan is read-only. Answers the refusal's
 * message, or null when the site may publish (visitors' demos have no plan to go beyond).
 *
 * Asked when the work is requested (`assertMayPublish`, a 403 before anything is written) and
 * again by the jobs right where they switch the live version, so a plan that drops while a run is
 * under way still holds.
 */
export async function publishRefusal(db: Executor, siteId: string): Promise<string | null> {
  const site = await db
    .selectFrom('sites')
    .innerJoin('users', 'users.id', 'sites.owner_id')
    .select(['sites.owner_id', 'users.plan'])
    .where('sites.id', '=', siteId)
    .executeTakeFirst();
  if (!site?.owner_id || getPlan(site.plan).limits.mirrors === null) return null;
  const state = await siteLimitState(db, site.owner_id, site.plan);
  return state.readOnly.some((s) => s.id === siteId)
    ? PLAN_LIMIT_MESSAGES.siteReadOnly(state.limit!, state.count)
    : null;
}

/** The gate, when the work is asked for: 403 with the plan's message, nothing written. */
export async function assertMayPublish(db: Executor, siteId: string): Promise<void> {
  const refusal = await publishRefusal(db, siteId);
  if (refusal) throw forbidden(refusal);
}

/** Turns off the scheduled syncs the owner's plan does not allow; answers the sites stopped. */
export async function stopDisallowedSyncs(
  db: Executor,
  ownerId: string,
  plan: PlanId,
  now = new Date(),
): Promise<SiteLimitState['syncDisallowed']> {
  const { syncDisallowed } = await siteLimitState(db, ownerId, plan);
  if (syncDisallowed.length > 0) {
    await db
      .updateTable('sites')
      .set({ sync_schedule: 'off', next_sync_at: null, updated_at: now.toISOString() })
      .where(
        'id',
        'in',
        syncDisallowed.map((s) => s.id),
      )
      .execute();
  }
  return syncDisallowed;
}

/**
 * Whether a scheduled sync of this site may start now: its owner's plan has scheduled sync and the
 * publish gate lets the site publish (then: whether the plan syncs hourly). Checked by the sync
 * loop itself, so a row left in another state (an older downgrade, a write that raced one) never
 * starts a run, nor an hourly one on a plan that syncs daily at most.
 */
export async function mayStartScheduledSync(
  db: Executor,
  siteId: string,
): Promise<{ hourly: boolean } | false> {
  const site = await db
    .selectFrom('sites')
    .innerJoin('users', 'users.id', 'sites.owner_id')
    .select(['sites.owner_id', 'users.plan'])
    .where('sites.id', '=', siteId)
    .executeTakeFirst();
  const limits = site?.owner_id ? getPlan(site.plan).limits : null;
  if (!limits?.scheduledSync) return false;
  if ((await publishRefusal(db, siteId)) !== null) return false;
  return { hourly: limits.hourlySync };
}

/**
 * Versions of one site kept for rollback, by plan (issue 30, item 1): the newest this many
 * finished versions stay (failed runs among them), older ones are deleted with their fidelity
 * reports, screenshots and thumbnails. Whatever the plan, the live version, drafts, the versions
 * their edits were made on and any version a run or check in progress uses are kept as well.
 * Visitors' demos keep as many as Reflection.
 */
export const PLAN_VERSIONS_KEPT: Readonly<Record<PlanId, number>> = {
  free: 5,
  pro: 30,
  agency: 100,
};

export function versionsKept(plan: PlanId | null): number {
  return PLAN_VERSIONS_KEPT[plan ?? 'free'];
}
