import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/**
 * A local server speaking the parts of Stripe's REST API that Mirror uses, so tests run the real
 * `stripe` SDK against it (through its host/port/protocol options). Like api.stripe.com it takes
 * form-encoded bodies in bracket notation (`items[0][price]=…`, `expand[0]=…`), checks the Bearer
 * key, answers JSON objects with `object` fields and lists as `{ object: 'list', data }`, replays the
 * first answer for a repeated `Idempotency-Key`, answers card errors with 402, and keeps state.
 *
 * Test payment method ids behave as in Stripe's test mode: `pm_card_visa` succeeds,
 * `pm_card_chargeDeclined` is declined (also when attached), `pm_card_threeDSecure2Required` needs
 * 3-D Secure. Using one creates a new `pm_…` each time, as Stripe does.
 *
 * Subscriptions support `payment_behavior=default_incomplete` (what Mirror sends): the first
 * invoice's PaymentIntent waits for confirmation (`POST /v1/payment_intents/:id/confirm`, which is
 * what Stripe.js does in the browser), then the invoice is paid and the subscription active.
 *
 * Every change is also recorded as the event Stripe would send to a webhook (`events`), so tests
 * sign real event payloads with `signEvent` instead of writing them by hand.
 *
 * A PaymentIntent that succeeds gets a Charge (`latest_charge`, `charge.succeeded`). Refunds
 * (`POST /v1/refunds` with `payment_intent` or `charge`) refund it in full or in part
 * (`refund.created`, `charge.refunded`; a charge refunded in full answers
 * `charge_already_refunded`), and `dispute()` stands in for a card holder disputing a charge
 * (`charge.dispute.created`).
 */

export interface StripeServerOptions {
  secretKey?: string;
  /** Recurring monthly prices by id (amount in cents). */
  prices?: Record<string, { unitAmount: number; product: string }>;
}

export interface StripeRequest {
  method: string;
  path: string;
  params: Params;
  idempotencyKey: string | undefined;
  stripeVersion: string | undefined;
}

export interface StripeEvent {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  type: string;
  data: { object: Json; previous_attributes?: Json };
  livemode: false;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
}

type Json = { [key: string]: unknown };
type Param = string | Params | Param[];
type Params = { [key: string]: Param };

type CardBehaviour = 'succeeds' | 'declined' | 'requires_action';

/** Stripe's test payment method ids and the card each one stands for. */
export const TEST_PAYMENT_METHODS: Record<
  string,
  { brand: string; last4: string; behaviour: CardBehaviour }
> = {
  pm_card_visa: { brand: 'visa', last4: '4242', behaviour: 'succeeds' },
  pm_card_mastercard: { brand: 'mastercard', last4: '4444', behaviour: 'succeeds' },
  pm_card_chargeDeclined: { brand: 'visa', last4: '0002', behaviour: 'declined' },
  pm_card_threeDSecure2Required: { brand: 'visa', last4: '3220', behaviour: 'requires_action' },
};

const DEFAULT_PRICES: Record<string, { unitAmount: number; product: string }> = {
  price_pro: { unitAmount: 700, product: 'Mirror Pro' },
  price_agency: { unitAmount: 2900, product: 'Mirror Agency' },
};

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: Json,
  ) {
    super(String(body.message));
  }
}

const invalid = (message: string, extra: Json = {}) =>
  new ApiError(400, { type: 'invalid_request_error', message, ...extra });
const missing = (kind: string, id: string, param = 'id') =>
  new ApiError(404, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    param,
    message: `No such ${kind}: '${id}'`,
  });

export async function startStripeServer(options: StripeServerOptions = {}) {
  const secretKey = options.secretKey ?? 'sk_test_x';
  const prices = options.prices ?? DEFAULT_PRICES;
  const requests: StripeRequest[] = [];
  const events: StripeEvent[] = [];
  const state = {
    customers: new Map<string, Json>(),
    paymentMethods: new Map<string, Json>(),
    setupIntents: new Map<string, Json>(),
    subscriptions: new Map<string, Json>(),
    invoices: new Map<string, Json>(),
    paymentIntents: new Map<string, Json>(),
    charges: new Map<string, Json>(),
    refunds: new Map<string, Json>(),
    disputes: new Map<string, Json>(),
    portalSessions: new Map<string, Json>(),
  };
  const cardBehaviour = new Map<string, CardBehaviour>();
  const invoiceOfIntent = new Map<string, string>();
  const intentOfInvoice = new Map<string, string>();
  const invoicePrefix = new Map<string, string>();
  const idempotent = new Map<
    string,
    { route: string; params: string; status: number; body: Json }
  >();
  let clockOffset = 0;
  let baseUrl = '';
  let current: { requestId: string; idempotencyKey: string | null; version: string } | null = null;

  const now = () => Math.floor(Date.now() / 1000) + clockOffset;
  const newId = (prefix: string) => `${prefix}_${randomBytes(10).toString('hex')}`;
  const base = (prefix: string, object: string): Json => ({
    id: newId(prefix),
    object,
    created: now(),
    livemode: false,
  });

  function record(type: string, object: Json, previous?: Json) {
    events.push({
      id: newId('evt'),
      object: 'event',
      api_version: current?.version ?? Stripe.API_VERSION,
      created: now(),
      type,
      data: {
        object: structuredClone(object),
        ...(previous ? { previous_attributes: previous } : {}),
      },
      livemode: false,
      pending_webhooks: 1,
      request: { id: current?.requestId ?? null, idempotency_key: current?.idempotencyKey ?? null },
    });
  }

  function get(map: Map<string, Json>, kind: string, id: string, param = 'id'): Json {
    const found = map.get(id);
    if (!found) throw missing(kind, id, param);
    return found;
  }

  // --- payment methods ---------------------------------------------------------------------

  /** A test id (`pm_card_visa`) makes a new payment method; an existing id is looked up. */
  function paymentMethodFor(id: string, param = 'payment_method'): Json {
    const test = TEST_PAYMENT_METHODS[id];
    if (!test) return get(state.paymentMethods, 'PaymentMethod', id, param);
    const pm: Json = {
      ...base('pm', 'payment_method'),
      type: 'card',
      customer: null,
      metadata: {},
      billing_details: { address: null, email: null, name: null, phone: null },
      card: {
        brand: test.brand,
        last4: test.last4,
        exp_month: 12,
        exp_year: new Date().getUTCFullYear() + 3,
        country: 'US',
        funding: 'credit',
      },
    };
    state.paymentMethods.set(pm.id as string, pm);
    cardBehaviour.set(pm.id as string, test.behaviour);
    return pm;
  }

  function cardError(message: string, code: string, extra: Json = {}) {
    return new ApiError(402, { type: 'card_error', code, message, param: '', ...extra });
  }

  function attach(id: string, customerId: string): Json {
    get(state.customers, 'customer', customerId, 'customer');
    if (TEST_PAYMENT_METHODS[id]?.behaviour === 'declined') {
      throw cardError('Your card was declined.', 'card_declined', {
        decline_code: 'generic_decline',
      });
    }
    const pm = paymentMethodFor(id);
    if (pm.customer === customerId) return pm;
    if (pm.customer) {
      throw invalid('The payment method you provided has already been attached to a customer.', {
        code: 'payment_method_unexpected_state',
      });
    }
    pm.customer = customerId;
    return pm;
  }

  function detach(id: string): Json {
    const pm = get(state.paymentMethods, 'PaymentMethod', id);
    if (!pm.customer) {
      throw invalid(
        'The payment method you provided is not attached to a customer so detachment is impossible.',
        { code: 'payment_method_unexpected_state' },
      );
    }
    const customer = state.customers.get(pm.customer as string);
    const settings = customer?.invoice_settings as Json | undefined;
    if (settings?.default_payment_method === id) settings.default_payment_method = null;
    pm.customer = null;
    return pm;
  }

  // --- payment intents ---------------------------------------------------------------------

  function newPaymentIntent(p: Params, customerId: string | null): Json {
    const pi: Json = {
      ...base('pi', 'payment_intent'),
      amount: Number(p.amount),
      amount_received: 0,
      currency: str(p.currency) ?? 'usd',
      customer: customerId,
      description: str(p.description) ?? null,
      metadata: (p.metadata as Json | undefined) ?? {},
      payment_method: null,
      allowed_payment_method_types: (p.allowed_payment_method_types as string[] | undefined) ?? [
        'card',
      ],
      capture_method: 'automatic',
      confirmation_method: 'automatic',
      last_payment_error: null,
      latest_charge: null,
      next_action: null,
      status: 'requires_payment_method',
    };
    pi.client_secret = `${pi.id as string}_secret_${randomBytes(8).toString('hex')}`;
    state.paymentIntents.set(pi.id as string, pi);
    return pi;
  }

  function usePaymentMethod(pi: Json, id: string) {
    const pm = paymentMethodFor(id);
    if (pm.customer && pm.customer !== pi.customer) {
      throw invalid(`The provided PaymentMethod ${pm.id as string} belongs to another customer.`, {
        code: 'payment_method_invalid_parameter',
        param: 'payment_method',
      });
    }
    pi.payment_method = pm.id;
    pi.status = 'requires_confirmation';
  }

  /** Charges the intent's card the way the test card behaves. */
  function confirm(pi: Json) {
    if (!pi.payment_method) {
      throw invalid(
        "You cannot confirm this PaymentIntent because it's missing a payment method.",
        { code: 'payment_intent_unexpected_state' },
      );
    }
    if (pi.status !== 'requires_confirmation' && pi.status !== 'requires_payment_method') {
      throw invalid(`This PaymentIntent's status is ${String(pi.status)}.`, {
        code: 'payment_intent_unexpected_state',
      });
    }
    const behaviour = cardBehaviour.get(pi.payment_method as string) ?? 'succeeds';
    if (behaviour === 'declined') {
      const error = {
        type: 'card_error',
        code: 'card_declined',
        decline_code: 'generic_decline',
        message: 'Your card was declined.',
      };
      Object.assign(pi, { status: 'requires_payment_method', last_payment_error: error });
      record('payment_intent.payment_failed', pi);
      throw cardError(error.message, error.code, {
        decline_code: error.decline_code,
        payment_intent: structuredClone(pi),
      });
    }
    if (behaviour === 'requires_action') {
      Object.assign(pi, {
        status: 'requires_action',
        next_action: {
          type: 'use_stripe_sdk',
          use_stripe_sdk: { type: 'three_d_secure_redirect' },
        },
      });
      record('payment_intent.requires_action', pi);
      return;
    }
    succeed(pi);
  }

  function succeed(pi: Json) {
    const charge: Json = {
      ...base('ch', 'charge'),
      amount: pi.amount,
      amount_captured: pi.amount,
      amount_refunded: 0,
      captured: true,
      currency: pi.currency,
      customer: pi.customer,
      description: pi.description,
      disputed: false,
      metadata: {},
      paid: true,
      payment_intent: pi.id,
      payment_method: pi.payment_method,
      refunded: false,
      refunds: { object: 'list', data: [], has_more: false, url: '/v1/refunds' },
      status: 'succeeded',
    };
    state.charges.set(charge.id as string, charge);
    Object.assign(pi, {
      status: 'succeeded',
      amount_received: pi.amount,
      last_payment_error: null,
      latest_charge: charge.id,
      next_action: null,
    });
    record('charge.succeeded', charge);
    record('payment_intent.succeeded', pi);
    const invoiceId = invoiceOfIntent.get(pi.id as string);
    if (invoiceId) payInvoice(get(state.invoices, 'invoice', invoiceId));
  }

  // --- refunds and disputes ----------------------------------------------------------------

  /** The charge of a succeeded PaymentIntent (`payment_intent`) or a charge id (`charge`). */
  function chargeOf(p: Params): Json {
    const chargeId = str(p.charge);
    if (chargeId) return get(state.charges, 'charge', chargeId, 'charge');
    const pi = get(
      state.paymentIntents,
      'payment_intent',
      str(p.payment_intent) ?? '',
      'payment_intent',
    );
    if (!pi.latest_charge) {
      throw invalid(
        `PaymentIntent ${pi.id as string} does not have a successful charge to refund.`,
        {
          code: 'charge_not_refundable',
          param: 'payment_intent',
        },
      );
    }
    return get(state.charges, 'charge', pi.latest_charge as string, 'charge');
  }

  function refund(p: Params): Json {
    const charge = chargeOf(p);
    const left = Number(charge.amount) - Number(charge.amount_refunded);
    if (charge.refunded || left <= 0) {
      throw invalid(`Charge ${charge.id as string} has already been refunded.`, {
        code: 'charge_already_refunded',
      });
    }
    const amount = p.amount === undefined ? left : Number(p.amount);
    if (!(amount > 0 && amount <= left)) {
      throw invalid(
        `Refund amount ($${amount / 100}) is greater than unrefunded amount on charge ($${left / 100})`,
        {
          param: 'amount',
        },
      );
    }
    const created: Json = {
      ...base('re', 'refund'),
      amount,
      charge: charge.id,
      currency: charge.currency,
      metadata: (p.metadata as Json | undefined) ?? {},
      payment_intent: charge.payment_intent,
      reason: str(p.reason) ?? null,
      status: 'succeeded',
    };
    state.refunds.set(created.id as string, created);
    charge.amount_refunded = Number(charge.amount_refunded) + amount;
    charge.refunded = charge.amount_refunded === charge.amount;
    (charge.refunds as { data: Json[] }).data.unshift(structuredClone(created));
    record('refund.created', created);
    record('charge.refunded', charge, { amount_refunded: Number(charge.amount_refunded) - amount });
    return created;
  }

  // --- subscriptions and invoices ------------------------------------------------------------

  function priceObject(id: string, param: string): Json {
    const price = prices[id];
    if (!price) throw missing('price', id, param);
    return {
      id,
      object: 'price',
      active: true,
      currency: 'usd',
      unit_amount: price.unitAmount,
      product: `prod_${id.replace(/^price_/, '')}`,
      recurring: { interval: 'month', interval_count: 1, usage_type: 'licensed' },
      type: 'recurring',
      livemode: false,
    };
  }

  function newItem(subscriptionId: string, priceId: string, param: string, start: number): Json {
    return {
      ...base('si', 'subscription_item'),
      subscription: subscriptionId,
      price: priceObject(priceId, param),
      quantity: 1,
      metadata: {},
      current_period_start: start,
      current_period_end: addMonth(start),
    };
  }

  function createInvoice(customerId: string, sub: Json): Json {
    const items = (sub.items as { data: Json[] }).data;
    const total = items.reduce((sum, item) => sum + Number((item.price as Json).unit_amount), 0);
    const prefix = invoicePrefix.get(customerId) ?? randomBytes(4).toString('hex').toUpperCase();
    invoicePrefix.set(customerId, prefix);
    const count = [...state.invoices.values()].filter((i) => i.customer === customerId).length;
    const invoice: Json = {
      ...base('in', 'invoice'),
      customer: customerId,
      number: `${prefix}-${String(count + 1).padStart(4, '0')}`,
      status: 'open',
      currency: 'usd',
      description: null,
      subtotal: total,
      total,
      amount_due: total,
      amount_paid: 0,
      period_start: now(),
      period_end: now(),
      parent: { type: 'subscription_details', subscription_details: { subscription: sub.id } },
      lines: {
        object: 'list',
        data: items.map((item) => ({
          id: newId('il'),
          object: 'line_item',
          amount: (item.price as Json).unit_amount,
          currency: 'usd',
          description: `1 × ${productName(item)} (at ${money(item)} / month)`,
          period: { start: item.current_period_start, end: item.current_period_end },
        })),
        has_more: false,
        url: '/v1/invoices/lines',
      },
    };
    invoice.invoice_pdf = `${baseUrl}/invoice_pdf/${invoice.id as string}`;
    invoice.hosted_invoice_url = `${baseUrl}/invoice/${invoice.id as string}`;
    state.invoices.set(invoice.id as string, invoice);
    return invoice;
  }

  function productName(item: Json): string {
    return prices[(item.price as Json).id as string]?.product ?? 'Subscription';
  }

  function payInvoice(invoice: Json) {
    Object.assign(invoice, { status: 'paid', amount_paid: invoice.total, amount_due: 0 });
    record('invoice.paid', invoice);
    const subscriptionId = ((invoice.parent as Json).subscription_details as Json).subscription;
    const sub = state.subscriptions.get(subscriptionId as string);
    if (sub && sub.status === 'incomplete') {
      sub.status = 'active';
      record('customer.subscription.updated', sub, { status: 'incomplete' });
    }
  }

  function createSubscription(p: Params): Json {
    const customerId = str(p.customer) ?? '';
    get(state.customers, 'customer', customerId, 'customer');
    if (p.payment_behavior !== 'default_incomplete') {
      throw invalid('The local Stripe server supports payment_behavior=default_incomplete only.');
    }
    const itemParams = (p.items as Params[] | undefined) ?? [];
    if (itemParams.length === 0)
      throw invalid('Missing required param: items.', { param: 'items' });
    const paymentMethod = str(p.default_payment_method) ?? null;
    if (paymentMethod) {
      const pm = state.paymentMethods.get(paymentMethod);
      if (!pm || pm.customer !== customerId) {
        throw invalid(
          `The customer does not have a payment method with the ID ${paymentMethod}. The payment method must be attached to the customer.`,
          { code: 'resource_missing', param: 'default_payment_method' },
        );
      }
    }
    const start = now();
    const sub: Json = {
      ...base('sub', 'subscription'),
      customer: customerId,
      status: 'incomplete',
      cancel_at_period_end: false,
      cancel_at: null,
      canceled_at: null,
      ended_at: null,
      collection_method: 'charge_automatically',
      currency: 'usd',
      default_payment_method: paymentMethod,
      metadata: (p.metadata as Json | undefined) ?? {},
      start_date: start,
      billing_cycle_anchor: start,
      trial_start: null,
      trial_end: null,
    };
    sub.items = {
      object: 'list',
      data: itemParams.map((item, i) =>
        newItem(sub.id as string, str(item.price) ?? '', `items[${i}][price]`, start),
      ),
      has_more: false,
      url: `/v1/subscription_items?subscription=${sub.id as string}`,
    };
    const invoice = createInvoice(customerId, sub);
    sub.latest_invoice = invoice.id;
    const pi = newPaymentIntent(
      { amount: String(invoice.total), currency: 'usd', description: 'Subscription creation' },
      customerId,
    );
    if (paymentMethod) usePaymentMethod(pi, paymentMethod);
    invoiceOfIntent.set(pi.id as string, invoice.id as string);
    intentOfInvoice.set(invoice.id as string, pi.id as string);
    state.subscriptions.set(sub.id as string, sub);
    record('customer.subscription.created', sub);
    return sub;
  }

  function updateSubscription(sub: Json, p: Params): Json {
    if (sub.status === 'canceled') {
      throw invalid(
        'A canceled subscription can only update its cancellation_details and metadata.',
      );
    }
    const previous: Json = {};
    const before = structuredClone(sub);
    const items = sub.items as { data: Json[] };
    for (const [i, change] of ((p.items as Params[] | undefined) ?? []).entries()) {
      const price = str(change.price);
      const item = items.data.find((it) => it.id === str(change.id));
      if (change.id && !item)
        throw missing('subscription item', String(change.id), `items[${i}][id]`);
      if (item && price) item.price = priceObject(price, `items[${i}][price]`);
      if (!item && price) {
        items.data.push(newItem(sub.id as string, price, `items[${i}][price]`, now()));
      }
    }
    if (p.items) previous.items = before.items;
    if (p.cancel_at_period_end !== undefined) {
      const cancel = p.cancel_at_period_end === 'true';
      const periodEnd = (items.data[0] as Json).current_period_end;
      Object.assign(sub, { cancel_at_period_end: cancel, cancel_at: cancel ? periodEnd : null });
    }
    if (p.default_payment_method !== undefined) {
      sub.default_payment_method = str(p.default_payment_method) || null;
    }
    for (const key of ['cancel_at_period_end', 'cancel_at', 'default_payment_method'] as const) {
      if (before[key] !== sub[key]) previous[key] = before[key];
    }
    record('customer.subscription.updated', sub, previous);
    return sub;
  }

  function cancelSubscription(sub: Json): Json {
    if (sub.status === 'canceled') {
      throw invalid(`No such subscription: '${sub.id as string}'`, { code: 'resource_missing' });
    }
    Object.assign(sub, {
      status: 'canceled',
      canceled_at: now(),
      ended_at: now(),
      cancel_at_period_end: false,
    });
    record('customer.subscription.deleted', sub);
    return sub;
  }

  // --- rendering ---------------------------------------------------------------------------

  /** Fields that hold an id and can be expanded into the object. */
  const expandable: Record<string, Map<string, Json>> = {
    latest_invoice: state.invoices,
    customer: state.customers,
    payment_method: state.paymentMethods,
    default_payment_method: state.paymentMethods,
  };

  function render(object: Json, expand: Param | undefined): Json {
    const out = structuredClone(object);
    for (const path of (Array.isArray(expand) ? expand : []).map(String)) {
      let node: Json | null = out;
      for (const field of path.split('.')) {
        if (!node) break;
        node = expandField(node, field, path);
      }
    }
    return out;
  }

  function expandField(node: Json, field: string, path: string): Json | null {
    // An invoice's confirmation secret is included only when asked for, as on api.stripe.com.
    if (node.object === 'invoice' && field === 'confirmation_secret') {
      const pi = state.paymentIntents.get(intentOfInvoice.get(node.id as string) ?? '');
      node[field] =
        pi && node.status === 'open'
          ? { client_secret: pi.client_secret, type: 'payment_intent' }
          : null;
      return null;
    }
    const objects = expandable[field];
    if (!objects || !(field in node)) {
      throw invalid(`This property cannot be expanded (${path}).`, { param: 'expand' });
    }
    const value = node[field];
    if (typeof value === 'string') node[field] = structuredClone(objects.get(value) ?? null);
    return node[field] as Json | null;
  }

  function list(url: string, data: Json[], p: Params): Json {
    const limit = Math.min(Number(p.limit ?? 10), 100);
    const sorted = [...data].sort((a, b) => Number(b.created) - Number(a.created));
    return { object: 'list', url, has_more: sorted.length > limit, data: sorted.slice(0, limit) };
  }

  // --- routes ------------------------------------------------------------------------------

  type Handler = (params: Params, id: string) => Json;
  const routes: [string, RegExp, Handler][] = [
    [
      'POST',
      /^\/v1\/customers$/,
      (p) => {
        const customer: Json = {
          ...base('cus', 'customer'),
          email: str(p.email) ?? null,
          name: str(p.name) ?? null,
          metadata: (p.metadata as Json | undefined) ?? {},
          invoice_settings: { default_payment_method: null, custom_fields: null, footer: null },
        };
        state.customers.set(customer.id as string, customer);
        return customer;
      },
    ],
    [
      'GET',
      /^\/v1\/customers\/([^/]+)$/,
      (p, id) => render(get(state.customers, 'customer', id), p.expand),
    ],
    [
      'POST',
      /^\/v1\/customers\/([^/]+)$/,
      (p, id) => {
        const customer = get(state.customers, 'customer', id);
        const settings = p.invoice_settings as Params | undefined;
        if (settings?.default_payment_method !== undefined) {
          const pmId = str(settings.default_payment_method) ?? '';
          if (pmId && state.paymentMethods.get(pmId)?.customer !== id) {
            throw invalid(
              `The customer does not have a payment method with the ID ${pmId}. The payment method must be attached to the customer.`,
              { code: 'resource_missing', param: 'invoice_settings[default_payment_method]' },
            );
          }
          (customer.invoice_settings as Json).default_payment_method = pmId || null;
        }
        for (const key of ['email', 'name'] as const) {
          if (p[key] !== undefined) customer[key] = str(p[key]) || null;
        }
        return customer;
      },
    ],
    [
      'POST',
      /^\/v1\/setup_intents$/,
      (p) => {
        const customer = str(p.customer) ?? null;
        if (customer) get(state.customers, 'customer', customer, 'customer');
        const intent: Json = {
          ...base('seti', 'setup_intent'),
          customer,
          usage: str(p.usage) ?? 'off_session',
          allowed_payment_method_types: p.allowed_payment_method_types ?? ['card'],
          payment_method: null,
          status: 'requires_payment_method',
        };
        intent.client_secret = `${intent.id as string}_secret_${randomBytes(8).toString('hex')}`;
        state.setupIntents.set(intent.id as string, intent);
        return intent;
      },
    ],
    [
      'GET',
      /^\/v1\/payment_methods$/,
      (p) => {
        const customer = str(p.customer);
        if (!customer) throw invalid('Missing required param: customer.', { param: 'customer' });
        const type = str(p.type);
        const found = [...state.paymentMethods.values()].filter(
          (pm) => pm.customer === customer && (!type || pm.type === type),
        );
        return list('/v1/payment_methods', found, p);
      },
    ],
    ['GET', /^\/v1\/payment_methods\/([^/]+)$/, (_p, id) => paymentMethodFor(id, 'id')],
    [
      'POST',
      /^\/v1\/payment_methods\/([^/]+)\/attach$/,
      (p, id) => attach(id, str(p.customer) ?? ''),
    ],
    ['POST', /^\/v1\/payment_methods\/([^/]+)\/detach$/, (_p, id) => detach(id)],
    ['POST', /^\/v1\/subscriptions$/, (p) => render(createSubscription(p), p.expand)],
    [
      'GET',
      /^\/v1\/subscriptions\/([^/]+)$/,
      (p, id) => render(get(state.subscriptions, 'subscription', id), p.expand),
    ],
    [
      'POST',
      /^\/v1\/subscriptions\/([^/]+)$/,
      (p, id) =>
        render(updateSubscription(get(state.subscriptions, 'subscription', id), p), p.expand),
    ],
    [
      'DELETE',
      /^\/v1\/subscriptions\/([^/]+)$/,
      (p, id) => render(cancelSubscription(get(state.subscriptions, 'subscription', id)), p.expand),
    ],
    [
      'POST',
      /^\/v1\/payment_intents$/,
      (p) => {
        if (!(Number(p.amount) >= 50)) {
          throw invalid('Amount must be at least $0.50 usd', {
            code: 'amount_too_small',
            param: 'amount',
          });
        }
        const customer = str(p.customer) ?? null;
        if (customer) get(state.customers, 'customer', customer, 'customer');
        const pi = newPaymentIntent(p, customer);
        const paymentMethod = str(p.payment_method);
        if (paymentMethod) usePaymentMethod(pi, paymentMethod);
        record('payment_intent.created', pi);
        if (p.confirm === 'true') confirm(pi);
        return render(pi, p.expand);
      },
    ],
    [
      'GET',
      /^\/v1\/payment_intents\/([^/]+)$/,
      (p, id) => render(get(state.paymentIntents, 'payment_intent', id), p.expand),
    ],
    [
      'POST',
      /^\/v1\/payment_intents\/([^/]+)\/confirm$/,
      (p, id) => {
        const pi = get(state.paymentIntents, 'payment_intent', id);
        const paymentMethod = str(p.payment_method);
        if (paymentMethod) usePaymentMethod(pi, paymentMethod);
        confirm(pi);
        return render(pi, p.expand);
      },
    ],
    ['POST', /^\/v1\/refunds$/, (p) => refund(p)],
    [
      'GET',
      /^\/v1\/invoices$/,
      (p) => {
        const customer = str(p.customer);
        const found = [...state.invoices.values()].filter(
          (i) => !customer || i.customer === customer,
        );
        return list('/v1/invoices', found, p);
      },
    ],
    [
      'GET',
      /^\/v1\/invoices\/([^/]+)$/,
      (p, id) => render(get(state.invoices, 'invoice', id), p.expand),
    ],
    [
      'POST',
      /^\/v1\/billing_portal\/sessions$/,
      (p) => {
        const customer = str(p.customer) ?? '';
        get(state.customers, 'customer', customer, 'customer');
        const session: Json = {
          ...base('bps', 'billing_portal.session'),
          customer,
          return_url: str(p.return_url) ?? null,
        };
        session.url = `${baseUrl}/p/session/${session.id as string}`;
        state.portalSessions.set(session.id as string, session);
        return session;
      },
    ],
  ];

  function handleApi(req: http.IncomingMessage, body: string, res: http.ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const method = req.method ?? 'GET';
    const params = parseParams(
      new URLSearchParams(method === 'GET' || method === 'DELETE' ? url.search : body),
    );
    const idempotencyKey = header(req, 'idempotency-key');
    const version = header(req, 'stripe-version') ?? Stripe.API_VERSION;
    requests.push({ method, path: url.pathname, params, idempotencyKey, stripeVersion: version });
    const requestId = newId('req');
    const send = (status: number, json: Json, replayed = false) => {
      res.writeHead(status, {
        'content-type': 'application/json',
        'request-id': requestId,
        'stripe-version': version,
        ...(replayed ? { 'idempotent-replayed': 'true' } : {}),
      });
      res.end(JSON.stringify(json));
    };
    if (header(req, 'authorization') !== `Bearer ${secretKey}`) {
      return send(401, {
        error: { type: 'invalid_request_error', message: 'Invalid API Key provided.' },
      });
    }
    const route = `${method} ${url.pathname}`;
    const fingerprint = JSON.stringify(params);
    const saved = method === 'POST' && idempotencyKey ? idempotent.get(idempotencyKey) : undefined;
    if (saved) {
      if (saved.route !== route || saved.params !== fingerprint) {
        return send(400, {
          error: {
            type: 'idempotency_error',
            message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
          },
        });
      }
      return send(saved.status, saved.body, true);
    }
    let status = 200;
    let json: Json;
    current = { requestId, idempotencyKey: idempotencyKey ?? null, version };
    try {
      const match = routes
        .filter(([m]) => m === method)
        .map(([, pattern, handler]) => [pattern.exec(url.pathname), handler] as const)
        .find(([m]) => m);
      if (!match) {
        throw new ApiError(404, {
          type: 'invalid_request_error',
          message: `Unrecognized request URL (${method}: ${url.pathname}).`,
        });
      }
      const [found, handler] = match;
      json = handler(params, decodeURIComponent(found![1] ?? ''));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      status = error.status;
      json = { error: { ...error.body, request_log_url: `${baseUrl}/logs/${requestId}` } };
    } finally {
      current = null;
    }
    if (method === 'POST' && idempotencyKey && status !== 401) {
      idempotent.set(idempotencyKey, {
        route,
        params: fingerprint,
        status,
        body: structuredClone(json),
      });
    }
    send(status, json);
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const pdf = /^\/invoice_pdf\/([^/?]+)$/.exec(req.url ?? '');
      if (req.method === 'GET' && pdf) {
        const invoice = state.invoices.get(pdf[1]!);
        res.writeHead(invoice ? 200 : 404, { 'content-type': 'application/pdf' });
        return res.end(invoice ? invoicePdf(invoice) : undefined);
      }
      try {
        handleApi(req, Buffer.concat(chunks).toString('utf8'), res);
      } catch (error) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ error: { type: 'api_error', message: (error as Error).message } }),
        );
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://127.0.0.1:${port}`;

  return {
    url: baseUrl,
    secretKey,
    state,
    requests,
    /** What Stripe would have sent to a webhook endpoint, oldest first. */
    events,
    /** The most recent recorded event of this type. */
    lastEvent(type: string): StripeEvent {
      const event = events.findLast((e) => e.type === type);
      if (!event) throw new Error(`No ${type} event was recorded`);
      return event;
    },
    /** The card holder's answer to a 3-D Secure check (made in Stripe.js's frame in real life). */
    authenticate(paymentIntentId: string, approve = true) {
      const pi = state.paymentIntents.get(paymentIntentId);
      if (pi?.status !== 'requires_action') throw new Error(`${paymentIntentId} awaits no action`);
      if (approve) return succeed(pi);
      const error = {
        type: 'card_error',
        code: 'payment_intent_authentication_failure',
        message:
          'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
      };
      Object.assign(pi, {
        status: 'requires_payment_method',
        last_payment_error: error,
        next_action: null,
      });
      record('payment_intent.payment_failed', pi);
    },
    /** The card holder disputes the charge of a succeeded PaymentIntent (made at their bank). */
    dispute(paymentIntentId: string, reason = 'fraudulent'): Json {
      const pi = get(state.paymentIntents, 'payment_intent', paymentIntentId);
      const charge = get(state.charges, 'charge', String(pi.latest_charge ?? ''), 'charge');
      charge.disputed = true;
      const created: Json = {
        ...base('dp', 'dispute'),
        amount: charge.amount,
        charge: charge.id,
        currency: charge.currency,
        evidence_details: { due_by: now() + 7 * 86_400, has_evidence: false },
        is_charge_refundable: !charge.refunded,
        metadata: {},
        payment_intent: pi.id,
        reason,
        status: 'needs_response',
      };
      state.disputes.set(created.id as string, created);
      record('charge.dispute.created', created);
      return created;
    },
    /** Moves the server's clock (event and object times) forward. */
    advanceTime(seconds: number) {
      clockOffset += seconds;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type StripeServer = Awaited<ReturnType<typeof startStripeServer>>;

/** A webhook delivery as Stripe makes it: the JSON body and its `Stripe-Signature` header. */
export function signEvent(event: StripeEvent, secret: string) {
  const payload = JSON.stringify(event);
  return { payload, signature: Stripe.webhooks.generateTestHeaderString({ payload, secret }) };
}

/** Parses Stripe's form encoding: `a[b][0][c]=v` becomes `{ a: { b: [{ c: 'v' }] } }`. */
export function parseParams(pairs: URLSearchParams): Params {
  const root: Params = {};
  for (const [key, value] of pairs) {
    const parts = key.replace(/\]/g, '').split('[');
    let node: Params | Param[] = root;
    parts.forEach((part, i) => {
      const container = node as Record<string, Param>;
      const slot = Array.isArray(node) && part === '' ? node.length : part;
      if (i === parts.length - 1) {
        container[slot] = value;
        return;
      }
      const next = parts[i + 1]!;
      container[slot] ??= /^\d*$/.test(next) ? [] : {};
      node = container[slot] as Params | Param[];
    });
  }
  return root;
}

function str(value: Param | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function header(req: http.IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function addMonth(seconds: number): number {
  const date = new Date(seconds * 1000);
  date.setUTCMonth(date.getUTCMonth() + 1);
  return Math.floor(date.getTime() / 1000);
}

function money(item: Json): string {
  return `$${(Number((item.price as Json).unit_amount) / 100).toFixed(2)}`;
}

/** A small, valid one-page PDF naming the invoice. */
function invoicePdf(invoice: Json): Buffer {
  const text = `Invoice ${String(invoice.number)} total ${String(invoice.total)} ${String(invoice.currency)}`;
  const stream = `BT /F1 12 Tf 72 720 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let pdf = '%PDF-1.4\n';
  const offsets = objects.map((body, i) => {
    const offset = pdf.length;
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
    return offset;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  pdf += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}
