import { Writable } from 'node:stream';
import { CUSTOMIZE_MESSAGES, PAYMENT_MESSAGES, SITE_MESSAGES, TEST_CARDS } from '@mirror/contract';
import Stripe from 'stripe';
import { afterEach, describe, expect, it } from 'vitest';
import { startFixtureSite } from '../../test/fixture-site.js';
import { startOpenAiServer } from '../../test/openai-server.js';
import { pollToEnd, SERVICE_ENV, signUp, type SignedUp } from '../../test/api-helpers.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const DAY = 86_400_000;
/** A model is connected (never called where this is used), so rewrites are for sale. */
const MODEL_ENV = { AI_BASE_URL: 'http://127.0.0.1:9/v1', AI_MODEL: 'test-model' };
const NEXT_YEAR = new Date().getUTCFullYear() + 1;
const MASTERCARD = '5555555555554444';
const AMEX = '378282246310005';

async function setup(
  env: Record<string, string> = {},
  deps: Parameters<typeof createTestApp>[1] = {},
) {
  const t = await createTestApp({ ...SERVICE_ENV, ...env }, { runJobs: false, ...deps });
  cleanups.push(() => t.close());
  return t;
}

function call(
  t: TestApp,
  user: SignedUp | null,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
) {
  return t.app.inject({
    method,
    url: `/api/payments${url}`,
    headers: user?.headers ?? {},
    ...(payload ? { payload } : {}),
  });
}

async function addCard(t: TestApp, user: SignedUp, number: string = TEST_CARDS.succeeds) {
  const res = await call(t, user, 'POST', '/test/payment-methods', {
    number,
    expMonth: 12,
    expYear: NEXT_YEAR,
    cvc: number.startsWith('37') ? '1234' : '123',
  });
  expect(res.statusCode).toBe(200);
  return res.json() as { id: string; brand: string; last4: string };
}

async function subscribe(t: TestApp, user: SignedUp, planId: string, number?: string) {
  const card = await addCard(t, user, number);
  return call(t, user, 'POST', '/subscribe', { planId, paymentMethodId: card.id });
}

const billing = async (t: TestApp, user: SignedUp) =>
  (await call(t, user, 'GET', '/subscription')).json();
const invoices = async (t: TestApp, user: SignedUp) =>
  (await call(t, user, 'GET', '/invoices')).json() as {
    id: string;
    number: string;
    total: number;
    status: string;
    description: string;
  }[];
const planOf = async (t: TestApp, user: SignedUp) =>
  (await t.app.inject({ url: '/api/auth/me', headers: user.headers })).json().user.plan as string;

function clone(t: TestApp, user: SignedUp, sourceUrl = 'https://example.com') {
  return t.app.inject({
    method: 'POST',
    url: '/api/domains/clone',
    headers: user.headers,
    payload: { sourceUrl },
  });
}

describe('a server without a payment provider (PAYMENTS_MODE=off, production without keys)', () => {
  it('answers 503 "Payments are not configured" to every payment and plan change, and changes nothing', async () => {
    const t = await setup({ PAYMENTS_MODE: 'off' });
    const user = await signUp(t);
    const before = await billing(t, user);
    expect(before).toMatchObject({ mode: 'off', publishableKey: null });
    const attempts: [string, string, object?][] = [
      [
        'POST',
        '/test/payment-methods',
        { number: TEST_CARDS.succeeds, expMonth: 12, expYear: NEXT_YEAR, cvc: '123' },
      ],
      ['POST', '/subscribe', { planId: 'agency', paymentMethodId: 'pm_test' }],
      ['PUT', '/subscription', { planId: 'pro' }],
      ['POST', '/setup-intent'],
    ];
    for (const [method, url, payload] of attempts) {
      const res = await call(t, user, method as 'POST', url, payload);
      expect([url, res.statusCode, res.json().message]).toEqual([
        url,
        503,
        PAYMENT_MESSAGES.notConfigured,
      ]);
    }
    expect(await billing(t, user)).toEqual(before);
    const me = await t.app.inject({ url: '/api/auth/me', headers: user.headers });
    expect(me.json()).toMatchObject({ user: { plan: 'free' } });
  });
});

describe('subscriptions in test mode', () => {
  it('subscribes a free user to Pro, raises the limits, bills it, cancels and reactivates', async () => {
    const t = await setup();
    const user = await signUp(t);
    expect(await billing(t, user)).toEqual({
      currentPlan: 'free',
      isSubscribed: false,
      isTrialing: false,
      trialEndsAt: null,
      cancel_at_period_end: false,
      subscription: null,
      mode: 'test',
      publishableKey: null,
    });
    expect((await clone(t, user)).statusCode).toBe(201);
    const refused = await clone(t, user);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: SITE_MESSAGES.mirrorLimit });

    const card = await addCard(t, user);
    expect(card).toEqual({ id: expect.stringMatching(/^pm_test_/), brand: 'visa', last4: '4242' });
    const res = await call(t, user, 'POST', '/subscribe', {
      planId: 'pro',
      paymentMethodId: card.id,
    });
    expect(res.statusCode).toBe(200);
    const { subscription, clientSecret } = res.json();
    expect(clientSecret).toBeNull();
    expect(subscription).toMatchObject({
      status: 'active',
      plan: 'pro',
      cancel_at_period_end: false,
    });
    expect(subscription.current_period_end - subscription.current_period_start).toBeGreaterThan(
      27 * 86_400,
    );
    expect(await planOf(t, user)).toBe('pro');
    expect(await billing(t, user)).toMatchObject({
      currentPlan: 'pro',
      isSubscribed: true,
      cancel_at_period_end: false,
      subscription,
    });
    expect((await clone(t, user)).statusCode).toBe(201);
    expect((await call(t, user, 'GET', '/payment-methods')).json()).toEqual([
      {
        id: card.id,
        brand: 'visa',
        last4: '4242',
        expMonth: 12,
        expYear: NEXT_YEAR,
        isDefault: true,
      },
    ]);

    const [invoice, ...others] = await invoices(t, user);
    expect(others).toEqual([]);
    expect(invoice).toMatchObject({
      number: 'MIRROR-0001',
      total: 700,
      status: 'paid',
      currency: 'usd',
    });
    const pdf = await call(t, user, 'GET', `/invoices/${invoice!.id}/download`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toBe(
      `attachment; filename="invoice-${invoice!.id}.pdf"`,
    );
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const other = await signUp(t);
    expect((await call(t, other, 'GET', `/invoices/${invoice!.id}/download`)).json()).toEqual({
      message: PAYMENT_MESSAGES.invoiceNotFound,
    });

    const again = await call(t, user, 'POST', '/subscribe', {
      planId: 'agency',
      paymentMethodId: card.id,
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: PAYMENT_MESSAGES.alreadySubscribed });

    const cancelled = await call(t, user, 'POST', '/cancel', { immediately: false });
    expect(cancelled.json()).toMatchObject({ status: 'active', cancel_at_period_end: true });
    expect(await billing(t, user)).toMatchObject({
      currentPlan: 'pro',
      isSubscribed: true,
      cancel_at_period_end: true,
    });
    const reactivated = await call(t, user, 'POST', '/reactivate');
    expect(reactivated.json()).toMatchObject({ status: 'active', cancel_at_period_end: false });
    expect((await billing(t, user)).cancel_at_period_end).toBe(false);
    const twice = await call(t, user, 'POST', '/reactivate');
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toEqual({ message: PAYMENT_MESSAGES.notCancelling });

    const ended = await call(t, user, 'POST', '/cancel', { immediately: true });
    expect(ended.json()).toMatchObject({ status: 'canceled' });
    expect(await billing(t, user)).toMatchObject({
      currentPlan: 'free',
      isSubscribed: false,
      subscription: null,
    });
    // Back on the free plan with two sites: both stay, a third is refused.
    const clones = await t.app.inject({ url: '/api/domains/clones', headers: user.headers });
    expect(clones.json()).toHaveLength(2);
    const over = await clone(t, user);
    expect(over.statusCode).toBe(403);
    expect(over.json()).toEqual({ message: SITE_MESSAGES.mirrorLimit });
  });

  it('renews each month with a new invoice, and ends a cancelled subscription at its period end', async () => {
    const t = await setup();
    const user = await subscribedUser(t, 'pro');
    const first = (await billing(t, user)).subscription;

    await t.app.paymentsService.runMaintenance(new Date(Date.now() + 32 * DAY));
    const renewed = (await billing(t, user)).subscription;
    expect(renewed).toMatchObject({
      status: 'active',
      plan: 'pro',
      current_period_start: first.current_period_end,
    });
    expect(renewed.current_period_end).toBeGreaterThan(first.current_period_end);
    expect((await invoices(t, user)).map((i) => [i.number, i.total, i.status])).toEqual([
      ['MIRROR-0002', 700, 'paid'],
      ['MIRROR-0001', 700, 'paid'],
    ]);

    // No body: at the end of the period, the default.
    const cancelled = await call(t, user, 'POST', '/cancel');
    expect(cancelled.json()).toMatchObject({ status: 'active', cancel_at_period_end: true });
    await t.app.paymentsService.runMaintenance(new Date(Date.now() + 40 * DAY));
    expect(await planOf(t, user)).toBe('pro');
    await t.app.paymentsService.runMaintenance(new Date(renewed.current_period_end * 1000 + 1000));
    expect(await planOf(t, user)).toBe('free');
    expect(await billing(t, user)).toMatchObject({ currentPlan: 'free', subscription: null });
    expect(await invoices(t, user)).toHaveLength(2);
  });

  it('refuses a declined card with 402 and changes nothing', async () => {
    const t = await setup();
    const user = await signUp(t);
    const res = await subscribe(t, user, 'pro', TEST_CARDS.declined);
    expect(res.statusCode).toBe(402);
    expect(res.json()).toEqual({ message: PAYMENT_MESSAGES.cardDeclined });
    expect(await billing(t, user)).toMatchObject({ currentPlan: 'free', subscription: null });
    expect(await planOf(t, user)).toBe('free');
    expect(await invoices(t, user)).toEqual([]);
    expect((await call(t, user, 'GET', '/payment-methods')).json()).toEqual([]);
  });

  it('asks for 3-D Secure on 4000 0025 0000 3155: refused stays free, approved subscribes', async () => {
    const t = await setup();
    const user = await signUp(t);
    const first = await subscribe(t, user, 'pro', TEST_CARDS.requiresAuthentication);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      subscription: { status: 'incomplete', plan: 'pro' },
      clientSecret: expect.stringMatching(/^pi_test_\w+_secret_\w+$/),
    });
    expect(await billing(t, user)).toMatchObject({
      currentPlan: 'free',
      isSubscribed: false,
      subscription: { status: 'incomplete' },
    });
    const stranger = await signUp(t);
    const stolen = await call(t, stranger, 'POST', '/test/confirm', {
      clientSecret: first.json().clientSecret,
      approve: true,
    });
    expect(stolen.statusCode).toBe(404);

    const refused = await call(t, user, 'POST', '/test/confirm', {
      clientSecret: first.json().clientSecret,
      approve: false,
    });
    expect(refused.statusCode).toBe(402);
    expect(refused.json()).toEqual({ message: PAYMENT_MESSAGES.authenticationFailed });
    expect(await billing(t, user)).toMatchObject({ currentPlan: 'free', subscription: null });

    const second = await subscribe(t, user, 'pro', TEST_CARDS.requiresAuthentication);
    const approved = await call(t, user, 'POST', '/test/confirm', {
      clientSecret: second.json().clientSecret,
      approve: true,
    });
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toMatchObject({ status: 'succeeded' });
    expect(await billing(t, user)).toMatchObject({
      currentPlan: 'pro',
      isSubscribed: true,
      subscription: { id: second.json().subscription.id, status: 'active' },
    });
    expect((await invoices(t, user)).map((i) => i.status)).toEqual(['paid', 'void']);
  });

  it('changes plan with a prorated invoice, and a downgrade leaves a credit for the next invoice', async () => {
    const t = await setup();
    const user = await subscribedUser(t, 'pro');
    const up = await call(t, user, 'PUT', '/subscription', { planId: 'agency' });
    expect(up.statusCode).toBe(200);
    expect(up.json()).toMatchObject({ plan: 'agency', status: 'active' });
    expect(await planOf(t, user)).toBe('agency');
    const [proration] = await invoices(t, user);
    expect(proration).toMatchObject({ number: 'MIRROR-0002', status: 'paid' });
    // $29 - $7 for (almost) the whole period.
    expect(proration!.total).toBeGreaterThan(2190);
    expect(proration!.total).toBeLessThanOrEqual(2200);

    const same = await call(t, user, 'PUT', '/subscription', { planId: 'agency' });
    expect(same.statusCode).toBe(409);
    expect(same.json()).toEqual({ message: PAYMENT_MESSAGES.samePlan });

    const down = await call(t, user, 'PUT', '/subscription', { planId: 'pro' });
    expect(down.json()).toMatchObject({ plan: 'pro' });
    const [credit] = await invoices(t, user);
    expect(credit!.total).toBeLessThan(-2190);
    await t.app.paymentsService.runMaintenance(new Date(Date.now() + 32 * DAY));
    const [renewal] = await invoices(t, user);
    expect(renewal).toMatchObject({ number: 'MIRROR-0004', total: 0, status: 'paid' });
  });

  it('stops billing an account that is being deleted', async () => {
    const t = await setup();
    const user = await subscribedUser(t, 'pro');
    const row = await t.app.database.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', user.userId)
      .executeTakeFirstOrThrow();
    await t.app.paymentsService.endBillingForDeletedAccount(row);
    expect(await billing(t, user)).toMatchObject({ currentPlan: 'free', subscription: null });
    await t.app.paymentsService.runMaintenance(new Date(Date.now() + 32 * DAY));
    expect(await invoices(t, user)).toHaveLength(1);
  });

  it('answers 409 for plan changes and cancellations without a subscription', async () => {
    const t = await setup();
    const user = await signUp(t);
    for (const [method, url, payload] of [
      ['PUT', '/subscription', { planId: 'pro' }],
      ['POST', '/cancel', { immediately: true }],
      ['POST', '/reactivate', undefined],
    ] as const) {
      const res = await call(t, user, method, url, payload);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ message: PAYMENT_MESSAGES.notSubscribed });
    }
    const bad = await call(t, user, 'POST', '/subscribe', { planId: 'free', paymentMethodId: 'x' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ message: 'Choose Mirror Pro or Mirror Agency.' });
  });
});

async function subscribedUser(t: TestApp, planId: 'pro' | 'agency') {
  const user = await signUp(t);
  const res = await subscribe(t, user, planId);
  expect(res.statusCode).toBe(200);
  return user;
}

describe('payment methods in test mode', () => {
  it('checks cards like a card network and keeps only brand, last 4 and expiry', async () => {
    const t = await setup();
    const user = await signUp(t);
    const card = (number: string, extra: object = {}) =>
      call(t, user, 'POST', '/test/payment-methods', {
        number,
        expMonth: 12,
        expYear: NEXT_YEAR,
        cvc: '123',
        ...extra,
      });
    expect((await card('4242 4242 4242 4241')).json()).toEqual({
      message: PAYMENT_MESSAGES.cardInvalid,
    });
    expect((await card('4242424242424242', { expYear: 2020 })).json()).toEqual({
      message: PAYMENT_MESSAGES.cardExpired,
    });
    expect((await card(AMEX)).json()).toEqual({ message: PAYMENT_MESSAGES.cvcInvalid });
    expect((await card('4242-4242-4242-4242')).json()).toMatchObject({
      brand: 'visa',
      last4: '4242',
    });
    expect(await addCard(t, user, AMEX)).toMatchObject({ brand: 'amex', last4: '0005' });
    expect(await addCard(t, user, MASTERCARD)).toMatchObject({
      brand: 'mastercard',
      last4: '4444',
    });
    expect(await addCard(t, user, '6011111111111117')).toMatchObject({ brand: 'discover' });
  });

  it('lists, sets the default and removes cards, each user only their own', async () => {
    const t = await setup();
    const user = await signUp(t);
    const visa = await addCard(t, user);
    const master = await addCard(t, user, MASTERCARD);
    expect((await call(t, user, 'GET', '/payment-methods')).json()).toEqual([]);

    const one = await call(t, user, 'PUT', '/default-payment-method', { paymentMethodId: visa.id });
    expect(one.json()).toMatchObject([{ id: visa.id, isDefault: true }]);
    const two = await call(t, user, 'PUT', '/default-payment-method', {
      paymentMethodId: master.id,
    });
    expect(two.json()).toHaveLength(2);
    expect(two.json()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: visa.id, isDefault: false }),
        expect.objectContaining({ id: master.id, brand: 'mastercard', isDefault: true }),
      ]),
    );

    const other = await signUp(t);
    const taken = await call(t, other, 'PUT', '/default-payment-method', {
      paymentMethodId: visa.id,
    });
    expect(taken.statusCode).toBe(404);
    expect(taken.json()).toEqual({ message: PAYMENT_MESSAGES.paymentMethodNotFound });
    expect((await call(t, other, 'DELETE', `/payment-methods/${visa.id}`)).statusCode).toBe(404);

    const removed = await call(t, user, 'DELETE', `/payment-methods/${master.id}`);
    expect(removed.json()).toEqual([
      { ...visa, expMonth: 12, expYear: NEXT_YEAR, isDefault: false },
    ]);
    expect((await call(t, user, 'DELETE', `/payment-methods/${master.id}`)).json()).toEqual({
      message: PAYMENT_MESSAGES.paymentMethodNotFound,
    });
  });

  it('answers a setup intent, a portal address of our own and one-off payments', async () => {
    const t = await setup();
    const user = await signUp(t);
    expect((await call(t, user, 'POST', '/setup-intent')).json()).toEqual({
      clientSecret: expect.stringMatching(/^seti_test_\w+_secret_\w+$/),
    });
    expect((await call(t, user, 'POST', '/portal-session')).json()).toEqual({
      url: `${t.config.appUrl}/billing?portal=test`,
    });
    const card = await addCard(t, user);
    const paid = await call(t, user, 'POST', '/payment-intent', {
      amount: 500,
      description: 'Extra support',
      paymentMethodId: card.id,
    });
    expect(paid.json()).toMatchObject({
      id: expect.stringMatching(/^pi_test_/),
      status: 'succeeded',
    });
    const waiting = await call(t, user, 'POST', '/payment-intent', {
      amount: 500,
      description: 'Extra support',
    });
    expect(waiting.json()).toMatchObject({ status: 'requires_payment_method' });
  });

  it('rate limits new cards per user', async () => {
    const t = await setup({ RATE_LIMIT_FACTOR: '0.1' });
    const user = await signUp(t);
    await addCard(t, user);
    await addCard(t, user);
    const third = await call(t, user, 'POST', '/test/payment-methods', {
      number: TEST_CARDS.succeeds,
      expMonth: 12,
      expYear: NEXT_YEAR,
      cvc: '123',
    });
    expect(third.statusCode).toBe(429);
  });
});

describe('usage', () => {
  it('reports mirrors, custom domains and page views of the period against the plan', async () => {
    const t = await setup();
    const user = await signUp(t);
    const site = (await clone(t, user)).json() as { id: string };
    const today = new Date().toISOString().slice(0, 10);
    await t.app.database.db
      .insertInto('site_visits')
      .values([
        { site_id: site.id, day: today, visits: 3, page_views: 7 },
        { site_id: site.id, day: '2001-01-01', visits: 1, page_views: 100 },
      ])
      .execute();
    const free = (await call(t, user, 'GET', '/usage')).json();
    expect(free).toMatchObject({
      plan: 'free',
      mirrors: { used: 1, limit: 1 },
      customDomains: { used: 0, waiting: 0, limit: 0 },
      pageViews: 7,
      bandwidthBytes: 0,
    });
    expect(free.periodStart).toBeLessThanOrEqual(Date.now() / 1000);
    expect(free.periodEnd).toBeGreaterThan(Date.now() / 1000);

    await subscribe(t, user, 'agency');
    const { subscription } = await billing(t, user);
    expect((await call(t, user, 'GET', '/usage')).json()).toMatchObject({
      plan: 'agency',
      periodStart: subscription.current_period_start,
      periodEnd: subscription.current_period_end,
      mirrors: { used: 1, limit: null },
      customDomains: { used: 0, limit: 15 },
      pageViews: 7,
    });
  });
});

describe('usage of custom domains', () => {
  it('counts a domain still waiting for DNS against the plan, and says it is waiting', async () => {
    const t = await setup();
    const user = await subscribedUser(t, 'pro');
    const site = (await clone(t, user)).json() as { id: string };
    const deployed = await t.app.inject({
      method: 'POST',
      url: '/api/domains/deploy',
      headers: user.headers,
      payload: { siteId: site.id, domain: 'shop.example.com', setupSSL: true },
    });
    expect(deployed.statusCode).toBeLessThan(300);
    expect(deployed.json()).toMatchObject({ status: 'pending' });
    // Its DNS is not set up yet, but it takes one of Pro's two custom domains all the same.
    expect((await call(t, user, 'GET', '/usage')).json()).toMatchObject({
      customDomains: { used: 1, waiting: 1, limit: 2 },
    });
  });
});

describe('the one-off AI rewrite payment', () => {
  it('is not sold when no AI model is connected: 409, no charge, nothing recorded', async () => {
    const t = await setup();
    const user = await signUp(t);
    const made = (await clone(t, user)).json() as { id: string };
    const card = await addCard(t, user);
    expect((await t.app.inject({ url: '/api/domains/ai-rewrite-pricing' })).json()).toEqual({
      amount: 200,
      currency: 'usd',
      available: false,
    });
    const refused = await call(t, user, 'POST', '/ai-rewrite', {
      cloneId: made.id,
      paymentMethodId: card.id,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ message: CUSTOMIZE_MESSAGES.rewriteUnavailable });
    expect(refused.json().message).not.toMatch(/AI_|BASE_URL|model \(/);
    const intents = await t.app.database.db
      .selectFrom('testmode_payment_intents')
      .selectAll()
      .execute();
    expect(intents).toEqual([]);
    const row = await t.app.database.db
      .selectFrom('sites')
      .select('ai_rewrite_paid_at')
      .where('id', '=', made.id)
      .executeTakeFirstOrThrow();
    expect(row.ai_rewrite_paid_at).toBeNull();
  });

  it('lets a free user pay $2 for a rewrite, after which the rewrite runs', async () => {
    const site = await startFixtureSite();
    cleanups.push(() => site.close());
    const ai = await startOpenAiServer([
      { content: JSON.stringify({ ops: [{ op: 'setTitle', title: 'Bakery' }], unparsed: [] }) },
    ]);
    cleanups.push(() => ai.close());
    const t = await setup({ AI_BASE_URL: ai.baseURL, AI_MODEL: 'test-model' }, { runJobs: true });
    const user = await signUp(t);
    const made = (await clone(t, user, site.url)).json() as { id: string; previewUrl: string };
    await pollToEnd(t, made.id, user.headers);
    const rewrite = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/domains/clone-with-ai',
        headers: user.headers,
        payload: {
          sourceUrl: site.url,
          originalIdea: 'A cosy neighbourhood bakery',
          rewriteWithAI: true,
          cloneId: made.id,
          customizations: {},
        },
      });
    expect((await rewrite()).statusCode).toBe(402);

    const card = await addCard(t, user);
    const paid = await call(t, user, 'POST', '/ai-rewrite', {
      cloneId: made.id,
      paymentMethodId: card.id,
    });
    expect(paid.statusCode).toBe(200);
    expect(paid.json()).toMatchObject({ status: 'succeeded' });
    // What the provider was asked to charge (test mode keeps it where Stripe would).
    const intent = await t.app.database.db
      .selectFrom('testmode_payment_intents')
      .selectAll()
      .where('id', '=', paid.json().id)
      .executeTakeFirstOrThrow();
    expect(intent).toMatchObject({
      amount: 200,
      currency: 'usd',
      description: 'AI Website Rewrite',
    });
    expect(JSON.parse(intent.metadata)).toMatchObject({ cloneId: made.id, userId: user.userId });
    const twice = await call(t, user, 'POST', '/ai-rewrite', {
      cloneId: made.id,
      paymentMethodId: card.id,
    });
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toEqual({ message: PAYMENT_MESSAGES.alreadyPaid });

    const started = await rewrite();
    expect(started.statusCode).toBe(202);
    expect((await pollToEnd(t, made.id, user.headers)).at(-1)).toMatchObject({
      status: 'completed',
      currentStatus: 'rewrite draft ready for review',
    });
  });

  it('opens the rewrite after a 3-D Secure confirmation, never for others or paid plans', async () => {
    const t = await setup(MODEL_ENV);
    const user = await signUp(t);
    const made = (await clone(t, user)).json() as { id: string };
    const card = await addCard(t, user, TEST_CARDS.requiresAuthentication);
    const body = { cloneId: made.id, paymentMethodId: card.id };

    const other = await signUp(t);
    const notYours = await call(t, other, 'POST', '/ai-rewrite', body);
    expect(notYours.statusCode).toBe(404);
    const pro = await subscribedUser(t, 'pro');
    const included = await call(t, pro, 'POST', '/ai-rewrite', body);
    expect(included.statusCode).toBe(400);
    expect(included.json()).toEqual({ message: PAYMENT_MESSAGES.rewriteNotNeeded });

    // A generic payment naming the clone does not pay its rewrite.
    const visa = await addCard(t, user);
    await call(t, user, 'POST', '/payment-intent', {
      amount: 200,
      description: 'AI Website Rewrite',
      paymentMethodId: visa.id,
      metadata: { cloneId: made.id, userId: user.userId, purpose: 'ai_rewrite' },
    });

    const pending = await call(t, user, 'POST', '/ai-rewrite', body);
    expect(pending.json()).toMatchObject({ status: 'requires_action' });
    const confirmed = await call(t, user, 'POST', '/test/confirm', {
      clientSecret: pending.json().clientSecret,
      approve: true,
    });
    expect(confirmed.json()).toMatchObject({ status: 'succeeded' });
    const after = await call(t, user, 'POST', '/ai-rewrite', body);
    expect(after.statusCode).toBe(409);
    expect(after.json()).toEqual({ message: PAYMENT_MESSAGES.alreadyPaid });
  });
});

describe('billing events', () => {
  it('applies an event once and never lets an older one overwrite newer state', async () => {
    const t = await setup();
    const user = await subscribedUser(t, 'pro');
    const { subscription } = await billing(t, user);
    const customer = await t.app.database.db
      .selectFrom('billing_customers')
      .select('customer_id')
      .where('user_id', '=', user.userId)
      .executeTakeFirstOrThrow();
    const now = Math.floor(Date.now() / 1000);
    const event = (id: string, created: number, changes: object) => ({
      id,
      type: 'subscription.updated' as const,
      created,
      customerId: customer.customer_id,
      subscription: { ...subscription, ...changes },
    });
    const apply = t.app.paymentsService.applyEvent;

    expect(await apply(event('evt_1', now + 10, { plan: 'agency' }))).toBe('applied');
    expect(await planOf(t, user)).toBe('agency');
    expect(await apply(event('evt_2', now + 20, { plan: 'pro', cancel_at_period_end: true }))).toBe(
      'applied',
    );
    expect(await apply(event('evt_1', now + 10, { plan: 'agency' }))).toBe('duplicate');
    expect(await apply(event('evt_0', now + 5, { status: 'canceled' }))).toBe('stale');
    // Same second: a subscription never goes back to incomplete.
    expect(await apply(event('evt_s', now + 20, { status: 'incomplete' }))).toBe('stale');
    expect(await planOf(t, user)).toBe('pro');
    expect(await billing(t, user)).toMatchObject({
      currentPlan: 'pro',
      cancel_at_period_end: true,
      subscription: { status: 'active' },
    });

    const deleted = { ...event('evt_3', now + 30, {}), type: 'subscription.deleted' as const };
    expect(await apply(deleted)).toBe('applied');
    expect(await planOf(t, user)).toBe('free');
    expect(await apply({ ...event('evt_4', now + 40, {}), customerId: 'cus_someone_else' })).toBe(
      'ignored',
    );
  });

  it('delivers test-mode events again without a second effect', async () => {
    const t = await setup();
    const user = await subscribedUser(t, 'pro');
    await call(t, user, 'PUT', '/subscription', { planId: 'agency' });
    await call(t, user, 'POST', '/cancel', { immediately: true });
    const db = t.app.database.db;
    const applied = await db.selectFrom('billing_events').select('id').execute();
    expect(applied.length).toBeGreaterThan(3);
    await db.updateTable('testmode_events').set({ delivered: 0 }).execute();
    await t.app.paymentsService.runMaintenance();
    expect(await db.selectFrom('billing_events').select('id').execute()).toHaveLength(
      applied.length,
    );
    expect(await planOf(t, user)).toBe('free');
    expect(await invoices(t, user)).toHaveLength(2);
  });
});

describe('secrets', () => {
  it('keeps card numbers out of the database and the logs', async () => {
    let logs = '';
    const logStream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logs += chunk.toString();
        done();
      },
    });
    const t = await setup({ LOG_LEVEL: 'trace' }, { logStream });
    const user = await signUp(t);
    await subscribe(t, user, 'pro', TEST_CARDS.declined);
    await subscribe(t, user, 'pro', TEST_CARDS.requiresAuthentication);
    await subscribe(t, user, 'pro');
    await addCard(t, user, AMEX);
    await call(t, user, 'POST', '/test/payment-methods', {
      number: '4242424242424241',
      expMonth: 12,
      expYear: NEXT_YEAR,
      cvc: '123',
    });
    const numbers = [
      TEST_CARDS.succeeds,
      TEST_CARDS.declined,
      TEST_CARDS.requiresAuthentication,
      AMEX,
      '4242424242424241',
    ];

    const db = t.app.database.db;
    let rows = 0;
    for (const table of await db.introspection.getTables()) {
      const all = await db
        .selectFrom(table.name as 'users')
        .selectAll()
        .execute();
      rows += all.length;
      const text = JSON.stringify(all);
      for (const number of numbers) expect(text, table.name).not.toContain(number);
    }
    expect(rows).toBeGreaterThan(10);
    expect(logs).toContain('/api/payments/test/payment-methods');
    for (const number of numbers) expect(logs).not.toContain(number);
  });
});

describe('access', () => {
  it('answers 401 without a token on every payments call', async () => {
    const t = await setup();
    for (const [method, url] of [
      ['POST', '/subscribe'],
      ['PUT', '/subscription'],
      ['GET', '/subscription'],
      ['POST', '/cancel'],
      ['POST', '/reactivate'],
      ['POST', '/setup-intent'],
      ['GET', '/payment-methods'],
      ['PUT', '/default-payment-method'],
      ['DELETE', '/payment-methods/pm_1'],
      ['POST', '/payment-intent'],
      ['GET', '/invoices'],
      ['GET', '/invoices/in_1/download'],
      ['GET', '/usage'],
      ['POST', '/portal-session'],
      ['POST', '/ai-rewrite'],
      ['POST', '/test/payment-methods'],
      ['POST', '/test/confirm'],
    ] as const) {
      const res = await call(t, null, method, url, method === 'GET' ? undefined : {});
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('has no webhook in test mode', async () => {
    const t = await setup();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/payments/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=x' },
      payload: '{}',
    });
    expect(res.statusCode).toBe(404);
  });
});

describe('with Stripe configured', () => {
  const STRIPE_ENV = {
    STRIPE_SECRET_KEY: 'sk_test_mirror',
    STRIPE_PUBLISHABLE_KEY: 'pk_test_mirror',
    STRIPE_WEBHOOK_SECRET: 'whsec_mirror',
    STRIPE_PRICE_PRO: 'price_pro',
    STRIPE_PRICE_AGENCY: 'price_agency',
    // Nothing listens there: these tests make no Stripe API call.
    STRIPE_API_URL: 'http://127.0.0.1:9',
  };

  it('has no test-mode routes and tells the browser its publishable key', async () => {
    const t = await setup(STRIPE_ENV);
    const user = await signUp(t);
    const res = await call(t, user, 'POST', '/test/payment-methods', {
      number: TEST_CARDS.succeeds,
      expMonth: 12,
      expYear: NEXT_YEAR,
      cvc: '123',
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: PAYMENT_MESSAGES.testModeOnly });
    expect(await billing(t, user)).toMatchObject({
      mode: 'stripe',
      publishableKey: 'pk_test_mirror',
      currentPlan: 'free',
    });
  });

  it('applies signed webhooks from the raw body and refuses bad signatures', async () => {
    const t = await setup(STRIPE_ENV);
    const user = await signUp(t);
    await t.app.database.db
      .insertInto('billing_customers')
      .values({
        user_id: user.userId,
        mode: 'stripe',
        customer_id: 'cus_hook',
        created_at: new Date().toISOString(),
      })
      .execute();
    const now = Math.floor(Date.now() / 1000);
    // Spacing and key order that a re-serialized body would lose: the signature is over the bytes.
    const payload = `{
  "id": "evt_hook_1", "object": "event", "type": "customer.subscription.updated", "created": ${now},
  "api_version": "2026-10-28.endive", "livemode": false, "pending_webhooks": 1,
  "request": { "id": null, "idempotency_key": null },
  "data": { "object": {
    "id": "sub_hook", "object": "subscription", "customer": "cus_hook", "status": "active",
    "cancel_at_period_end": false, "trial_end": null, "start_date": ${now},
    "items": { "object": "list", "data": [ { "id": "si_1", "object": "subscription_item",
      "price": { "id": "price_agency", "object": "price" },
      "current_period_start": ${now}, "current_period_end": ${now + 30 * 86_400} } ] }
  } }
}`;
    const send = (signature: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/payments/webhook',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'stripe-signature': signature,
        },
        payload,
      });
    const stripe = new Stripe('sk_test_mirror');
    const signed = (secret: string) =>
      stripe.webhooks.generateTestHeaderString({ payload, secret });

    const forged = await send(signed('whsec_other'));
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toEqual({ message: PAYMENT_MESSAGES.invalidSignature });
    expect(await planOf(t, user)).toBe('free');

    const ok = await send(signed('whsec_mirror'));
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ received: true });
    expect(await planOf(t, user)).toBe('agency');
    expect((await send(signed('whsec_mirror'))).statusCode).toBe(200);
    expect(await billing(t, user)).toMatchObject({
      currentPlan: 'agency',
      isSubscribed: true,
      subscription: { id: 'sub_hook', plan: 'agency' },
    });
  });
});
