import { getPlan, PLAN_LIMIT_MESSAGES, type PlanId, type SyncSchedule } from '@mirror/contract';
import type { Kysely, Transaction } from 'kysely';
import { forbidden } from '../../errors.js';
import type { Database } from '../../platform/db/schema.js';

/**
 * Plan limits on sites an account already has (issue 18, item 5). A downgrade deletes nothing: an
 * account with more sites than its plan includes keeps them all, served as they are, but only the
 * most recently created ones, as many as the plan includes, can be re-mirrored, customized,
 * rewritten or synced on a schedule; the others are read-only until sites are deleted or the plan
 * is upgraded. Scheduled sync needs a plan that has it (`limits.scheduledSync`).
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
 * Refuses (403, nothing written) a change to a site beyond the owner's plan: re-mirror,
 * customization, AI rewrite, turning a scheduled sync on.
 */
export async function assertSiteEditable(
  db: Executor,
  owner: { id: string; plan: PlanId },
  siteId: string,
): Promise<void> {
  if (getPlan(owner.plan).limits.mirrors === null) return;
  const state = await siteLimitState(db, owner.id, owner.plan);
  if (state.readOnly.some((site) => site.id === siteId)) {
    throw forbidden(PLAN_LIMIT_MESSAGES.siteReadOnly(state.limit!, state.count));
  }
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
 * site is not read-only. Checked by the sync loop itself, so a row left in another state (an older
 * downgrade, a write that raced one) never starts a run.
 */
export async function mayStartScheduledSync(db: Executor, siteId: string): Promise<boolean> {
  const site = await db
    .selectFrom('sites')
    .innerJoin('users', 'users.id', 'sites.owner_id')
    .select(['sites.owner_id', 'users.plan'])
    .where('sites.id', '=', siteId)
    .executeTakeFirst();
  if (!site?.owner_id) return false;
  const state = await siteLimitState(db, site.owner_id, site.plan);
  return !state.syncDisallowed.some((s) => s.id === siteId);
}
