import { getPlan, type BillingView, type Usage } from '@mirror/contract';
import Stripe from 'stripe';
import { afterEach, describe, expect, it } from 'vitest';
import { pollToEnd, SERVICE_ENV, signUp, type SignedUp } from '../../test/api-helpers.js';
import { startFixtureSite } from '../../test/fixture-site.js';
import {
  signEvent,
  startStripeServer,
  type StripeEvent,
  type StripeServer,
} from '../../test/stripe-server.js';
import { startOpenAiServer } from '../../test/openai-server.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

/**
 * Payments with Stripe configured: the real SDK talks to a local server speaking Stripe's API, and
 * Stripe's webhooks (the source of truth for plans and payments) are events that server recorded,
 * signed with the SDK's test-header helper and posted to our webhook route.
 */

const WEBHOOK_SECRET = 'whsec_x';
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface Setup {
  t: TestApp;
  stripe: StripeServer;
  /** What Stripe.js (and the Customer Portal) do on Stripe's side, outside our server. */
  browser: Stripe;
}

async function setup(env: Record<string, string> = {}): Promise<Setup> {
  const stripe = await startStripeServer({ secretKey: 'sk_test_x' });
  cleanups.push(() => stripe.close());
  const t = await createTestApp({
    ...SERVICE_ENV,
    ...env,
    STRIPE_SECRET_KEY: 'sk_test_x',
    STRIPE_PUBLISHABLE_KEY: 'pk_test_x',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_PRICE_PRO: 'price_pro',
    STRIPE_PRICE_AGENCY: 'price_agency',
    STRIPE_API_URL: stripe.url,
  });
  cleanups.push(() => t.close());
  const { port } = new URL(stripe.url);
  const browser = new Stripe('sk_test_x', { host: '127.0.0.1', port, protocol: 'http' });
  return { t, stripe, browser };
}

function deliver(t: TestApp, event: StripeEvent, secret = WEBHOOK_SECRET) {
  const { payload, signature } = signEvent(event, secret);
  return t.app.inject({
    method: 'POST',
    url: '/api/payments/webhook',
    headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature },
    payload,
  });
}

async function billing(t: TestApp, user: SignedUp): Promise<BillingView> {
  const res = await t.app.inject({ url: '/api/payments/subscription', headers: user.headers });
  expect(res.statusCode).toBe(200);
  return res.json() as BillingView;
}

/** Subscribes through our API and confirms the first payment as Stripe.js would. */
async function subscribeAndPay({ t, browser }: Setup, user: SignedUp, planId = 'pro') {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/payments/subscribe',
    headers: user.headers,
    payload: { planId, paymentMethodId: 'pm_card_visa' },
  });
  expect(res.statusCode).toBe(200);
  const body = res.json() as { subscription: { id: string }; clientSecret: string };
  await browser.paymentIntents.confirm(body.clientSecret.split('_secret_')[0]!);
  return body.subscription.id;
}

describe('payments with Stripe', () => {
  it('reports Stripe mode with the publishable key; the test-mode card routes do not exist', async () => {
    const { t } = await setup();
    const user = await signUp(t);

    expect(await billing(t, user)).toEqual({
      currentPlan: 'free',
      isSubscribed: false,
      isTrialing: false,
      trialEndsAt: null,
      cancel_at_period_end: false,
      subscription: null,
      mode: 'stripe',
      publishableKey: 'pk_test_x',
    });
    const card = await t.app.inject({
      method: 'POST',
      url: '/api/payments/test/payment-methods',
      headers: user.headers,
      payload: { number: '4242 4242 4242 4242', expMonth: 12, expYear: 2030, cvc: '123' },
    });
    expect(card.statusCode).toBe(404);
    const confirm = await t.app.inject({
      method: 'POST',
      url: '/api/payments/test/confirm',
      headers: user.headers,
      payload: { clientSecret: 'pi_x_secret_y', approve: true },
    });
    expect(confirm.statusCode).toBe(404);
  });

  it('gives the plan once Stripe’s signed webhook says the first payment went through', async () => {
    const setupResult = await setup();
    const { t, stripe, browser } = setupResult;
    const user = await signUp(t);

    const res = await t.app.inject({
      method: 'POST',
      url: '/api/payments/subscribe',
      headers: user.headers,
      payload: { planId: 'pro', paymentMethodId: 'pm_card_visa' },
    });
    expect(res.statusCode).toBe(200);
    const { subscription, clientSecret } = res.json() as {
      subscription: { id: string; status: string; plan: string };
      clientSecret: string;
    };
    expect(subscription).toMatchObject({ status: 'incomplete', plan: 'pro' });
    expect(clientSecret).toMatch(/^pi_\w+_secret_\w+$/);
    expect(await billing(t, user)).toMatchObject({ currentPlan: 'free', isSubscribed: false });

    await browser.paymentIntents.confirm(clientSecret.split('_secret_')[0]!);
    const paid = await deliver(t, stripe.lastEvent('customer.subscription.updated'));
    expect(paid.statusCode).toBe(200);

    expect(await billing(t, user)).toMatchObject({
      currentPlan: 'pro',
      isSubscribed: true,
      cancel_at_period_end: false,
      subscription: { id: subscription.id, status: 'active', plan: 'pro' },
    });
    const usage = (
      await t.app.inject({ url: '/api/payments/usage', headers: user.headers })
    ).json() as Usage;
    expect(usage).toMatchObject({ plan: 'pro', mirrors: { limit: getPlan('pro').limits.mirrors } });

    const invoices = (
      await t.app.inject({ url: '/api/payments/invoices', headers: user.headers })
    ).json() as { id: string; status: string; total: number }[];
    expect(invoices).toMatchObject([{ status: 'paid', total: 700 }]);
    const pdf = await t.app.inject({
      url: `/api/payments/invoices/${invoices[0]!.id}/download`,
      headers: user.headers,
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toContain(`invoice-${invoices[0]!.id}.pdf`);
    expect(pdf.rawPayload.subarray(0, 4).toString()).toBe('%PDF');
    // Someone else's invoice is not found.
    const other = await signUp(t);
    const foreign = await t.app.inject({
      url: `/api/payments/invoices/${invoices[0]!.id}/download`,
      headers: other.headers,
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('refuses a webhook with a bad or missing signature and changes nothing', async () => {
    const s = await setup();
    const user = await signUp(s.t);
    await subscribeAndPay(s, user);
    const event = s.stripe.lastEvent('customer.subscription.updated');

    const forged = await deliver(s.t, event, 'whsec_not_ours');
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toEqual({ message: 'Invalid webhook signature.' });
    const unsigned = await s.t.app.inject({
      method: 'POST',
      url: '/api/payments/webhook',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(event),
    });
    expect(unsigned.statusCode).toBe(400);
    expect(unsigned.json()).toEqual({ message: 'Invalid webhook signature.' });
    expect(await billing(s.t, user)).toMatchObject({ currentPlan: 'free', isSubscribed: false });

    // The same event, properly signed, is applied: it was only the signature.
    expect((await deliver(s.t, event)).statusCode).toBe(200);
    expect((await billing(s.t, user)).currentPlan).toBe('pro');
  });

  it('applies a replayed event once', async () => {
    const s = await setup();
    const user = await signUp(s.t);
    const subscriptionId = await subscribeAndPay(s, user);
    const activated = s.stripe.lastEvent('customer.subscription.updated');
    expect((await deliver(s.t, activated)).statusCode).toBe(200);
    expect((await billing(s.t, user)).currentPlan).toBe('pro');

    // Canceled on Stripe's side (the Customer Portal), in the same second as the activation: only
    // the event id tells the replay below from new news.
    await s.browser.subscriptions.cancel(subscriptionId);
    const deleted = { ...s.stripe.lastEvent('customer.subscription.deleted') };
    deleted.created = activated.created;
    expect((await deliver(s.t, deleted)).statusCode).toBe(200);
    expect(await billing(s.t, user)).toMatchObject({ currentPlan: 'free', isSubscribed: false });

    const replay = await deliver(s.t, activated);
    expect(replay.statusCode).toBe(200);
    expect(await billing(s.t, user)).toMatchObject({ currentPlan: 'free', isSubscribed: false });
  });

  it('does not let an older event delivered late overwrite newer state', async () => {
    const s = await setup();
    const user = await signUp(s.t);
    await subscribeAndPay(s, user);
    const activated = s.stripe.lastEvent('customer.subscription.updated');

    s.stripe.advanceTime(60);
    const cancel = await s.t.app.inject({
      method: 'POST',
      url: '/api/payments/cancel',
      headers: user.headers,
      payload: { immediately: false },
    });
    expect(cancel.statusCode).toBe(200);
    const scheduled = s.stripe.lastEvent('customer.subscription.updated');
    expect(scheduled.created).toBeGreaterThan(activated.created);

    expect((await deliver(s.t, scheduled)).statusCode).toBe(200);
    expect((await deliver(s.t, activated)).statusCode).toBe(200);
    expect(await billing(s.t, user)).toMatchObject({
      currentPlan: 'pro',
      cancel_at_period_end: true,
      subscription: { status: 'active', cancel_at_period_end: true },
    });
  });

  it('refuses a declined card with Stripe’s words and changes nothing', async () => {
    const { t } = await setup();
    const user = await signUp(t);

    const res = await t.app.inject({
      method: 'POST',
      url: '/api/payments/subscribe',
      headers: user.headers,
      payload: { planId: 'pro', paymentMethodId: 'pm_card_chargeDeclined' },
    });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toEqual({ message: 'Your card was declined.' });
    expect(await billing(t, user)).toMatchObject({ currentPlan: 'free', subscription: null });
    const methods = await t.app.inject({
      url: '/api/payments/payment-methods',
      headers: user.headers,
    });
    expect(methods.json()).toEqual([]);
  });

  it('opens the AI rewrite of a clone when Stripe reports its payment succeeded', async () => {
    // Rewrites are sold only when a model is connected (a local stand-in here).
    const ai = await startOpenAiServer([
      { content: JSON.stringify({ ops: [{ op: 'setTitle', title: 'Bakery' }], unparsed: [] }) },
    ]);
    cleanups.push(() => ai.close());
    const s = await setup({ AI_BASE_URL: ai.baseURL, AI_MODEL: 'test-model' });
    const site = await startFixtureSite();
    cleanups.push(() => site.close());
    const user = await signUp(s.t);
    const clone = await s.t.app.inject({
      method: 'POST',
      url: '/api/domains/clone',
      headers: user.headers,
      payload: { sourceUrl: site.url },
    });
    const { id } = clone.json() as { id: string };
    await pollToEnd(s.t, id, user.headers);
    const rewrite = () =>
      s.t.app.inject({
        method: 'POST',
        url: '/api/domains/clone-with-ai',
        headers: user.headers,
        payload: {
          sourceUrl: site.url,
          originalIdea: 'A bakery',
          rewriteWithAI: true,
          cloneId: id,
          customizations: {},
        },
      });

    // A card that needs 3-D Secure: nothing is paid until the card holder confirms.
    const pay = await s.t.app.inject({
      method: 'POST',
      url: '/api/payments/ai-rewrite',
      headers: user.headers,
      payload: { cloneId: id, paymentMethodId: 'pm_card_threeDSecure2Required' },
    });
    expect(pay.statusCode).toBe(200);
    const intent = pay.json() as { id: string; status: string; clientSecret: string };
    expect(intent).toMatchObject({ status: 'requires_action' });
    expect(s.stripe.state.paymentIntents.get(intent.id)).toMatchObject({
      amount: 200,
      currency: 'usd',
      description: 'AI Website Rewrite',
      metadata: { cloneId: id },
    });
    expect((await rewrite()).statusCode).toBe(402);

    s.stripe.authenticate(intent.id);
    const succeeded = s.stripe.lastEvent('payment_intent.succeeded');
    expect((await deliver(s.t, succeeded)).statusCode).toBe(200);
    expect((await deliver(s.t, succeeded)).statusCode).toBe(200);

    expect((await rewrite()).statusCode).toBe(202);
    expect((await pollToEnd(s.t, id, user.headers)).at(-1)).toMatchObject({ status: 'completed' });
  });
});
