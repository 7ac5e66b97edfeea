import { PAYMENT_MESSAGES } from '@mirror/contract';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  signEvent,
  startStripeServer,
  type StripeEvent,
  type StripeServer,
} from '../../test/stripe-server.js';
import { PaymentDeclinedError } from './payment-provider.js';
import {
  createStripeProvider,
  InvalidWebhookSignatureError,
  type StripePaymentProvider,
} from './stripe-provider.js';

const WEBHOOK_SECRET = 'whsec_provider_test';
let server: StripeServer;
let provider: StripePaymentProvider;
/** What Stripe.js does in the browser: confirming a PaymentIntent with its client secret. */
let browser: Stripe;

beforeAll(async () => {
  server = await startStripeServer();
  provider = createStripeProvider({
    secretKey: server.secretKey,
    publishableKey: 'pk_test_provider',
    webhookSecret: WEBHOOK_SECRET,
    prices: { pro: 'price_pro', agency: 'price_agency' },
    apiUrl: server.url,
  });
  const { port } = new URL(server.url);
  browser = new Stripe(server.secretKey, { host: '127.0.0.1', port, protocol: 'http' });
});
afterAll(() => server.close());

let users = 0;
async function newCustomer(): Promise<string> {
  users += 1;
  return provider.createCustomer({
    id: `user-${users}`,
    email: `u${users}@example.com`,
    name: 'Ann',
  });
}

function lastRequest(method: string, path: string | RegExp) {
  const found = server.requests.findLast(
    (r) => r.method === method && (typeof path === 'string' ? r.path === path : path.test(r.path)),
  );
  if (!found) throw new Error(`no ${method} ${String(path)} request`);
  return found;
}

async function subscribedCustomer(plan: 'pro' | 'agency' = 'pro') {
  const customerId = await newCustomer();
  const created = await provider.createSubscription({
    customerId,
    planId: plan,
    paymentMethodId: 'pm_card_visa',
    idempotencyKey: `subscribe-${customerId}`,
  });
  return { customerId, ...created };
}

describe('Stripe provider', () => {
  it('reports Stripe mode and the publishable key', () => {
    expect(provider.mode).toBe('stripe');
    expect(provider.publishableKey).toBe('pk_test_provider');
  });

  it('creates one customer per user, with its user id, pinned API version and idempotency key', async () => {
    const user = { id: 'user-once', email: 'once@example.com', name: 'Once' };
    const first = await provider.createCustomer(user);
    const again = await provider.createCustomer(user);

    expect(first).toMatch(/^cus_/);
    expect(again).toBe(first);
    const customer = server.state.customers.get(first)!;
    expect(customer).toMatchObject({
      email: user.email,
      name: user.name,
      metadata: { userId: 'user-once' },
    });
    const request = lastRequest('POST', '/v1/customers');
    expect(request.idempotencyKey).toBe('customer-user-once');
    expect(request.stripeVersion).toBe('2026-10-28.endive');
    expect([...server.state.customers.values()].filter((c) => c.email === user.email)).toHaveLength(
      1,
    );
  });

  it('creates SetupIntents for later off-session use', async () => {
    const customerId = await newCustomer();
    const { clientSecret } = await provider.createSetupIntent(customerId);

    expect(clientSecret).toMatch(/^seti_\w+_secret_\w+$/);
    const request = lastRequest('POST', '/v1/setup_intents');
    expect(request.params).toMatchObject({ customer: customerId, usage: 'off_session' });
    expect(request.idempotencyKey).toMatch(/^setup-intent-/);
  });

  it('saves cards, lists them with the default marked, switches the default and removes one', async () => {
    const customerId = await newCustomer();
    await provider.setDefaultPaymentMethod(customerId, 'pm_card_visa');
    const [visa] = await provider.listPaymentMethods(customerId);
    expect(visa).toMatchObject({ brand: 'visa', last4: '4242', expMonth: 12, isDefault: true });
    expect(visa!.id).toMatch(/^pm_[0-9a-f]+$/);

    await provider.setDefaultPaymentMethod(customerId, 'pm_card_mastercard');
    const both = await provider.listPaymentMethods(customerId);
    expect(both.map((m) => [m.brand, m.isDefault]).sort()).toEqual([
      ['mastercard', true],
      ['visa', false],
    ]);
    // An attached card becomes the default again without being attached twice.
    await provider.setDefaultPaymentMethod(customerId, visa!.id);
    expect((await provider.listPaymentMethods(customerId)).find((m) => m.isDefault)?.id).toBe(
      visa!.id,
    );

    await provider.detachPaymentMethod(customerId, visa!.id);
    const left = await provider.listPaymentMethods(customerId);
    expect(left.map((m) => m.brand)).toEqual(['mastercard']);
    expect(left[0]!.isDefault).toBe(false);
  });

  it('reports a declined card with Stripe’s message and saves nothing', async () => {
    const customerId = await newCustomer();
    const error = await provider
      .setDefaultPaymentMethod(customerId, 'pm_card_chargeDeclined')
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(PaymentDeclinedError);
    expect((error as Error).message).toBe('Your card was declined.');
    expect(await provider.listPaymentMethods(customerId)).toEqual([]);
  });

  it('never removes or uses another customer’s card', async () => {
    const owner = await newCustomer();
    const other = await newCustomer();
    await provider.setDefaultPaymentMethod(owner, 'pm_card_visa');
    const [card] = await provider.listPaymentMethods(owner);

    await expect(provider.detachPaymentMethod(other, card!.id)).rejects.toThrow(
      PAYMENT_MESSAGES.paymentMethodNotFound,
    );
    await expect(provider.setDefaultPaymentMethod(other, card!.id)).rejects.toThrow(
      PAYMENT_MESSAGES.paymentMethodNotFound,
    );
    await expect(provider.detachPaymentMethod(other, 'pm_unknown')).rejects.toThrow(
      PAYMENT_MESSAGES.paymentMethodNotFound,
    );
    expect(await provider.listPaymentMethods(owner)).toHaveLength(1);
  });

  it('subscribes with the plan’s price and answers the client secret that confirms the first payment', async () => {
    const { customerId, subscription, clientSecret } = await subscribedCustomer('pro');

    expect(subscription).toMatchObject({
      status: 'incomplete',
      plan: 'pro',
      cancel_at_period_end: false,
      trial_end: null,
    });
    expect(subscription.current_period_end).toBeGreaterThan(subscription.current_period_start);
    const stored = server.state.subscriptions.get(subscription.id)!;
    const invoice = server.state.invoices.get(stored.latest_invoice as string)!;
    expect(invoice.customer).toBe(customerId);
    const intent = [...server.state.paymentIntents.values()].find(
      (pi) => pi.client_secret === clientSecret,
    );
    expect(intent).toMatchObject({ amount: 700, customer: customerId });

    const request = lastRequest('POST', '/v1/subscriptions');
    expect(request.idempotencyKey).toBe(`subscribe-${customerId}`);
    expect(request.params).toMatchObject({
      customer: customerId,
      items: [{ price: 'price_pro' }],
      payment_behavior: 'default_incomplete',
      expand: ['latest_invoice.confirmation_secret'],
    });
    // The card the subscription charges is the customer's own (a new id for the test card).
    expect(request.params.default_payment_method).toMatch(/^pm_[0-9a-f]+$/);
  });

  it('does not subscribe twice when the same request is repeated', async () => {
    const customerId = await newCustomer();
    await provider.setDefaultPaymentMethod(customerId, 'pm_card_visa');
    const [card] = await provider.listPaymentMethods(customerId);
    const input = {
      customerId,
      planId: 'agency' as const,
      paymentMethodId: card!.id,
      idempotencyKey: `sub-${customerId}`,
    };
    const first = await provider.createSubscription(input);
    const second = await provider.createSubscription(input);

    expect(second.subscription.id).toBe(first.subscription.id);
    expect(
      [...server.state.subscriptions.values()].filter((s) => s.customer === customerId),
    ).toHaveLength(1);
  });

  it('changes plans with proration, cancels at period end, reactivates and cancels at once', async () => {
    const { subscription, clientSecret } = await subscribedCustomer('pro');
    await browser.paymentIntents.confirm(clientSecret!.split('_secret_')[0]!);
    expect(server.state.subscriptions.get(subscription.id)!.status).toBe('active');

    const agency = await provider.updateSubscription(
      subscription.id,
      'agency',
      `update-${subscription.id}`,
    );
    expect(agency).toMatchObject({ id: subscription.id, plan: 'agency', status: 'active' });
    const update = lastRequest('POST', `/v1/subscriptions/${subscription.id}`);
    expect(update.idempotencyKey).toBe(`update-${subscription.id}`);
    expect(update.params).toMatchObject({ proration_behavior: 'create_prorations' });
    expect((update.params.items as { id: string }[])[0]!.id).toMatch(/^si_/);

    const ending = await provider.cancelSubscription(subscription.id, false);
    expect(ending).toMatchObject({ status: 'active', cancel_at_period_end: true });
    const again = await provider.reactivateSubscription(subscription.id);
    expect(again).toMatchObject({ status: 'active', cancel_at_period_end: false });
    const canceled = await provider.cancelSubscription(subscription.id, true);
    expect(canceled).toMatchObject({ status: 'canceled', plan: 'agency' });
  });

  it('takes one-off payments: succeeded, needing 3-D Secure, or declined', async () => {
    const customerId = await newCustomer();
    const base = {
      customerId,
      amount: 200,
      currency: 'usd',
      description: 'AI Website Rewrite',
      metadata: { cloneId: 'clone-1' },
    };

    const paid = await provider.createPaymentIntent({
      ...base,
      paymentMethodId: 'pm_card_visa',
      idempotencyKey: 'pay-1',
    });
    expect(paid).toMatchObject({
      status: 'succeeded',
      clientSecret: expect.stringMatching(/^pi_\w+_secret_/),
    });
    const request = lastRequest('POST', '/v1/payment_intents');
    expect(request.idempotencyKey).toBe('pay-1');
    expect(request.params).toMatchObject({
      amount: '200',
      currency: 'usd',
      description: 'AI Website Rewrite',
      metadata: { cloneId: 'clone-1' },
      customer: customerId,
      confirm: 'true',
      off_session: 'false',
      allowed_payment_method_types: ['card'],
    });
    expect(await provider.retrievePaymentIntent(paid.id)).toEqual({
      id: paid.id,
      status: 'succeeded',
      amount: 200,
      customerId,
      metadata: { cloneId: 'clone-1' },
    });

    const secure = await provider.createPaymentIntent({
      ...base,
      paymentMethodId: 'pm_card_threeDSecure2Required',
      idempotencyKey: 'pay-2',
    });
    expect(secure.status).toBe('requires_action');
    expect(secure.clientSecret).toMatch(new RegExp(`^${secure.id}_secret_`));

    const declined = await provider
      .createPaymentIntent({
        ...base,
        paymentMethodId: 'pm_card_chargeDeclined',
        idempotencyKey: 'pay-3',
      })
      .catch((e: unknown) => e);
    expect(declined).toBeInstanceOf(PaymentDeclinedError);
    expect((declined as Error).message).toBe('Your card was declined.');

    // Without a card the browser confirms it with Stripe.js.
    const open = await provider.createPaymentIntent({ ...base, idempotencyKey: 'pay-4' });
    expect(open.status).toBe('requires_payment_method');
    expect(lastRequest('POST', '/v1/payment_intents').params.confirm).toBeUndefined();
  });

  it('lists invoices and downloads their PDF, only the customer’s own', async () => {
    const { customerId } = await subscribedCustomer('pro');
    const other = await newCustomer();

    const invoices = await provider.listInvoices(customerId);
    expect(invoices).toEqual([
      {
        id: expect.stringMatching(/^in_/),
        number: expect.stringMatching(/^[0-9A-F]{8}-0001$/),
        created: expect.any(Number),
        total: 700,
        currency: 'usd',
        status: 'open',
        description: '1 × Mirror Pro (at $7.00 / month)',
      },
    ]);
    expect(await provider.listInvoices(other)).toEqual([]);

    const pdf = await provider.invoicePdf(customerId, invoices[0]!.id);
    expect(pdf!.subarray(0, 5).toString()).toBe('%PDF-');
    expect(await provider.invoicePdf(other, invoices[0]!.id)).toBeNull();
    expect(await provider.invoicePdf(customerId, 'in_unknown')).toBeNull();
  });

  it('opens Customer Portal sessions that return to the app', async () => {
    const customerId = await newCustomer();
    const { url } = await provider.createPortalSession(customerId, 'http://localhost:8080/billing');

    expect(url).toMatch(new RegExp(`^${server.url}/p/session/bps_`));
    const request = lastRequest('POST', '/v1/billing_portal/sessions');
    expect(request.params).toEqual({
      customer: customerId,
      return_url: 'http://localhost:8080/billing',
    });
    expect(request.idempotencyKey).toMatch(/^portal-session-/);
  });
});

describe('Stripe webhooks', () => {
  function deliver(event: StripeEvent, secret = WEBHOOK_SECRET) {
    const { payload, signature } = signEvent(event, secret);
    return provider.parseWebhook(Buffer.from(payload), signature);
  }

  it('turns signed subscription events into billing events', async () => {
    const { customerId, subscription, clientSecret } = await subscribedCustomer('agency');
    const created = server.lastEvent('customer.subscription.created');
    await browser.paymentIntents.confirm(clientSecret!.split('_secret_')[0]!);
    const activated = server.lastEvent('customer.subscription.updated');
    await provider.cancelSubscription(subscription.id, true);
    const deleted = server.lastEvent('customer.subscription.deleted');

    expect(deliver(created)).toMatchObject({
      id: created.id,
      type: 'subscription.updated',
      created: created.created,
      customerId,
      subscription: { id: subscription.id, status: 'incomplete', plan: 'agency' },
    });
    expect(deliver(activated)).toMatchObject({
      type: 'subscription.updated',
      subscription: { status: 'active', plan: 'agency', cancel_at_period_end: false },
    });
    expect(deliver(deleted)).toMatchObject({
      id: deleted.id,
      type: 'subscription.deleted',
      customerId,
      subscription: { id: subscription.id, status: 'canceled' },
    });
  });

  it('turns payment events into billing events with their metadata', async () => {
    const customerId = await newCustomer();
    const paid = await provider.createPaymentIntent({
      customerId,
      amount: 200,
      currency: 'usd',
      description: 'AI Website Rewrite',
      metadata: { cloneId: 'clone-7' },
      paymentMethodId: 'pm_card_visa',
      idempotencyKey: 'webhook-pay',
    });
    const succeeded = server.lastEvent('payment_intent.succeeded');

    expect(deliver(succeeded)).toEqual({
      id: succeeded.id,
      type: 'payment_intent.succeeded',
      created: succeeded.created,
      customerId,
      paymentIntentId: paid.id,
      amount: 200,
      metadata: { cloneId: 'clone-7' },
    });

    await provider
      .createPaymentIntent({
        customerId,
        amount: 200,
        currency: 'usd',
        description: 'AI Website Rewrite',
        metadata: { cloneId: 'clone-8' },
        paymentMethodId: 'pm_card_chargeDeclined',
        idempotencyKey: 'webhook-decline',
      })
      .catch(() => undefined);
    expect(deliver(server.lastEvent('payment_intent.payment_failed'))).toMatchObject({
      type: 'payment_intent.payment_failed',
      metadata: { cloneId: 'clone-8' },
    });
  });

  it('refuses a missing or wrong signature', async () => {
    await subscribedCustomer();
    const event = server.lastEvent('customer.subscription.created');
    const payload = Buffer.from(JSON.stringify(event));

    expect(() => provider.parseWebhook(payload, undefined)).toThrow(InvalidWebhookSignatureError);
    expect(() => deliver(event, 'whsec_someone_else')).toThrow(InvalidWebhookSignatureError);
    expect(() => provider.parseWebhook(payload, 't=1,v1=deadbeef')).toThrow(
      'Invalid webhook signature.',
    );
    // A body changed after signing.
    const { signature } = signEvent(event, WEBHOOK_SECRET);
    const tampered = Buffer.from(JSON.stringify({ ...event, id: 'evt_forged' }));
    expect(() => provider.parseWebhook(tampered, signature)).toThrow(InvalidWebhookSignatureError);
  });

  it('ignores event types and prices that are not ours', async () => {
    await subscribedCustomer();
    const created = server.lastEvent('customer.subscription.created');
    expect(deliver(server.lastEvent('payment_intent.created'))).toBeNull();
    expect(deliver({ ...created, type: 'customer.subscription.trial_will_end' })).toBeNull();

    const foreign = structuredClone(created);
    const item = (foreign.data.object.items as { data: { price: { id: string } }[] }).data[0]!;
    item.price.id = 'price_other_product';
    expect(deliver(foreign)).toBeNull();
  });

  it('reads periods from the subscription in events of older API versions', async () => {
    const { subscription } = await subscribedCustomer();
    const event = structuredClone(server.lastEvent('customer.subscription.created'));
    const legacy = event.data.object as Record<string, unknown> & {
      items: { data: Record<string, unknown>[] };
    };
    for (const item of legacy.items.data) {
      delete item.current_period_start;
      delete item.current_period_end;
    }
    Object.assign(legacy, {
      current_period_start: 1_700_000_000,
      current_period_end: 1_702_592_000,
    });
    event.api_version = '2024-06-20';

    expect(deliver(event)).toMatchObject({
      subscription: {
        id: subscription.id,
        current_period_start: 1_700_000_000,
        current_period_end: 1_702_592_000,
      },
    });
  });
});
