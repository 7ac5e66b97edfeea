import { randomUUID } from 'node:crypto';
import {
  PAYMENT_INTENT_STATUSES,
  PAYMENT_MESSAGES,
  SUBSCRIPTION_STATUSES,
  type Invoice,
  type PaidPlanId,
  type PaymentIntentResponse,
  type PaymentMethod,
  type Subscription,
  type SubscriptionStatus,
} from '@mirror/contract';
import Stripe from 'stripe';
import type { Config } from '../../config/env.js';
import {
  PaymentDeclinedError,
  type BillingEvent,
  type PaymentProvider,
} from './payment-provider.js';

/**
 * The Stripe provider: the official SDK, pinned to the API version its types describe. Webhooks are
 * the source of truth for state; the answers of the calls below are what the user sees at once.
 */

type StripeOptions = NonNullable<Config['payments']['stripe']>;

export interface StripePaymentProvider extends PaymentProvider {
  /** A verified webhook as a BillingEvent; null for events we do not act on. */
  parseWebhook(rawBody: Buffer, signature: string | undefined): BillingEvent | null;
}

/** A webhook whose `Stripe-Signature` is missing or does not match the signing secret. */
export class InvalidWebhookSignatureError extends Error {
  constructor() {
    super('Invalid webhook signature.');
    this.name = 'InvalidWebhookSignatureError';
  }
}

/** The version the SDK's types describe; a new SDK major changes it and makes us look again. */
const API_VERSION = '2026-10-28.endive';

export function createStripeProvider(options: StripeOptions): StripePaymentProvider {
  const stripe = new Stripe(options.secretKey, {
    apiVersion: API_VERSION,
    // Every create carries our idempotency key, so retrying after a lost answer is safe.
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    ...(options.apiUrl ? endpointOf(options.apiUrl) : {}),
  });
  const planOfPrice = new Map<string, PaidPlanId>([
    [options.prices.pro, 'pro'],
    [options.prices.agency, 'agency'],
  ]);

  function toSubscription(sub: Stripe.Subscription): Subscription {
    const mapped = mapSubscription(sub, planOfPrice);
    if (!mapped) throw new Error(`Stripe subscription ${sub.id} has a price that is not a plan`);
    return mapped;
  }

  async function retrievePaymentMethod(id: string): Promise<Stripe.PaymentMethod> {
    try {
      return await stripe.paymentMethods.retrieve(id);
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError) {
        throw new PaymentDeclinedError(PAYMENT_MESSAGES.paymentMethodNotFound);
      }
      throw error;
    }
  }

  /**
   * Makes sure the payment method is this customer's, attaching it when it is no one's yet.
   * Answers its id: Stripe turns a test id such as `pm_card_visa` into a new one.
   */
  async function ownPaymentMethod(customerId: string, paymentMethodId: string): Promise<string> {
    const pm = await retrievePaymentMethod(paymentMethodId);
    const owner = idOf(pm.customer);
    if (owner === customerId) return pm.id;
    if (owner) throw new PaymentDeclinedError(PAYMENT_MESSAGES.paymentMethodNotFound);
    const attached = await declinesAsErrors(() =>
      stripe.paymentMethods.attach(paymentMethodId, { customer: customerId }),
    );
    return attached.id;
  }

  return {
    mode: 'stripe',
    publishableKey: options.publishableKey,

    async createCustomer(user) {
      const customer = await stripe.customers.create(
        { email: user.email, name: user.name, metadata: { userId: user.id } },
        // One customer per user even when the answer is lost and the call repeated.
        { idempotencyKey: `customer-${user.id}` },
      );
      return customer.id;
    },

    async createSetupIntent(customerId) {
      const intent = await stripe.setupIntents.create(
        { customer: customerId, usage: 'off_session', allowed_payment_method_types: ['card'] },
        { idempotencyKey: `setup-intent-${randomUUID()}` },
      );
      if (!intent.client_secret) throw new Error(`Stripe sent no client secret for ${intent.id}`);
      return { clientSecret: intent.client_secret };
    },

    async listPaymentMethods(customerId) {
      const [customer, methods] = await Promise.all([
        stripe.customers.retrieve(customerId),
        stripe.paymentMethods.list({ customer: customerId, type: 'card', limit: 100 }),
      ]);
      const defaultId = customer.deleted
        ? null
        : idOf(customer.invoice_settings.default_payment_method);
      return methods.data.flatMap((pm) => (pm.card ? [mapPaymentMethod(pm, defaultId)] : []));
    },

    async setDefaultPaymentMethod(customerId, paymentMethodId) {
      const id = await ownPaymentMethod(customerId, paymentMethodId);
      await stripe.customers.update(customerId, {
        invoice_settings: { default_payment_method: id },
      });
    },

    async detachPaymentMethod(customerId, paymentMethodId) {
      const pm = await retrievePaymentMethod(paymentMethodId);
      // Never detach another customer's card because its id was sent to us.
      if (idOf(pm.customer) !== customerId) {
        throw new PaymentDeclinedError(PAYMENT_MESSAGES.paymentMethodNotFound);
      }
      await stripe.paymentMethods.detach(pm.id);
    },

    async createSubscription({ customerId, planId, paymentMethodId, idempotencyKey }) {
      const defaultPaymentMethod = await ownPaymentMethod(customerId, paymentMethodId);
      const sub = await declinesAsErrors(() =>
        stripe.subscriptions.create(
          {
            customer: customerId,
            items: [{ price: options.prices[planId] }],
            default_payment_method: defaultPaymentMethod,
            // The first invoice's payment is confirmed by the browser (Stripe.js), 3-D Secure included.
            payment_behavior: 'default_incomplete',
            expand: ['latest_invoice.confirmation_secret'],
          },
          { idempotencyKey },
        ),
      );
      const invoice = typeof sub.latest_invoice === 'object' ? sub.latest_invoice : null;
      const clientSecret =
        sub.status === 'incomplete' ? (invoice?.confirmation_secret?.client_secret ?? null) : null;
      return { subscription: toSubscription(sub), clientSecret };
    },

    async updateSubscription(subscriptionId, planId, idempotencyKey) {
      const current = await stripe.subscriptions.retrieve(subscriptionId);
      const item = current.items.data[0];
      if (!item) throw new Error(`Stripe subscription ${subscriptionId} has no items`);
      const sub = await declinesAsErrors(() =>
        stripe.subscriptions.update(
          subscriptionId,
          {
            items: [{ id: item.id, price: options.prices[planId] }],
            proration_behavior: 'create_prorations',
          },
          { idempotencyKey },
        ),
      );
      return toSubscription(sub);
    },

    async cancelSubscription(subscriptionId, immediately) {
      const sub = immediately
        ? await stripe.subscriptions.cancel(subscriptionId)
        : await stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: true });
      return toSubscription(sub);
    },

    async reactivateSubscription(subscriptionId) {
      const sub = await stripe.subscriptions.update(subscriptionId, {
        cancel_at_period_end: false,
      });
      return toSubscription(sub);
    },

    async createPaymentIntent(input) {
      const intent = await declinesAsErrors(() =>
        stripe.paymentIntents.create(
          {
            amount: input.amount,
            currency: input.currency,
            description: input.description,
            metadata: input.metadata,
            customer: input.customerId,
            // Cards only: no redirecting methods, so confirming here needs no return URL.
            allowed_payment_method_types: ['card'],
            ...(input.paymentMethodId
              ? { payment_method: input.paymentMethodId, confirm: true, off_session: false }
              : {}),
          },
          { idempotencyKey: input.idempotencyKey },
        ),
      );
      if (!intent.client_secret) throw new Error(`Stripe sent no client secret for ${intent.id}`);
      return {
        id: intent.id,
        clientSecret: intent.client_secret,
        status: mapIntentStatus(intent.status),
      };
    },

    async retrievePaymentIntent(paymentIntentId) {
      const intent = await stripe.paymentIntents.retrieve(paymentIntentId);
      return {
        id: intent.id,
        status: mapIntentStatus(intent.status),
        amount: intent.amount,
        customerId: idOf(intent.customer),
        metadata: { ...intent.metadata },
      };
    },

    async refundPaymentIntent(paymentIntentId, idempotencyKey) {
      try {
        await stripe.refunds.create({ payment_intent: paymentIntentId }, { idempotencyKey });
      } catch (error) {
        // Refunded already (by us before, or in the dashboard): what was asked for holds.
        if (
          error instanceof Stripe.errors.StripeInvalidRequestError &&
          error.code === 'charge_already_refunded'
        )
          return;
        throw error;
      }
    },

    async listInvoices(customerId) {
      const invoices = await stripe.invoices.list({ customer: customerId, limit: 100 });
      return invoices.data.map(mapInvoice);
    },

    async invoicePdf(customerId, invoiceId) {
      let invoice: Stripe.Invoice;
      try {
        invoice = await stripe.invoices.retrieve(invoiceId);
      } catch (error) {
        if (error instanceof Stripe.errors.StripeInvalidRequestError) return null;
        throw error;
      }
      if (idOf(invoice.customer) !== customerId || !invoice.invoice_pdf) return null;
      return downloadPdf(invoice.invoice_pdf, options.apiUrl);
    },

    async createPortalSession(customerId, returnUrl) {
      const session = await stripe.billingPortal.sessions.create(
        { customer: customerId, return_url: returnUrl },
        { idempotencyKey: `portal-session-${randomUUID()}` },
      );
      return { url: session.url };
    },

    parseWebhook(rawBody, signature) {
      if (!signature) throw new InvalidWebhookSignatureError();
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signature, options.webhookSecret);
      } catch (error) {
        if (error instanceof Stripe.errors.StripeSignatureVerificationError) {
          throw new InvalidWebhookSignatureError();
        }
        throw error;
      }
      return toBillingEvent(event, planOfPrice);
    },
  };
}

/** A local stand-in for api.stripe.com (tests only): the SDK's host, port and protocol. */
function endpointOf(apiUrl: string): Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'> {
  const url = new URL(apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return {
    host: url.hostname,
    port: url.port || (protocol === 'http' ? 80 : 443),
    protocol,
  };
}

/** Card errors (declined, expired, authentication failed…) carry a message meant for the card holder. */
async function declinesAsErrors<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof Stripe.errors.StripeCardError) {
      throw new PaymentDeclinedError(error.message);
    }
    if (
      error instanceof Stripe.errors.StripeInvalidRequestError &&
      error.code === 'resource_missing' &&
      error.param?.includes('payment_method')
    ) {
      throw new PaymentDeclinedError(PAYMENT_MESSAGES.paymentMethodNotFound);
    }
    throw error;
  }
}

function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === 'string' ? value : value.id;
}

/**
 * Our view of a Stripe subscription; null when its price is none of our plans (another product in
 * the same Stripe account). Periods live on the items since API version 2025-03-31 and on the
 * subscription before it: webhooks may come in an endpoint's older version, so both are read.
 */
export function mapSubscription(
  sub: Stripe.Subscription,
  planOfPrice: ReadonlyMap<string, PaidPlanId>,
): Subscription | null {
  const item = sub.items.data[0];
  const plan = item ? planOfPrice.get(item.price.id) : undefined;
  if (!item || !plan) return null;
  const legacy = sub as Partial<Record<'current_period_start' | 'current_period_end', number>>;
  return {
    id: sub.id,
    // `paused` (a trial ended without a card) gives no plan, as `unpaid` does.
    status: (SUBSCRIPTION_STATUSES as readonly string[]).includes(sub.status)
      ? (sub.status as SubscriptionStatus)
      : 'unpaid',
    plan,
    current_period_start:
      item.current_period_start ?? legacy.current_period_start ?? sub.start_date,
    current_period_end: item.current_period_end ?? legacy.current_period_end ?? sub.start_date,
    cancel_at_period_end: sub.cancel_at_period_end,
    trial_end: sub.trial_end ?? null,
  };
}

function mapPaymentMethod(pm: Stripe.PaymentMethod, defaultId: string | null): PaymentMethod {
  const card = pm.card!;
  return {
    id: pm.id,
    brand: card.brand,
    last4: card.last4,
    expMonth: card.exp_month,
    expYear: card.exp_year,
    isDefault: pm.id === defaultId,
  };
}

function mapIntentStatus(status: Stripe.PaymentIntent.Status): PaymentIntentResponse['status'] {
  // `requires_capture` (we capture automatically) and statuses newer than this code: not done yet.
  return (PAYMENT_INTENT_STATUSES as readonly string[]).includes(status)
    ? (status as PaymentIntentResponse['status'])
    : 'processing';
}

function mapInvoice(invoice: Stripe.Invoice): Invoice {
  return {
    id: invoice.id!,
    number: invoice.number,
    created: invoice.created,
    total: invoice.total,
    currency: invoice.currency,
    status: invoice.status ?? 'draft',
    description: invoice.description ?? invoice.lines?.data[0]?.description ?? null,
  };
}

/** Stripe serves invoice PDFs from its own hosts; anything else is not fetched. */
async function downloadPdf(pdfUrl: string, apiUrl: string | undefined): Promise<Buffer> {
  const url = new URL(pdfUrl);
  const fromStripe = url.protocol === 'https:' && /(^|\.)stripe\.com$/.test(url.hostname);
  const fromStandIn = apiUrl !== undefined && url.origin === new URL(apiUrl).origin;
  if (!fromStripe && !fromStandIn) throw new Error(`Unexpected invoice PDF host ${url.host}`);
  const res = await fetch(url, { signal: AbortSignal.timeout(30_000) });
  if (!res.ok) throw new Error(`Invoice PDF download failed with status ${res.status}`);
  const bytes = Buffer.from(await res.arrayBuffer());
  if (!bytes.subarray(0, 5).equals(Buffer.from('%PDF-'))) {
    throw new Error('Invoice PDF download did not return a PDF');
  }
  return bytes;
}

function toBillingEvent(
  event: Stripe.Event,
  planOfPrice: ReadonlyMap<string, PaidPlanId>,
): BillingEvent | null {
  switch (event.type) {
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const sub = event.data.object;
      const subscription = mapSubscription(sub, planOfPrice);
      const customerId = idOf(sub.customer);
      if (!subscription || !customerId) return null;
      return {
        id: event.id,
        type:
          event.type === 'customer.subscription.deleted'
            ? 'subscription.deleted'
            : 'subscription.updated',
        created: event.created,
        customerId,
        subscription,
      };
    }
    case 'payment_intent.succeeded':
    case 'payment_intent.payment_failed': {
      const intent = event.data.object;
      return {
        id: event.id,
        type: event.type,
        created: event.created,
        customerId: idOf(intent.customer),
        paymentIntentId: intent.id,
        amount: intent.amount,
        metadata: { ...intent.metadata },
      };
    }
    case 'charge.refunded': {
      const charge = event.data.object;
      const paymentIntentId = idOf(charge.payment_intent);
      if (!paymentIntentId) return null;
      return {
        id: event.id,
        type: 'payment.refunded',
        created: event.created,
        paymentIntentId,
        fully: charge.refunded,
      };
    }
    case 'charge.dispute.created': {
      const dispute = event.data.object;
      const paymentIntentId = idOf(dispute.payment_intent);
      if (!paymentIntentId) return null;
      return {
        id: event.id,
        type: 'payment.disputed',
        created: event.created,
        paymentIntentId,
        fully: true,
      };
    }
    default:
      return null;
  }
}
