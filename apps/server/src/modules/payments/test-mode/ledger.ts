import { randomBytes } from 'node:crypto';
import {
  getPlan,
  PAYMENT_MESSAGES,
  type PaidPlanId,
  type PaymentIntentResponse,
  type Subscription,
} from '@mirror/contract';
import type { Transaction } from 'kysely';
import type { Db } from '../../../platform/db/database.js';
import type { Database } from '../../../platform/db/schema.js';
import { PaymentDeclinedError } from '../payment-provider.js';
import type { EventOutbox } from './events.js';

/**
 * The test mode's money side, inside the caller's transaction: cards of a customer, charges as
 * payment intents, invoices with numbers, and the credit a downgrade leaves.
 */

export type Trx = Transaction<Database>;
export type SubscriptionRow = NonNullable<Awaited<ReturnType<typeof findSubscription>>>;
export type IntentRow = NonNullable<Awaited<ReturnType<typeof findIntentBySecret>>>;

export const seconds = (date: Date = new Date()) => Math.floor(date.getTime() / 1000);
export const newId = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('hex')}`;
/** What Stripe.js confirms with: the object's id and a secret part. */
export const newClientSecret = (id: string) => `${id}_secret_${randomBytes(12).toString('hex')}`;
export const priceOf = (plan: PaidPlanId) => Math.round(getPlan(plan).priceUsd * 100);
export const planName = (plan: PaidPlanId) => getPlan(plan).name;

export function findSubscription(db: Db | Trx, id: string) {
  return db
    .selectFrom('testmode_subscriptions')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
}

export function findIntentBySecret(db: Db | Trx, customerId: string, clientSecret: string) {
  return db
    .selectFrom('testmode_payment_intents')
    .selectAll()
    .where('client_secret', '=', clientSecret)
    .where('customer_id', '=', customerId)
    .executeTakeFirst();
}

export function toSubscription(row: SubscriptionRow): Subscription {
  return {
    id: row.id,
    status: row.status,
    plan: row.plan,
    current_period_start: row.current_period_start,
    current_period_end: row.current_period_end,
    cancel_at_period_end: row.cancel_at_period_end === 1,
    trial_end: null,
  };
}

export function toIntent(row: IntentRow): PaymentIntentResponse {
  return { id: row.id, clientSecret: row.client_secret, status: row.status };
}

/**
 * Runs a create once per idempotency key: a repeated key answers the first result without doing
 * anything again (a concurrent duplicate fails on the key's row and reads that result too).
 */
export async function idempotent<T>(
  db: Db,
  key: string,
  run: (trx: Trx) => Promise<T>,
): Promise<T> {
  const stored = async () =>
    (
      await db
        .selectFrom('testmode_idempotency')
        .select('result')
        .where('key', '=', key)
        .executeTakeFirst()
    )?.result;
  const previous = await stored();
  if (previous !== undefined) return JSON.parse(previous) as T;
  try {
    return await db.transaction().execute(async (trx) => {
      const result = await run(trx);
      await trx
        .insertInto('testmode_idempotency')
        .values({ key, result: JSON.stringify(result), created: seconds() })
        .execute();
      return result;
    });
  } catch (err) {
    const raced = await stored();
    if (raced !== undefined) return JSON.parse(raced) as T;
    throw err;
  }
}

export interface NewInvoice {
  customerId: string;
  subscriptionId: string | null;
  description: string;
  lines: { description: string; amount: number }[];
  created: number;
}

export type Ledger = ReturnType<typeof createLedger>;

export function createLedger(outbox: EventOutbox) {
  async function queueIntent(trx: Trx, intent: IntentRow, failed: boolean) {
    await outbox.queue(trx, {
      type: failed ? 'payment_intent.payment_failed' : 'payment_intent.succeeded',
      customerId: intent.customer_id,
      paymentIntentId: intent.id,
      amount: intent.amount,
      metadata: JSON.parse(intent.metadata) as Record<string, string>,
    });
  }

  /** A payment method the customer may use: theirs, or a new one not attached to anyone yet. */
  async function claimPaymentMethod(trx: Trx, customerId: string, paymentMethodId: string) {
    const pm = await trx
      .selectFrom('testmode_payment_methods')
      .selectAll()
      .where('id', '=', paymentMethodId)
      .executeTakeFirst();
    if (!pm || (pm.customer_id !== null && pm.customer_id !== customerId)) {
      throw new PaymentDeclinedError(PAYMENT_MESSAGES.paymentMethodNotFound);
    }
    if (pm.customer_id === null) {
      await trx
        .updateTable('testmode_payment_methods')
        .set({ customer_id: customerId })
        .where('id', '=', pm.id)
        .execute();
    }
    return pm;
  }

  async function defaultPaymentMethod(trx: Trx, customerId: string) {
    const customer = await trx
      .selectFrom('testmode_customers')
      .select('default_payment_method')
      .where('id', '=', customerId)
      .executeTakeFirstOrThrow();
    if (!customer.default_payment_method) return undefined;
    return trx
      .selectFrom('testmode_payment_methods')
      .selectAll()
      .where('id', '=', customer.default_payment_method)
      .executeTakeFirst();
  }

  /**
   * A charge as a payment intent. On session (the card holder is there) a 3-D Secure card asks for
   * authentication; off session (renewals, prorations) a saved card does not, as at Stripe.
   */
  async function charge(
    trx: Trx,
    input: {
      customerId: string;
      paymentMethod: { id: string; behaviour: string; decline_message: string | null } | undefined;
      amount: number;
      currency: string;
      description: string;
      metadata: Record<string, string>;
      invoiceId: string | null;
      onSession: boolean;
      created?: number;
    },
  ): Promise<{ intent: IntentRow; failure: string | null }> {
    const pm = input.paymentMethod;
    let failure: string | null = null;
    let status: IntentRow['status'] = 'succeeded';
    if (!pm) {
      failure = PAYMENT_MESSAGES.noPaymentMethod;
      status = 'requires_payment_method';
    } else if (pm.behaviour === 'declines') {
      failure = pm.decline_message ?? PAYMENT_MESSAGES.cardDeclined;
      status = 'requires_payment_method';
    } else if (pm.behaviour === 'authenticates' && input.onSession) {
      status = 'requires_action';
    }
    const id = newId('pi');
    const intent: IntentRow = {
      id,
      client_secret: newClientSecret(id),
      customer_id: input.customerId,
      amount: input.amount,
      currency: input.currency,
      description: input.description,
      metadata: JSON.stringify(input.metadata),
      status,
      payment_method_id: pm?.id ?? null,
      invoice_id: input.invoiceId,
      created: input.created ?? seconds(),
    };
    await trx.insertInto('testmode_payment_intents').values(intent).execute();
    if (status === 'succeeded' || (pm && failure)) await queueIntent(trx, intent, failure !== null);
    return { intent, failure };
  }

  async function nextInvoiceNumber(trx: Trx, customerId: string): Promise<string> {
    const row = await trx
      .updateTable('testmode_customers')
      .set((eb) => ({ invoice_seq: eb('invoice_seq', '+', 1) }))
      .where('id', '=', customerId)
      .returning('invoice_seq')
      .executeTakeFirstOrThrow();
    return `MIRROR-${String(row.invoice_seq).padStart(4, '0')}`;
  }

  /** Takes the customer's credit (from downgrades) off an amount; answers the line it adds. */
  async function applyCredit(trx: Trx, customerId: string, amount: number) {
    const { credit } = await trx
      .selectFrom('testmode_customers')
      .select('credit')
      .where('id', '=', customerId)
      .executeTakeFirstOrThrow();
    const used = Math.min(credit, Math.max(0, amount));
    if (used === 0) return null;
    await trx
      .updateTable('testmode_customers')
      .set({ credit: credit - used })
      .where('id', '=', customerId)
      .execute();
    return { description: 'Credit from your account balance', amount: -used };
  }

  async function insertInvoice(trx: Trx, input: NewInvoice) {
    const id = newId('in');
    const total = input.lines.reduce((sum, line) => sum + line.amount, 0);
    await trx
      .insertInto('testmode_invoices')
      .values({
        id,
        number: await nextInvoiceNumber(trx, input.customerId),
        customer_id: input.customerId,
        subscription_id: input.subscriptionId,
        status: total <= 0 ? 'paid' : 'open',
        total,
        currency: 'usd',
        description: input.description,
        lines: JSON.stringify(input.lines),
        payment_intent_id: null,
        created: input.created,
      })
      .execute();
    if (input.subscriptionId) {
      await trx
        .updateTable('testmode_subscriptions')
        .set({ latest_invoice_id: id })
        .where('id', '=', input.subscriptionId)
        .execute();
    }
    return { id, total };
  }

  async function setInvoice(
    trx: Trx,
    id: string,
    changes: {
      status?: 'open' | 'paid' | 'void' | 'uncollectible';
      payment_intent_id?: string;
      attempt_count?: number;
      next_attempt?: number | null;
    },
  ) {
    await trx.updateTable('testmode_invoices').set(changes).where('id', '=', id).execute();
  }

  return {
    queueIntent,
    claimPaymentMethod,
    defaultPaymentMethod,
    charge,
    applyCredit,
    insertInvoice,
    setInvoice,
  };
}
