import { randomUUID } from 'node:crypto';
import type { Db } from '../../platform/db/database.js';
import type { RewritePaymentStatus } from '../../platform/db/schema.js';
import type { DbOrTrx } from './payments.repository.js';

/**
 * The attempts to pay sites' one-off AI rewrites (issue 30, item 9). An attempt is claimed before
 * the provider is called, and its id is the provider's idempotency key, so one attempt is charged
 * at most once; `open_site_id` (unique) holds the site while an attempt is under way, so a site
 * never has two. Whatever settles an attempt (the provider's answer, its event, a retry that asks
 * the provider) goes through `settleSucceeded` / `settleFailed`, which are idempotent.
 */

/** An attempt still `charging` after this is taken to have died with its process. */
export const CHARGE_STALE_MS = 2 * 60_000;

export type RewritePaymentRow = NonNullable<Awaited<ReturnType<typeof findRewritePayment>>>;

export function findRewritePayment(db: DbOrTrx, id: string) {
  return db.selectFrom('rewrite_payments').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findRewritePaymentByIntent(db: DbOrTrx, paymentIntentId: string) {
  return db
    .selectFrom('rewrite_payments')
    .selectAll()
    .where('payment_intent_id', '=', paymentIntentId)
    .executeTakeFirst();
}

export type Claim =
  | { kind: 'claimed'; id: string }
  /** The site's rewrite is paid already (or the site is gone). */
  | { kind: 'paid' }
  /** Another attempt is being charged right now. */
  | { kind: 'busy' }
  /** An attempt waits for 3-D Secure: how it stands at the provider decides what comes next. */
  | { kind: 'waiting'; attempt: RewritePaymentRow };

/**
 * Claims the site's next attempt, in one transaction that first locks the site's row (a
 * conditional update), so concurrent claims of one site run one after the other. `replacing`: a
 * waiting attempt the caller found still unpaid at the provider, given up for this one.
 */
export async function claimRewritePayment(
  db: Db,
  input: {
    siteId: string;
    userId: string;
    paymentMethodId: string;
    amount: number;
    replacing?: string;
  },
  now = new Date(),
): Promise<Claim> {
  return db.transaction().execute(async (trx): Promise<Claim> => {
    const site = await trx
      .updateTable('sites')
      .set({ ai_rewrite_paid_at: null })
      .where('id', '=', input.siteId)
      .where('owner_id', '=', input.userId)
      .where('ai_rewrite_paid_at', 'is', null)
      .executeTakeFirst();
    if (Number(site.numUpdatedRows) === 0) return { kind: 'paid' };
    const open = await trx
      .selectFrom('rewrite_payments')
      .selectAll()
      .where('open_site_id', '=', input.siteId)
      .executeTakeFirst();
    if (open) {
      const stale = Date.parse(open.updated_at) < now.getTime() - CHARGE_STALE_MS;
      const givenUp =
        (open.status === 'charging' && stale) ||
        (open.status === 'requires_action' && open.id === input.replacing);
      if (open.status === 'requires_action' && !givenUp) return { kind: 'waiting', attempt: open };
      if (!givenUp) return { kind: 'busy' };
      // Its payment, should it still succeed, opens the rewrite only if nothing else has.
      await setStatus(trx, open.id, 'abandoned', now);
    }
    const id = randomUUID();
    await trx
      .insertInto('rewrite_payments')
      .values({
        id,
        site_id: input.siteId,
        user_id: input.userId,
        open_site_id: input.siteId,
        status: 'charging',
        payment_intent_id: null,
        payment_method_id: input.paymentMethodId,
        amount: input.amount,
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
      })
      .execute();
    return { kind: 'claimed', id };
  });
}

/** Sets an attempt's status; any status but the two under way releases the site. */
async function setStatus(
  trx: DbOrTrx,
  id: string,
  status: RewritePaymentStatus,
  now: Date,
  extra: { payment_intent_id?: string; paid_at?: string } = {},
): Promise<void> {
  const underWay = status === 'charging' || status === 'requires_action';
  await trx
    .updateTable('rewrite_payments')
    .set({
      status,
      ...(underWay ? {} : { open_site_id: null }),
      ...extra,
      updated_at: now.toISOString(),
    })
    .where('id', '=', id)
    .execute();
}

/** Statuses after which a payment's success changes nothing more. */
const SETTLED: RewritePaymentStatus[] = ['succeeded', 'refund_due', 'refunded', 'disputed'];

export type SucceededOutcome = 'opened' | 'refund_due' | 'known' | 'unknown';

/**
 * The attempt's payment succeeded: the site's rewrite opens (`sites.ai_rewrite_paid_at`) unless it
 * is open already or the site is gone, in which case this second payment is to be refunded.
 * Call inside a transaction.
 */
export async function settleSucceeded(
  trx: DbOrTrx,
  id: string,
  paymentIntentId: string,
  now = new Date(),
): Promise<SucceededOutcome> {
  const attempt = await findRewritePayment(trx, id);
  if (!attempt) return 'unknown';
  if (SETTLED.includes(attempt.status)) return 'known';
  const paidAt = now.toISOString();
  const opened = await trx
    .updateTable('sites')
    .set({ ai_rewrite_paid_at: paidAt })
    .where('id', '=', attempt.site_id)
    .where('owner_id', '=', attempt.user_id)
    .where('ai_rewrite_paid_at', 'is', null)
    .executeTakeFirst();
  if (Number(opened.numUpdatedRows) > 0) {
    await setStatus(trx, id, 'succeeded', now, {
      payment_intent_id: paymentIntentId,
      paid_at: paidAt,
    });
    return 'opened';
  }
  await setStatus(trx, id, 'refund_due', now, { payment_intent_id: paymentIntentId });
  return 'refund_due';
}

/** The attempt's payment was declined or failed: the site is free for another attempt. */
export async function settleFailed(trx: DbOrTrx, id: string, now = new Date()): Promise<boolean> {
  const attempt = await findRewritePayment(trx, id);
  if (!attempt || (attempt.status !== 'charging' && attempt.status !== 'requires_action'))
    return false;
  await setStatus(trx, id, 'failed', now);
  return true;
}

/** The provider answered that the payment waits for the card holder (3-D Secure). */
export async function markWaiting(
  trx: DbOrTrx,
  id: string,
  paymentIntentId: string,
  now = new Date(),
): Promise<void> {
  await trx
    .updateTable('rewrite_payments')
    .set({
      status: 'requires_action',
      payment_intent_id: paymentIntentId,
      updated_at: now.toISOString(),
    })
    .where('id', '=', id)
    .where('status', '=', 'charging')
    .execute();
}

/**
 * The provider refunded the payment in full, or its card holder disputed it: a rewrite it opened
 * and nobody started is closed again, and a run that took it will not give it back if it fails.
 * A rewrite already made stays (the dispute goes its way at the provider).
 */
export async function settleReversed(
  trx: DbOrTrx,
  paymentIntentId: string,
  status: 'refunded' | 'disputed',
  now = new Date(),
): Promise<boolean> {
  const attempt = await findRewritePaymentByIntent(trx, paymentIntentId);
  if (!attempt) return false;
  if (attempt.paid_at) {
    await trx
      .updateTable('sites')
      .set({ ai_rewrite_paid_at: null })
      .where('id', '=', attempt.site_id)
      .where('ai_rewrite_paid_at', '=', attempt.paid_at)
      .execute();
    await trx
      .updateTable('site_versions')
      .set({ rewrite_credit: null })
      .where('site_id', '=', attempt.site_id)
      .where('rewrite_credit', '=', attempt.paid_at)
      .execute();
  }
  await setStatus(trx, attempt.id, status, now);
  return true;
}

/** Payments made twice for one rewrite, still to be refunded. */
export function refundsDue(db: Db, limit = 50) {
  return db
    .selectFrom('rewrite_payments')
    .select(['id', 'payment_intent_id'])
    .where('status', '=', 'refund_due')
    .where('payment_intent_id', 'is not', null)
    .limit(limit)
    .execute();
}

/** A refund the provider accepted (its event may come later, or before). */
export async function markRefunded(db: Db, id: string, now = new Date()): Promise<void> {
  await db
    .updateTable('rewrite_payments')
    .set({ status: 'refunded', updated_at: now.toISOString() })
    .where('id', '=', id)
    .where('status', '=', 'refund_due')
    .execute();
}
