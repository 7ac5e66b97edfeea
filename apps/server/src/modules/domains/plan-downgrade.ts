import { getPlan, PLAN_DOWNGRADE_GRACE_DAYS, type PlanId } from '@mirror/contract';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../platform/db/schema.js';

/**
 * Custom domains beyond an account's plan (issue 18, item 5). After a downgrade the account keeps
 * the custom domains its new plan includes, the most recently added first; the others keep serving
 * for a grace period (`PLAN_DOWNGRADE_GRACE_DAYS`) and are then detached: the domain row is
 * removed (the name is free again; the site keeps its subdomain address). Which domains go is
 * decided again when the deadline comes, so deleting domains or upgrading meanwhile keeps the rest.
 */

type Executor = Kysely<Database> | Transaction<Database>;
const DAY = 86_400_000;

export interface DetachingDomain {
  id: string;
  domain: string;
  siteId: string | null;
  /** ISO time; null when none is stored yet. */
  detachAt: string | null;
}

export const graceEnd = (from: Date) =>
  new Date(from.getTime() + PLAN_DOWNGRADE_GRACE_DAYS * DAY).toISOString();

/** The owner's custom domains, newest first, split at the plan's number. */
export async function customDomainState(db: Executor, ownerId: string, plan: PlanId) {
  const rows = await db
    .selectFrom('domains')
    .select(['id', 'domain', 'site_id', 'detach_at'])
    .where('owner_id', '=', ownerId)
    .where('kind', '=', 'custom')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  const limit = getPlan(plan).limits.customDomains;
  const toItem = (r: (typeof rows)[number]): DetachingDomain => ({
    id: r.id,
    domain: r.domain,
    siteId: r.site_id,
    detachAt: r.detach_at,
  });
  return {
    count: rows.length,
    limit,
    kept: rows.slice(0, limit).map(toItem),
    over: rows.slice(limit).map(toItem),
  };
}

/**
 * Sets the detach deadline of each custom domain beyond the plan (`from` plus the grace period; an
 * earlier deadline already set stays) and clears it on the ones the plan includes (an upgrade
 * within the grace period). Answers the domains to be detached with their deadlines, and whether
 * any deadline was newly set.
 */
export async function scheduleDetachments(
  db: Executor,
  ownerId: string,
  plan: PlanId,
  from: Date,
): Promise<{ detaching: (DetachingDomain & { detachAt: string })[]; scheduled: boolean }> {
  const { kept, over } = await customDomainState(db, ownerId, plan);
  const cancelled = kept.filter((d) => d.detachAt !== null).map((d) => d.id);
  if (cancelled.length > 0) {
    await db.updateTable('domains').set({ detach_at: null }).where('id', 'in', cancelled).execute();
  }
  const deadline = graceEnd(from);
  const fresh = over.filter((d) => d.detachAt === null).map((d) => d.id);
  if (fresh.length > 0) {
    await db
      .updateTable('domains')
      .set({ detach_at: deadline })
      .where('id', 'in', fresh)
      .where('detach_at', 'is', null)
      .execute();
  }
  return {
    detaching: over.map((d) => ({ ...d, detachAt: d.detachAt ?? deadline })),
    scheduled: fresh.length > 0,
  };
}

/**
 * Owners with custom domains beyond their plan that have no deadline yet (a downgrade from before
 * deadlines existed, or a domain added in a race with one): the periodic upkeep schedules them.
 */
export async function ownersMissingDeadlines(
  db: Executor,
): Promise<{ ownerId: string; plan: PlanId }[]> {
  const rows = await db
    .selectFrom('domains')
    .innerJoin('users', 'users.id', 'domains.owner_id')
    .select(['domains.owner_id', 'users.plan'])
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('domains.kind', '=', 'custom')
    .groupBy(['domains.owner_id', 'users.plan'])
    .execute();
  const candidates = rows.filter((r) => Number(r.n) > getPlan(r.plan).limits.customDomains);
  const missing: { ownerId: string; plan: PlanId }[] = [];
  for (const row of candidates) {
    const { over } = await customDomainState(db, row.owner_id, row.plan);
    if (over.some((d) => d.detachAt === null))
      missing.push({ ownerId: row.owner_id, plan: row.plan });
  }
  return missing;
}

export interface Detached {
  ownerId: string;
  domains: { id: string; domain: string; siteId: string | null }[];
}

/**
 * Detaches the custom domains whose deadline has come and that are still beyond their owner's
 * plan; a deadline on a domain the plan now includes is cleared instead. Answers what was detached,
 * per owner.
 */
export async function detachDueDomains(db: Kysely<Database>, now: Date): Promise<Detached[]> {
  const due = await db
    .selectFrom('domains')
    .innerJoin('users', 'users.id', 'domains.owner_id')
    .select(['domains.owner_id', 'users.plan'])
    .where('domains.kind', '=', 'custom')
    .where('domains.detach_at', '<=', now.toISOString())
    .groupBy(['domains.owner_id', 'users.plan'])
    .execute();
  const detached: Detached[] = [];
  for (const { owner_id: ownerId, plan } of due) {
    const { kept, over } = await customDomainState(db, ownerId, plan);
    const keptWithDeadline = kept.filter((d) => d.detachAt !== null).map((d) => d.id);
    if (keptWithDeadline.length > 0) {
      await db
        .updateTable('domains')
        .set({ detach_at: null })
        .where('id', 'in', keptWithDeadline)
        .execute();
    }
    const gone = over.filter((d) => d.detachAt !== null && d.detachAt <= now.toISOString());
    if (gone.length === 0) continue;
    // Conditional on the deadline: a domain whose deadline an upgrade cleared meanwhile stays.
    const removed = await db
      .deleteFrom('domains')
      .where(
        'id',
        'in',
        gone.map((d) => d.id),
      )
      .where('detach_at', '<=', now.toISOString())
      .returning('id')
      .execute();
    const ids = new Set(removed.map((r) => r.id));
    const domains = gone
      .filter((d) => ids.has(d.id))
      .map((d) => ({ id: d.id, domain: d.domain, siteId: d.siteId }));
    if (domains.length > 0) detached.push({ ownerId, domains });
  }
  return detached;
}
