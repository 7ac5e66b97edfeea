import type { Db } from '../../../platform/db/database.js';
import type { BillingSubscriptionStatus } from '../../../platform/db/schema.js';
import { formatDate } from '../invoice-pdf.js';
import type { EventOutbox } from './events.js';
import {
  findSubscription,
  planName,
  priceOf,
  seconds,
  toSubscription,
  type Ledger,
  type SubscriptionRow,
  type Trx,
} from './ledger.js';

/**
 * The test mode's clock: subscriptions renew each month (one invoice a period), failed renewal
 * charges are retried and then cancel the subscription, unconfirmed first payments expire, and
 * old cards and delivered events are dropped, as at Stripe.
 */

const DAY = 86_400;
/** An `incomplete` subscription whose first payment was never confirmed expires, as at Stripe. */
const INCOMPLETE_EXPIRY = 23 * 3600;
/** Days until the next attempt after a failed renewal charge; then the subscription is canceled. */
const RETRY_DAYS = [3, 5, 7];
export const LIVE: BillingSubscriptionStatus[] = ['active', 'trialing', 'past_due'];
/** Cards entered but never used are dropped after this long; delivered events after 30 days. */
const UNUSED_CARD_TTL = DAY;
const EVENT_TTL = 30 * DAY;
/** The anchor moved `months` calendar months on, on the anchor's day (or the month's last day). */
export function addMonths(anchor: number, months: number): number {
  const date = new Date(anchor * 1000);
  const target = new Date(
    Date.UTC(
      date.getUTCFullYear(),
      date.getUTCMonth() + months,
      1,
      date.getUTCHours(),
      date.getUTCMinutes(),
      date.getUTCSeconds(),
    ),
  );
  const lastDay = new Date(
    Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0),
  ).getUTCDate();
  target.setUTCDate(Math.min(date.getUTCDate(), lastDay));
  return seconds(target);
}

function nextPeriodEnd(anchor: number, after: number): number {
  for (let months = 1; ; months++) {
    const end = addMonths(anchor, months);
    if (end > after) return end;
  }
}
export function createRenewals(deps: { db: Db; outbox: EventOutbox; ledger: Ledger }) {
  const { db, outbox } = deps;
  const { charge, applyCredit, insertInvoice, setInvoice, defaultPaymentMethod } = deps.ledger;

  async function queueSubscription(trx: Trx, id: string, deleted = false) {
    const row = await findSubscription(trx, id);
    await outbox.queue(trx, {
      type: deleted ? 'subscription.deleted' : 'subscription.updated',
      customerId: row!.customer_id,
      subscription: toSubscription(row!),
    });
  }

  async function setSubscription(
    trx: Trx,
    id: string,
    changes: Partial<Omit<SubscriptionRow, 'id'>>,
    deleted = false,
  ) {
    await trx.updateTable('testmode_subscriptions').set(changes).where('id', '=', id).execute();
    await queueSubscription(trx, id, deleted);
  }

  /**
   * Bills the period that starts at the subscription's current end, off session. A failure leaves
   * the invoice open for retries and the subscription past due (it keeps its plan meanwhile).
   */
  async function renewOnce(trx: Trx, sub: SubscriptionRow): Promise<void> {
    const start = sub.current_period_end;
    const end = nextPeriodEnd(sub.billing_anchor, start);
    const price = priceOf(sub.plan);
    const lines = [
      {
        description: `${planName(sub.plan)} × 1 (${formatDate(start)} – ${formatDate(end)})`,
        amount: price,
      },
    ];
    const credit = await applyCredit(trx, sub.customer_id, price);
    if (credit) lines.push(credit);
    const invoice = await insertInvoice(trx, {
      customerId: sub.customer_id,
      subscriptionId: sub.id,
      description: `${planName(sub.plan)} subscription renewal`,
      lines,
      created: start,
    });
    let status: BillingSubscriptionStatus = 'active';
    if (invoice.total > 0) {
      const result = await charge(trx, {
        customerId: sub.customer_id,
        paymentMethod: await defaultPaymentMethod(trx, sub.customer_id),
        amount: invoice.total,
        currency: 'usd',
        description: `Invoice for ${planName(sub.plan)}`,
        metadata: { invoiceId: invoice.id, subscriptionId: sub.id },
        invoiceId: invoice.id,
        onSession: false,
        created: start,
      });
      if (result.failure) {
        status = 'past_due';
        await setInvoice(trx, invoice.id, {
          payment_intent_id: result.intent.id,
          attempt_count: 1,
          next_attempt: start + RETRY_DAYS[0]! * DAY,
        });
      } else {
        await setInvoice(trx, invoice.id, { status: 'paid', payment_intent_id: result.intent.id });
      }
    }
    await trx
      .updateTable('testmode_subscriptions')
      .set({ current_period_start: start, current_period_end: end, status })
      .where('id', '=', sub.id)
      .execute();
  }

  async function renewSubscription(id: string, now: number): Promise<void> {
    await db.transaction().execute(async (trx) => {
      // A server that was down for months catches up one period (and invoice) at a time.
      let renewed = false;
      for (let i = 0; i < 36; i++) {
        const sub = (await findSubscription(trx, id))!;
        if (!LIVE.includes(sub.status) || sub.current_period_end > now) break;
        if (sub.cancel_at_period_end === 1) {
          await trx
            .updateTable('testmode_subscriptions')
            .set({ status: 'canceled', canceled_at: sub.current_period_end })
            .where('id', '=', id)
            .execute();
          await queueSubscription(trx, id, true);
          return;
        }
        await renewOnce(trx, sub);
        renewed = true;
      }
      if (renewed) await queueSubscription(trx, id);
    });
  }

  async function retryInvoice(id: string, now: number): Promise<void> {
    await db.transaction().execute(async (trx) => {
      const invoice = await trx
        .selectFrom('testmode_invoices')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      const sub = (await findSubscription(trx, invoice.subscription_id!))!;
      if (sub.status !== 'past_due') {
        await setInvoice(trx, id, { next_attempt: null });
        return;
      }
      const result = await charge(trx, {
        customerId: invoice.customer_id,
        paymentMethod: await defaultPaymentMethod(trx, invoice.customer_id),
        amount: invoice.total,
        currency: invoice.currency,
        description: `Invoice ${invoice.number}`,
        metadata: { invoiceId: invoice.id, subscriptionId: sub.id },
        invoiceId: invoice.id,
        onSession: false,
        created: now,
      });
      const attempts = invoice.attempt_count + 1;
      if (!result.failure) {
        await setInvoice(trx, id, {
          status: 'paid',
          payment_intent_id: result.intent.id,
          attempt_count: attempts,
          next_attempt: null,
        });
        await setSubscription(trx, sub.id, { status: 'active' });
      } else if (attempts > RETRY_DAYS.length) {
        await setInvoice(trx, id, {
          status: 'uncollectible',
          attempt_count: attempts,
          next_attempt: null,
        });
        await setSubscription(trx, sub.id, { status: 'canceled', canceled_at: now }, true);
      } else {
        await setInvoice(trx, id, {
          attempt_count: attempts,
          next_attempt: now + RETRY_DAYS[attempts - 1]! * DAY,
        });
      }
    });
  }

  async function expireIncomplete(id: string): Promise<void> {
    await db.transaction().execute(async (trx) => {
      const sub = (await findSubscription(trx, id))!;
      if (sub.status !== 'incomplete') return;
      if (sub.latest_invoice_id) await setInvoice(trx, sub.latest_invoice_id, { status: 'void' });
      await setSubscription(trx, id, { status: 'incomplete_expired' });
    });
  }
  return {
    setSubscription,

    /** Renewals, ends of cancelled periods, payment retries and expiries due at `date`. */
    async renewDue(date = new Date()): Promise<void> {
      const now = seconds(date);
      const due = await db
        .selectFrom('testmode_subscriptions')
        .select('id')
        .where('status', 'in', LIVE)
        .where('current_period_end', '<=', now)
        .execute();
      for (const { id } of due) await renewSubscription(id, now);

      const retries = await db
        .selectFrom('testmode_invoices')
        .select('id')
        .where('status', '=', 'open')
        .where('subscription_id', 'is not', null)
        .where('next_attempt', '<=', now)
        .execute();
      for (const { id } of retries) await retryInvoice(id, now);

      const stale = await db
        .selectFrom('testmode_subscriptions')
        .select('id')
        .where('status', '=', 'incomplete')
        .where('created', '<=', now - INCOMPLETE_EXPIRY)
        .execute();
      for (const { id } of stale) await expireIncomplete(id);

      // Housekeeping goes by the real clock, whatever moment is being billed.
      const real = seconds();
      await db
        .deleteFrom('testmode_payment_methods')
        .where('customer_id', 'is', null)
        .where('created', '<=', real - UNUSED_CARD_TTL)
        .execute();
      await db
        .deleteFrom('testmode_events')
        .where('delivered', '=', 1)
        .where('created', '<=', real - EVENT_TTL)
        .execute();
      await outbox.deliver();
    },
  };
}
