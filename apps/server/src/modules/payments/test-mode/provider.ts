import { PAYMENT_MESSAGES, type Invoice, type PaymentIntentResponse } from '@mirror/contract';
import type { FastifyBaseLogger } from 'fastify';
import { badRequest, conflict } from '../../../errors.js';
import type { Db } from '../../../platform/db/database.js';
import type { BillingSubscriptionStatus } from '../../../platform/db/schema.js';
import { formatDate, renderInvoicePdf } from '../invoice-pdf.js';
import {
  PaymentDeclinedError,
  type BillingEvent,
  type PaymentProvider,
} from '../payment-provider.js';
import { cardProblem, testCardFacts } from './cards.js';
import { createEventOutbox } from './events.js';
import { addMonths, createRenewals, LIVE } from './renewals.js';
import {
  createLedger,
  findIntentBySecret,
  findSubscription,
  idempotent,
  newClientSecret,
  newId,
  planName,
  priceOf,
  seconds,
  toIntent,
  toSubscription,
  type IntentRow,
} from './ledger.js';

/**
 * The local test mode: a card payment provider kept in our own database that behaves like Stripe's
 * test mode (test cards, subscriptions with monthly periods that renew, proration, invoices with
 * numbers and PDF files, 3-D Secure confirmations). Every state change is queued as a BillingEvent
 * in an outbox in the same transaction and then delivered in order to `onEvent` (the payments
 * service), at least once, as Stripe delivers webhooks: both modes share one state code.
 */

export interface TestCard {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
}

export interface TestPaymentProvider extends PaymentProvider {
  readonly mode: 'test';
  /** The card form's call: checks the card, keeps brand/last4/expiry, and forgets the number. */
  createPaymentMethod(card: TestCard): Promise<{ id: string; brand: string; last4: string }>;
  /**
   * The card holder's answer in the 3-D Secure dialog for one of this customer's payments. Null
   * when the client secret is not the customer's; `failure` says why a payment did not succeed.
   */
  confirmPayment(
    customerId: string,
    clientSecret: string,
    approve: boolean,
  ): Promise<{ intent: PaymentIntentResponse; failure: string | null } | null>;
  /** Renewals, ends of cancelled periods, payment retries and expiries due at `now`. */
  renewDue(now?: Date): Promise<void>;
  /** Delivers queued events in order; after a failure the next call starts again from it. */
  deliverEvents(): Promise<void>;
}

export interface TestProviderDeps {
  db: Db;
  appUrl: string;
  onEvent(event: BillingEvent): Promise<unknown>;
  log?: FastifyBaseLogger;
}

export function createTestPaymentProvider(deps: TestProviderDeps): TestPaymentProvider {
  const { db } = deps;
  const outbox = createEventOutbox(deps);
  const ledger = createLedger(outbox);
  const { charge, applyCredit, insertInvoice, setInvoice, defaultPaymentMethod } = ledger;
  const renewals = createRenewals({ db, outbox, ledger });
  const { setSubscription } = renewals;

  return {
    mode: 'test',
    publishableKey: null,
    deliverEvents: outbox.deliver,

    async createPaymentMethod(card) {
      const problem = cardProblem(card);
      if (problem === 'invalid') throw badRequest(PAYMENT_MESSAGES.cardInvalid);
      if (problem === 'expired') throw badRequest(PAYMENT_MESSAGES.cardExpired);
      if (problem === 'cvc') throw badRequest(PAYMENT_MESSAGES.cvcInvalid);
      const facts = testCardFacts(card.number);
      const id = newId('pm');
      await db
        .insertInto('testmode_payment_methods')
        .values({
          id,
          customer_id: null,
          brand: facts.brand,
          last4: facts.last4,
          exp_month: card.expMonth,
          exp_year: card.expYear,
          behaviour: facts.behaviour,
          decline_message: facts.declineMessage,
          created: seconds(),
        })
        .execute();
      return { id, brand: facts.brand, last4: facts.last4 };
    },

    async createCustomer(user) {
      const id = newId('cus');
      await db
        .insertInto('testmode_customers')
        .values({
          id,
          email: user.email,
          name: user.name,
          default_payment_method: null,
          created: seconds(),
        })
        .execute();
      return id;
    },

    async createSetupIntent() {
      return { clientSecret: newClientSecret(newId('seti')) };
    },

    async listPaymentMethods(customerId) {
      const customer = await db
        .selectFrom('testmode_customers')
        .select('default_payment_method')
        .where('id', '=', customerId)
        .executeTakeFirst();
      const rows = await db
        .selectFrom('testmode_payment_methods')
        .selectAll()
        .where('customer_id', '=', customerId)
        .orderBy('created')
        .orderBy('id')
        .execute();
      return rows.map((pm) => ({
        id: pm.id,
        brand: pm.brand,
        last4: pm.last4,
        expMonth: pm.exp_month,
        expYear: pm.exp_year,
        isDefault: pm.id === customer?.default_payment_method,
      }));
    },

    async setDefaultPaymentMethod(customerId, paymentMethodId) {
      await db.transaction().execute(async (trx) => {
        await ledger.claimPaymentMethod(trx, customerId, paymentMethodId);
        await trx
          .updateTable('testmode_customers')
          .set({ default_payment_method: paymentMethodId })
          .where('id', '=', customerId)
          .execute();
      });
    },

    async detachPaymentMethod(customerId, paymentMethodId) {
      await db.transaction().execute(async (trx) => {
        const removed = await trx
          .deleteFrom('testmode_payment_methods')
          .where('id', '=', paymentMethodId)
          .where('customer_id', '=', customerId)
          .executeTakeFirst();
        if (Number(removed.numDeletedRows) === 0) {
          throw new PaymentDeclinedError(PAYMENT_MESSAGES.paymentMethodNotFound);
        }
        await trx
          .updateTable('testmode_customers')
          .set({ default_payment_method: null })
          .where('id', '=', customerId)
          .where('default_payment_method', '=', paymentMethodId)
          .execute();
      });
    },

    async createSubscription({ customerId, planId, paymentMethodId, idempotencyKey }) {
      const result = await idempotent(db, idempotencyKey, async (trx) => {
        const pm = await ledger.claimPaymentMethod(trx, customerId, paymentMethodId);
        await trx
          .updateTable('testmode_customers')
          .set({ default_payment_method: pm.id })
          .where('id', '=', customerId)
          .execute();
        const now = seconds();
        const end = addMonths(now, 1);
        const id = newId('sub');
        await trx
          .insertInto('testmode_subscriptions')
          .values({
            id,
            customer_id: customerId,
            plan: planId,
            status: 'incomplete',
            billing_anchor: now,
            current_period_start: now,
            current_period_end: end,
            cancel_at_period_end: 0,
            canceled_at: null,
            latest_invoice_id: null,
            created: now,
          })
          .execute();
        const price = priceOf(planId);
        const lines = [
          {
            description: `${planName(planId)} × 1 (${formatDate(now)} – ${formatDate(end)})`,
            amount: price,
          },
        ];
        const credit = await applyCredit(trx, customerId, price);
        if (credit) lines.push(credit);
        const invoice = await insertInvoice(trx, {
          customerId,
          subscriptionId: id,
          description: `${planName(planId)} subscription`,
          lines,
          created: now,
        });
        let clientSecret: string | null = null;
        let status: BillingSubscriptionStatus = 'active';
        if (invoice.total > 0) {
          const paid = await charge(trx, {
            customerId,
            paymentMethod: pm,
            amount: invoice.total,
            currency: 'usd',
            description: `Invoice for ${planName(planId)}`,
            metadata: { invoiceId: invoice.id, subscriptionId: id },
            invoiceId: invoice.id,
            onSession: true,
          });
          // A declined first payment creates nothing (the transaction is rolled back).
          if (paid.failure) throw new PaymentDeclinedError(paid.failure);
          await setInvoice(trx, invoice.id, {
            payment_intent_id: paid.intent.id,
            ...(paid.intent.status === 'succeeded' ? { status: 'paid' as const } : {}),
          });
          if (paid.intent.status === 'requires_action') {
            status = 'incomplete';
            clientSecret = paid.intent.client_secret;
          }
        }
        await setSubscription(trx, id, { status });
        return { subscription: toSubscription((await findSubscription(trx, id))!), clientSecret };
      });
      await outbox.deliver();
      return result;
    },

    async updateSubscription(subscriptionId, planId, idempotencyKey) {
      const result = await idempotent(db, idempotencyKey, async (trx) => {
        const sub = await findSubscription(trx, subscriptionId);
        if (!sub || !LIVE.includes(sub.status)) throw conflict(PAYMENT_MESSAGES.notSubscribed);
        if (sub.plan === planId) return toSubscription(sub);
        const now = seconds();
        const span = sub.current_period_end - sub.current_period_start;
        const left = Math.min(1, Math.max(0, (sub.current_period_end - now) / span));
        const from = formatDate(Math.max(now, sub.current_period_start));
        const lines = [
          {
            description: `Unused time on ${planName(sub.plan)} after ${from}`,
            amount: -Math.round(priceOf(sub.plan) * left),
          },
          {
            description: `Remaining time on ${planName(planId)} after ${from}`,
            amount: Math.round(priceOf(planId) * left),
          },
        ];
        const net = lines[0]!.amount + lines[1]!.amount;
        const credit = await applyCredit(trx, sub.customer_id, net);
        if (credit) lines.push(credit);
        const invoice = await insertInvoice(trx, {
          customerId: sub.customer_id,
          subscriptionId: sub.id,
          description: `Change to ${planName(planId)} (prorated)`,
          lines,
          created: now,
        });
        if (invoice.total > 0) {
          const paid = await charge(trx, {
            customerId: sub.customer_id,
            paymentMethod: await defaultPaymentMethod(trx, sub.customer_id),
            amount: invoice.total,
            currency: 'usd',
            description: `Invoice for ${planName(planId)} (prorated)`,
            metadata: { invoiceId: invoice.id, subscriptionId: sub.id },
            invoiceId: invoice.id,
            onSession: false,
          });
          // The plan changes only when the difference is paid; otherwise nothing changes.
          if (paid.failure) throw new PaymentDeclinedError(paid.failure);
          await setInvoice(trx, invoice.id, { status: 'paid', payment_intent_id: paid.intent.id });
        } else if (invoice.total < 0) {
          await trx
            .updateTable('testmode_customers')
            .set((eb) => ({ credit: eb('credit', '+', -invoice.total) }))
            .where('id', '=', sub.customer_id)
            .execute();
        }
        await setSubscription(trx, sub.id, { plan: planId });
        return toSubscription((await findSubscription(trx, sub.id))!);
      });
      await outbox.deliver();
      return result;
    },

    async cancelSubscription(subscriptionId, immediately) {
      const result = await db.transaction().execute(async (trx) => {
        const sub = await findSubscription(trx, subscriptionId);
        if (!sub) throw conflict(PAYMENT_MESSAGES.notSubscribed);
        if (sub.status === 'canceled' || sub.status === 'incomplete_expired') {
          return toSubscription(sub);
        }
        if (immediately || sub.status === 'incomplete') {
          const ended = sub.status === 'incomplete' ? 'incomplete_expired' : 'canceled';
          await trx
            .updateTable('testmode_invoices')
            .set({ status: 'void', next_attempt: null })
            .where('subscription_id', '=', sub.id)
            .where('status', '=', 'open')
            .execute();
          await setSubscription(
            trx,
            sub.id,
            { status: ended, canceled_at: seconds(), cancel_at_period_end: 0 },
            ended === 'canceled',
          );
        } else {
          await setSubscription(trx, sub.id, { cancel_at_period_end: 1 });
        }
        return toSubscription((await findSubscription(trx, sub.id))!);
      });
      await outbox.deliver();
      return result;
    },

    async reactivateSubscription(subscriptionId) {
      const result = await db.transaction().execute(async (trx) => {
        const sub = await findSubscription(trx, subscriptionId);
        if (!sub || !LIVE.includes(sub.status)) throw conflict(PAYMENT_MESSAGES.notSubscribed);
        if (sub.cancel_at_period_end === 1) {
          await setSubscription(trx, sub.id, { cancel_at_period_end: 0 });
        }
        return toSubscription((await findSubscription(trx, sub.id))!);
      });
      await outbox.deliver();
      return result;
    },

    async createPaymentIntent(input) {
      const result = await idempotent(db, input.idempotencyKey, async (trx) => {
        const pm = input.paymentMethodId
          ? await ledger.claimPaymentMethod(trx, input.customerId, input.paymentMethodId)
          : undefined;
        const paid = await charge(trx, {
          customerId: input.customerId,
          paymentMethod: pm,
          amount: input.amount,
          currency: input.currency,
          description: input.description,
          metadata: input.metadata,
          invoiceId: null,
          onSession: true,
        });
        // A card that declines creates nothing; without a card the intent waits for one.
        if (pm && paid.failure) throw new PaymentDeclinedError(paid.failure);
        return toIntent(paid.intent);
      });
      await outbox.deliver();
      return result;
    },

    async retrievePaymentIntent(paymentIntentId) {
      const row = await db
        .selectFrom('testmode_payment_intents')
        .selectAll()
        .where('id', '=', paymentIntentId)
        .executeTakeFirstOrThrow();
      return {
        id: row.id,
        status: row.status,
        amount: row.amount,
        customerId: row.customer_id,
        metadata: JSON.parse(row.metadata) as Record<string, string>,
      };
    },

    async refundPaymentIntent(paymentIntentId, idempotencyKey) {
      // Test mode keeps no charges: a refund is the event Stripe would send (once per key).
      await idempotent(db, idempotencyKey, async (trx) => {
        const intent = await trx
          .selectFrom('testmode_payment_intents')
          .select(['id', 'status'])
          .where('id', '=', paymentIntentId)
          .executeTakeFirst();
        if (intent?.status !== 'succeeded') throw new Error(`${paymentIntentId} was not paid`);
        await outbox.queue(trx, {
          type: 'payment.refunded',
          paymentIntentId: intent.id,
          fully: true,
        });
        return null;
      });
      await outbox.deliver();
    },

    async confirmPayment(customerId, clientSecret, approve) {
      const result = await db.transaction().execute(async (trx) => {
        const intent = await findIntentBySecret(trx, customerId, clientSecret);
        if (!intent) return null;
        if (intent.status !== 'requires_action' && intent.status !== 'requires_payment_method') {
          return { intent: toIntent(intent), failure: null };
        }
        let failure: string | null = null;
        let status: IntentRow['status'] = 'succeeded';
        let paymentMethodId = intent.payment_method_id;
        if (!approve) {
          failure = PAYMENT_MESSAGES.authenticationFailed;
        } else if (intent.status === 'requires_payment_method') {
          // An intent made without a card is paid with the customer's default card.
          const pm = await defaultPaymentMethod(trx, customerId);
          paymentMethodId = pm?.id ?? null;
          if (!pm) failure = PAYMENT_MESSAGES.noPaymentMethod;
          else if (pm.behaviour === 'declines')
            failure = pm.decline_message ?? PAYMENT_MESSAGES.cardDeclined;
        }
        if (failure) status = 'requires_payment_method';
        await trx
          .updateTable('testmode_payment_intents')
          .set({ status, payment_method_id: paymentMethodId })
          .where('id', '=', intent.id)
          .execute();
        const updated = { ...intent, status, payment_method_id: paymentMethodId };
        await ledger.queueIntent(trx, updated, failure !== null);

        const invoice = intent.invoice_id
          ? await trx
              .selectFrom('testmode_invoices')
              .selectAll()
              .where('id', '=', intent.invoice_id)
              .executeTakeFirst()
          : undefined;
        const sub = invoice?.subscription_id
          ? await findSubscription(trx, invoice.subscription_id)
          : undefined;
        if (invoice && !failure) await setInvoice(trx, invoice.id, { status: 'paid' });
        if (sub?.status === 'incomplete') {
          // The first payment decides: paid starts the subscription, a refusal ends the attempt.
          if (failure) await setInvoice(trx, invoice!.id, { status: 'void' });
          await setSubscription(trx, sub.id, { status: failure ? 'incomplete_expired' : 'active' });
        }
        return { intent: toIntent(updated), failure };
      });
      await outbox.deliver();
      return result;
    },

    async listInvoices(customerId): Promise<Invoice[]> {
      const rows = await db
        .selectFrom('testmode_invoices')
        .selectAll()
        .where('customer_id', '=', customerId)
        .orderBy('created', 'desc')
        .orderBy('number', 'desc')
        .execute();
      return rows.map((row) => ({
        id: row.id,
        number: row.number,
        created: row.created,
        total: row.total,
        currency: row.currency,
        status: row.status,
        description: row.description,
      }));
    },

    async invoicePdf(customerId, invoiceId) {
      const row = await db
        .selectFrom('testmode_invoices')
        .innerJoin('testmode_customers', 'testmode_customers.id', 'testmode_invoices.customer_id')
        .selectAll('testmode_invoices')
        .select(['testmode_customers.name', 'testmode_customers.email'])
        .where('testmode_invoices.id', '=', invoiceId)
        .where('testmode_invoices.customer_id', '=', customerId)
        .executeTakeFirst();
      if (!row) return null;
      return renderInvoicePdf({
        number: row.number,
        created: row.created,
        status: row.status,
        currency: row.currency,
        total: row.total,
        description: row.description,
        lines: JSON.parse(row.lines) as { description: string; amount: number }[],
        customer: { name: row.name, email: row.email },
        testMode: true,
      });
    },

    async createPortalSession() {
      // Test mode has no hosted portal: the billing screen is ours (cards, invoices, plan).
      return { url: `${deps.appUrl}/billing?portal=test` };
    },

    renewDue: renewals.renewDue,
  };
}
