import { CUSTOMIZE_MESSAGES, PAYMENT_MESSAGES, TEST_CARDS } from '@mirror/contract';
import Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  mirrorSite,
  pollToEnd,
  SERVICE_ENV,
  signUp,
  type SignedUp,
} from '../../test/api-helpers.js';
import { startFixtureSite, type FixtureSite } from '../../test/fixture-site.js';
import { startOpenAiServer, type ScriptedAnswer } from '../../test/openai-server.js';
import {
  signEvent,
  startStripeServer,
  type StripeEvent,
  type StripeServer,
} from '../../test/stripe-server.js';
import { createTestApp, waitFor, type TestApp } from '../../test/test-app.js';

/**
 * Issue 30, item 9: the one-off $2 AI rewrite is charged once per attempt (two requests at once
 * cannot both charge), a failed rewrite gives its payment back only when the model never answered
 * with a plan, and Stripe's refund and dispute events close a rewrite nobody started; a payment
 * that completes after a newer one paid the same rewrite is refunded.
 */

const WEBHOOK_SECRET = 'whsec_x';
const NEXT_YEAR = new Date().getUTCFullYear() + 1;
/** What the model answers for a rewrite: one new title. */
const PLAN = {
  content: JSON.stringify({ ops: [{ op: 'setTitle', title: 'Bakery' }], unparsed: [] }),
};

let fixture: FixtureSite;
beforeAll(async () => {
  fixture = await startFixtureSite();
});
afterAll(async () => {
  await fixture.close();
});

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function startModel(answers: ScriptedAnswer[]) {
  const ai = await startOpenAiServer(answers);
  cleanups.push(() => ai.close());
  return ai;
}

interface StripeSetup {
  t: TestApp;
  stripe: StripeServer;
  /** Stripe's own side: the dashboard, Stripe.js. */
  dashboard: Stripe;
}

async function setupStripe(): Promise<StripeSetup> {
  const ai = await startModel([PLAN]);
  const stripe = await startStripeServer({ secretKey: 'sk_test_x' });
  cleanups.push(() => stripe.close());
  const t = await createTestApp({
    ...SERVICE_ENV,
    AI_BASE_URL: ai.baseURL,
    AI_MODEL: 'test-model',
    STRIPE_SECRET_KEY: 'sk_test_x',
    STRIPE_PUBLISHABLE_KEY: 'pk_test_x',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_PRICE_PRO: 'price_pro',
    STRIPE_PRICE_AGENCY: 'price_agency',
    STRIPE_API_URL: stripe.url,
  });
  cleanups.push(() => t.close());
  const { port } = new URL(stripe.url);
  const dashboard = new Stripe('sk_test_x', { host: '127.0.0.1', port, protocol: 'http' });
  return { t, stripe, dashboard };
}

function deliver(t: TestApp, event: StripeEvent) {
  const { payload, signature } = signEvent(event, WEBHOOK_SECRET);
  return t.app.inject({
    method: 'POST',
    url: '/api/payments/webhook',
    headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature },
    payload,
  });
}

function pay(t: TestApp, user: SignedUp, cloneId: string, paymentMethodId: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/payments/ai-rewrite',
    headers: user.headers,
    payload: { cloneId, paymentMethodId },
  });
}

function rewrite(t: TestApp, user: SignedUp, cloneId: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/domains/clone-with-ai',
    headers: user.headers,
    payload: {
      sourceUrl: fixture.url,
      originalIdea: 'A cosy neighbourhood bakery',
      rewriteWithAI: true,
      cloneId,
      customizations: {},
    },
  });
}

const paidAt = async (t: TestApp, siteId: string) =>
  (
    await t.app.database.db
      .selectFrom('sites')
      .select('ai_rewrite_paid_at')
      .where('id', '=', siteId)
      .executeTakeFirstOrThrow()
  ).ai_rewrite_paid_at;

/** Every PaymentIntent Stripe holds for a clone's rewrite. */
const rewriteIntents = (stripe: StripeServer, cloneId: string) =>
  [...stripe.state.paymentIntents.values()].filter(
    (pi) => (pi.metadata as Record<string, string>).cloneId === cloneId,
  );

describe('rewrite payments', () => {
  it(
    'charge once when two requests without an Idempotency-Key come at once',
    { timeout: 120_000 },
    async () => {
      const { t, stripe } = await setupStripe();
      const user = await signUp(t);
      const site = await mirrorSite(t, fixture.url, user.headers);

      const answers = await Promise.all([
        pay(t, user, site.id, 'pm_card_visa'),
        pay(t, user, site.id, 'pm_card_visa'),
      ]);
      const statuses = answers.map((res) => res.statusCode).sort();
      expect(statuses).toEqual([200, 409]);
      const paid = answers.find((res) => res.statusCode === 200)!;
      const refused = answers.find((res) => res.statusCode === 409)!;
      expect(paid.json()).toMatchObject({ status: 'succeeded' });
      expect([PAYMENT_MESSAGES.paymentInProgress, PAYMENT_MESSAGES.alreadyPaid]).toContain(
        refused.json().message,
      );
      const charges = stripe.requests.filter(
        (r) => r.method === 'POST' && r.path === '/v1/payment_intents',
      );
      expect(charges).toHaveLength(1);
      expect(rewriteIntents(stripe, site.id)).toHaveLength(1);
      expect(await paidAt(t, site.id)).not.toBeNull();

      // The payment opens one rewrite.
      expect((await rewrite(t, user, site.id)).statusCode).toBe(202);
      expect((await pollToEnd(t, site.id, user.headers)).at(-1)!.status).toBe('completed');
      expect((await rewrite(t, user, site.id)).statusCode).toBe(402);
    },
  );

  it(
    'give a failed rewrite its payment back only while the model has not answered with a plan',
    { timeout: 120_000 },
    async () => {
      // The model's first two answers are unusable (a run asks twice); its third is a plan.
      const unusable = { content: 'Sorry, I cannot do that.' };
      const ai = await startModel([unusable, unusable, PLAN]);
      const t = await createTestApp({ ...SERVICE_ENV, AI_BASE_URL: ai.baseURL, AI_MODEL: 'm' });
      cleanups.push(() => t.close());
      const user = await signUp(t);
      const site = await mirrorSite(t, fixture.url, user.headers);
      const card = await t.app.inject({
        method: 'POST',
        url: '/api/payments/test/payment-methods',
        headers: user.headers,
        payload: { number: TEST_CARDS.succeeds, expMonth: 12, expYear: NEXT_YEAR, cvc: '123' },
      });
      expect((await pay(t, user, site.id, card.json().id)).json()).toMatchObject({
        status: 'succeeded',
      });
      const paid = await paidAt(t, site.id);

      // Nothing usable came back: the payment is given back for another try.
      expect((await rewrite(t, user, site.id)).statusCode).toBe(202);
      expect((await pollToEnd(t, site.id, user.headers)).at(-1)!.status).toBe('failed');
      expect(ai.requests).toHaveLength(2);
      expect(await paidAt(t, site.id)).toBe(paid);

      // The account's storage is all but full: the rewritten copy does not fit, after the model
      // answered with a plan. That model call used the payment.
      const { storage } = (
        await t.app.inject({ url: '/api/payments/usage', headers: user.headers })
      ).json() as { storage: { usedBytes: number; limitBytes: number } };
      const live = (
        await t.app.inject({ url: `/api/domains/clone/${site.id}`, headers: user.headers })
      ).json().liveVersionId as string;
      await t.app.database.db
        .insertInto('version_blobs')
        .values({
          version_id: live,
          hash: 'f'.repeat(64),
          size: storage.limitBytes - storage.usedBytes - 1,
        })
        .execute();
      expect((await rewrite(t, user, site.id)).statusCode).toBe(202);
      const end = (await pollToEnd(t, site.id, user.headers)).at(-1)!;
      expect(end.status).toBe('failed');
      expect(end.error).toContain('storage');
      expect(ai.requests).toHaveLength(3);
      expect(await paidAt(t, site.id)).toBeNull();
      const again = await rewrite(t, user, site.id);
      expect([again.statusCode, again.json()]).toEqual([
        402,
        { message: CUSTOMIZE_MESSAGES.paymentRequired },
      ]);
      expect(ai.requests).toHaveLength(3);
    },
  );

  it(
    'close an unused rewrite when Stripe reports its payment refunded or disputed',
    { timeout: 120_000 },
    async () => {
      const { t, stripe, dashboard } = await setupStripe();
      const user = await signUp(t);
      const site = await mirrorSite(t, fixture.url, user.headers);

      // Refunded from the dashboard before the rewrite was started.
      const first = (await pay(t, user, site.id, 'pm_card_visa')).json() as { id: string };
      expect(await paidAt(t, site.id)).not.toBeNull();
      await dashboard.refunds.create({ payment_intent: first.id });
      const refunded = stripe.lastEvent('charge.refunded');
      expect((await deliver(t, refunded)).statusCode).toBe(200);
      expect(await paidAt(t, site.id)).toBeNull();
      expect((await rewrite(t, user, site.id)).statusCode).toBe(402);
      expect((await deliver(t, refunded)).statusCode).toBe(200);

      // Paid again, then disputed by the card holder.
      const second = (await pay(t, user, site.id, 'pm_card_visa')).json() as { id: string };
      expect(second.id).not.toBe(first.id);
      expect(await paidAt(t, site.id)).not.toBeNull();
      stripe.dispute(second.id);
      expect((await deliver(t, stripe.lastEvent('charge.dispute.created'))).statusCode).toBe(200);
      expect(await paidAt(t, site.id)).toBeNull();
      expect((await rewrite(t, user, site.id)).statusCode).toBe(402);

      // A payment whose rewrite was made stays made when it is refunded afterwards.
      const third = (await pay(t, user, site.id, 'pm_card_visa')).json() as { id: string };
      expect((await rewrite(t, user, site.id)).statusCode).toBe(202);
      expect((await pollToEnd(t, site.id, user.headers)).at(-1)!.status).toBe('completed');
      await dashboard.refunds.create({ payment_intent: third.id });
      expect((await deliver(t, stripe.lastEvent('charge.refunded'))).statusCode).toBe(200);
      const versions = (
        await t.app.inject({ url: `/api/domains/clone/${site.id}/versions`, headers: user.headers })
      ).json() as { kind: string; draft: boolean }[];
      expect(versions.filter((v) => v.kind === 'rewrite')).toMatchObject([{ draft: true }]);
    },
  );

  it(
    'refund a 3-D Secure payment completed after a newer payment paid the same rewrite',
    { timeout: 120_000 },
    async () => {
      const { t, stripe } = await setupStripe();
      const user = await signUp(t);
      const site = await mirrorSite(t, fixture.url, user.headers);

      const waiting = (await pay(t, user, site.id, 'pm_card_threeDSecure2Required')).json() as {
        id: string;
        status: string;
      };
      expect(waiting.status).toBe('requires_action');
      // The card holder gives up on that dialog and pays with another card.
      const paid = await pay(t, user, site.id, 'pm_card_visa');
      expect(paid.json()).toMatchObject({ status: 'succeeded' });
      expect(await paidAt(t, site.id)).not.toBeNull();

      // …and then completes the first one after all: Stripe charged twice for one rewrite.
      stripe.authenticate(waiting.id);
      expect((await deliver(t, stripe.lastEvent('payment_intent.succeeded'))).statusCode).toBe(200);
      const charge = () =>
        stripe.state.charges.get(
          stripe.state.paymentIntents.get(waiting.id)!.latest_charge as string,
        )!;
      await waitFor(() => (charge().refunded ? true : undefined), 10_000);
      const refunds = stripe.requests.filter(
        (r) => r.method === 'POST' && r.path === '/v1/refunds',
      );
      expect(refunds).toMatchObject([{ params: { payment_intent: waiting.id } }]);
      expect((await deliver(t, stripe.lastEvent('charge.refunded'))).statusCode).toBe(200);

      // One rewrite is open, paid by the card kept.
      expect(await paidAt(t, site.id)).not.toBeNull();
      expect((await rewrite(t, user, site.id)).statusCode).toBe(202);
      await pollToEnd(t, site.id, user.headers);
      expect((await rewrite(t, user, site.id)).statusCode).toBe(402);
    },
  );
});
