import type { PlanId, Subscription } from '@mirror/contract';
import type { Transaction } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { BillingMode, BillingSubscriptionStatus, Database } from '../../platform/db/schema.js';

export type DbOrTrx = Db | Transaction<Database>;

/** Statuses that keep the plan: the user has it (past due: while the payment is retried). */
export const LIVE_STATUSES: BillingSubscriptionStatus[] = ['active', 'trialing', 'past_due'];
/** Live ones and a first payment waiting for confirmation: what the billing screen shows. */
export const CURRENT_STATUSES: BillingSubscriptionStatus[] = [...LIVE_STATUSES, 'incomplete'];

export async function findCustomerId(
  db: DbOrTrx,
  userId: string,
  mode: BillingMode,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('billing_customers')
    .select('customer_id')
    .where('user_id', '=', userId)
    .where('mode', '=', mode)
    .executeTakeFirst();
  return row?.customer_id;
}

/**
 * Stores the customer unless another request stored one first; answers the one kept. Two first
 * payments at once store the same customer (the provider's idempotency key): every unique index
 * is a conflict to ignore, not only the user's. On PostgreSQL the two inserts also meet on the
 * customer id's index, which alone was an error (a 500 for one of the two requests).
 */
export async function saveCustomerId(
  db: Db,
  userId: string,
  mode: BillingMode,
  customerId: string,
): Promise<string> {
  await db
    .insertInto('billing_customers')
    .values({
      user_id: userId,
      mode,
      customer_id: customerId,
      created_at: new Date().toISOString(),
    })
    .onConflict((oc) => oc.doNothing())
    .execute();
  const kept = await findCustomerId(db, userId, mode);
  // Nothing kept for this user: the customer is another user's (never the provider's answer).
  if (!kept) throw new Error(`customer ${customerId} belongs to another user`);
  return kept;
}

export async function findUserIdByCustomer(
  db: DbOrTrx,
  customerId: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('billing_customers')
    .select('user_id')
    .where('customer_id', '=', customerId)
    .executeTakeFirst();
  return row?.user_id;
}

export function findCurrentSubscription(db: DbOrTrx, userId: string) {
  return db
    .selectFrom('subscriptions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('status', 'in', CURRENT_STATUSES)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

export type SubscriptionRecord = NonNullable<Awaited<ReturnType<typeof findCurrentSubscription>>>;

export function toSubscription(row: SubscriptionRecord): Subscription {
  return {
    id: row.id,
    status: row.status,
    plan: row.plan,
    current_period_start: row.current_period_start,
    current_period_end: row.current_period_end,
    cancel_at_period_end: row.cancel_at_period_end === 1,
    trial_end: row.trial_end,
  };
}

/** Records an event id; false when it was recorded before (the event is a replay). */
export async function recordEvent(
  trx: DbOrTrx,
  event: { id: string; type: string; created: number },
): Promise<boolean> {
  const inserted = await trx
    .insertInto('billing_events')
    .values({
      id: event.id,
      type: event.type,
      created: event.created,
      processed_at: new Date().toISOString(),
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export type SubscriptionWrite = 'applied' | 'stale' | 'unknown_customer';

/** Runs in the same transaction when a write changed the user's plan (`at`: the state's time). */
export type PlanChangeHook = (
  trx: DbOrTrx,
  change: { userId: string; from: PlanId; to: PlanId; at: Date },
) => Promise<void>;

/** How far a subscription has got: it never goes back to `incomplete`, nor back from an end. */
const STAGE: Record<BillingSubscriptionStatus, number> = {
  incomplete: 0,
  trialing: 1,
  active: 1,
  past_due: 1,
  unpaid: 2,
  canceled: 2,
  incomplete_expired: 2,
};

/**
 * Event times are whole seconds, so a subscription's first events often share one: within the
 * same second, a state from an earlier stage (`incomplete` after `active`) is the older one.
 */
function isOlder(
  stateAt: number,
  status: BillingSubscriptionStatus,
  stored: { state_at: number; status: BillingSubscriptionStatus },
): boolean {
  if (stateAt !== stored.state_at) return stateAt < stored.state_at;
  return STAGE[status] < STAGE[stored.status];
}

/**
 * Stores what the provider says about a subscription unless newer state is stored already, then
 * sets the user's plan from their live subscriptions. Call inside a transaction.
 */
export async function writeSubscription(
  trx: DbOrTrx,
  input: {
    customerId: string;
    subscription: Subscription;
    stateAt: number;
    onPlanChange?: PlanChangeHook;
  },
): Promise<SubscriptionWrite> {
  const userId = await findUserIdByCustomer(trx, input.customerId);
  if (!userId) return 'unknown_customer';
  const sub = input.subscription;
  const stored = await trx
    .selectFrom('subscriptions')
    .select(['state_at', 'status'])
    .where('id', '=', sub.id)
    .executeTakeFirst();
  if (stored && isOlder(input.stateAt, sub.status, stored)) return 'stale';
  const now = new Date().toISOString();
  const state = {
    plan: sub.plan,
    status: sub.status,
    current_period_start: sub.current_period_start,
    current_period_end: sub.current_period_end,
    cancel_at_period_end: sub.cancel_at_period_end ? 1 : 0,
    trial_end: sub.trial_end,
    state_at: input.stateAt,
    updated_at: now,
  };
  await trx
    .insertInto('subscriptions')
    .values({
      id: sub.id,
      user_id: userId,
      customer_id: input.customerId,
      created_at: now,
      ...state,
    })
    .onConflict((oc) => oc.column('id').doUpdateSet(state))
    .execute();
  await updatePlan(trx, userId, new Date(input.stateAt * 1000), input.onPlanChange);
  return 'applied';
}

/**
 * The plan of the user's most recent live subscription, else free: the one place `users.plan` is
 * written from billing. A change runs `onPlanChange` (the new plan's limits) in the same transaction.
 */
async function updatePlan(
  trx: DbOrTrx,
  userId: string,
  at: Date,
  onPlanChange?: PlanChangeHook,
): Promise<void> {
  const live = await trx
    .selectFrom('subscriptions')
    .select('plan')
    .where('user_id', '=', userId)
    .where('status', 'in', LIVE_STATUSES)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  const plan: PlanId = live?.plan ?? 'free';
  const before = await trx
    .selectFrom('users')
    .select('plan')
    .where('id', '=', userId)
    .executeTakeFirst();
  const changed = await trx
    .updateTable('users')
    .set({ plan, updated_at: new Date().toISOString() })
    .where('id', '=', userId)
    .where('plan', '!=', plan)
    .executeTakeFirst();
  if (before && Number(changed.numUpdatedRows) > 0) {
    await onPlanChange?.(trx, { userId, from: before.plan, to: plan, at });
  }
}

/** Opens the AI rewrite of an owner's site; false when it is not theirs. */
export async function markRewritePaid(
  db: DbOrTrx,
  siteId: string,
  ownerId: string,
): Promise<boolean> {
  const site = await db
    .selectFrom('sites')
    .select(['id', 'ai_rewrite_paid_at'])
    .where('id', '=', siteId)
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();
  if (!site) return false;
  if (!site.ai_rewrite_paid_at) {
    await db
      .updateTable('sites')
      .set({ ai_rewrite_paid_at: new Date().toISOString() })
      .where('id', '=', site.id)
      .execute();
  }
  return true;
}

/** Mirrors a user keeps. */
export async function usageFigures(
  db: Db,
  userId: string,
): Promise<{ mirrors: number; customDomains: number; waitingDomains: number }> {
  const mirrors = await db
    .selectFrom('sites')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('owner_id', '=', userId)
    .executeTakeFirstOrThrow();
  // Every attached custom domain takes one of the plan's, whether its DNS is set up yet or not.
  const domains = await db
    .selectFrom('domains')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .where('owner_id', '=', userId)
    .where('kind', '=', 'custom')
    .groupBy('status')
    .execute();
  const count = (rows: typeof domains) => rows.reduce((n, row) => n + Number(row.n), 0);
  return {
    mirrors: Number(mirrors.n),
    customDomains: count(domains),
    waitingDomains: count(domains.filter((row) => row.status !== 'active')),
  };
}

export async function pruneEvents(db: Db, before: Date): Promise<void> {
  await db.deleteFrom('billing_events').where('processed_at', '<', before.toISOString()).execute();
}
