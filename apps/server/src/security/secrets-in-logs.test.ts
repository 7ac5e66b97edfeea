import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { TEST_CARDS } from '@mirror/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { startFixtureSite } from '../test/fixture-site.js';
import { startOpenAiServer } from '../test/openai-server.js';
import { signEvent, startStripeServer } from '../test/stripe-server.js';
import { pollToEnd, SERVICE_ENV } from '../test/api-helpers.js';
import { startSmtpServer } from '../test/smtp-server.js';
import { createTestApp, waitFor, type TestApp } from '../test/test-app.js';

/**
 * The server's logs at their most talkative level ('trace') never hold a secret: passwords,
 * session and reset tokens, card numbers, the AI key, Stripe's secret key and webhook secret, the
 * SMTP password, the metrics token. Each flow that handles one runs here, failures included (a
 * provider error is where a key most often slips into a log line).
 */

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const secret = (prefix: string) => `${prefix}${randomBytes(12).toString('hex')}`;
const NEXT_YEAR = new Date().getUTCFullYear() + 1;

function logSink() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { stream, text: () => lines.join('') };
}

async function smtpServer(password: string) {
  const smtp = await startSmtpServer({ user: 'mirror', password });
  cleanups.push(() => smtp.close());
  return smtp;
}

function tokenOf(res: { json(): unknown }): string {
  return (res.json() as { token: string }).token;
}

describe('secrets never reach the logs', () => {
  it('test mode: passwords, session and reset tokens, cards, the AI key, SMTP and metrics', async () => {
    const secrets = {
      password: secret('pw-'),
      wrongPassword: secret('wrong-'),
      newPassword: secret('new-'),
      resetPassword: secret('reset-'),
      aiKey: secret('sk-ai-'),
      smtpPassword: secret('smtp'),
      metricsToken: secret('metrics-'),
    };
    const fixture = await startFixtureSite();
    cleanups.push(() => fixture.close());
    // The model first refuses the key, then answers something that is not a plan.
    const ai = await startOpenAiServer([
      { status: 401, error: 'Incorrect API key provided' },
      { content: 'Sure! Here is your plan.' },
    ]);
    cleanups.push(() => ai.close());
    const smtp = await smtpServer(secrets.smtpPassword);
    const logs = logSink();
    const t: TestApp = await createTestApp(
      {
        ...SERVICE_ENV,
        LOG_LEVEL: 'trace',
        AI_BASE_URL: ai.baseURL,
        AI_MODEL: 'test-model',
        AI_API_KEY: secrets.aiKey,
        SMTP_URL: `smtp://mirror:${secrets.smtpPassword}@127.0.0.1:${smtp.port}`,
        METRICS_TOKEN: secrets.metricsToken,
      },
      { logStream: logs.stream },
    );
    cleanups.push(() => t.close());
    const inject = t.app.inject.bind(t.app);
    const email = 'secret-keeper@example.com';

    const registered = await inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { name: 'Keeper', email, password: secrets.password },
    });
    expect(registered.statusCode).toBe(201);
    await t.app.database.db
      .updateTable('users')
      .set({ plan: 'pro' })
      .where('email', '=', email)
      .execute();
    const wrong = await inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password: secrets.wrongPassword },
    });
    expect(wrong.statusCode).toBe(401);
    const login = await inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password: secrets.password },
    });
    expect(login.statusCode).toBe(200);
    const token = tokenOf(login);
    const headers = { authorization: `Bearer ${token}` };
    const changed = await inject({
      method: 'PUT',
      url: '/api/auth/me/password',
      headers,
      payload: { currentPassword: secrets.password, newPassword: secrets.newPassword },
    });
    expect(changed.statusCode).toBe(200);

    // A reset link goes out through SMTP (with the SMTP password) and is used.
    await inject({ method: 'POST', url: '/api/auth/reset-password', payload: { email } });
    const mail = await waitFor(() => smtp.received[0]?.data);
    const resetToken = /token=([A-Za-z0-9_-]{20,})/.exec(
      mail.replace(/=\r?\n/g, '').replace(/=3D/g, '='),
    )![1]!;
    const reset = await inject({
      method: 'POST',
      url: '/api/auth/reset-password/confirm',
      payload: { token: resetToken, password: secrets.resetPassword },
    });
    expect(reset.statusCode).toBe(200);
    const fresh = await inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password: secrets.resetPassword },
    });
    const freshToken = tokenOf(fresh);
    const fresher = { authorization: `Bearer ${freshToken}` };

    // Cards of every behaviour, and a subscription.
    const cards = [TEST_CARDS.succeeds, TEST_CARDS.declined, '5555555555554444'];
    for (const number of cards) {
      const res = await inject({
        method: 'POST',
        url: '/api/payments/test/payment-methods',
        headers: fresher,
        payload: { number, expMonth: 12, expYear: NEXT_YEAR, cvc: '123' },
      });
      expect(res.statusCode).toBe(200);
    }

    // An AI customization: the key is refused once, then the answer is no plan (a failed run).
    const site = await inject({
      method: 'POST',
      url: '/api/domains/clone',
      headers: fresher,
      payload: { sourceUrl: fixture.url },
    });
    expect(site.statusCode).toBe(201);
    const siteId = site.json().id as string;
    await pollToEnd(t, siteId, fresher);
    const customized = await inject({
      method: 'PUT',
      url: `/api/domains/clone/${siteId}/customize`,
      headers: fresher,
      payload: { customizations: { instructions: 'make it feel like spring' }, regenerate: true },
    });
    expect(customized.statusCode).toBe(202);
    expect((await pollToEnd(t, siteId, fresher)).at(-1)!.status).toBe('failed');
    expect(ai.requests.length).toBeGreaterThan(0);
    expect(ai.requests[0]!.headers.authorization).toBe(`Bearer ${secrets.aiKey}`);

    // Metrics with and without the token.
    expect(
      (
        await inject({
          url: '/metrics',
          headers: { authorization: `Bearer ${secrets.metricsToken}` },
        })
      ).statusCode,
    ).toBe(200);
    expect((await inject({ url: '/metrics' })).statusCode).toBe(401);
    await inject({ method: 'POST', url: '/api/auth/logout', headers: fresher });

    const text = logs.text();
    // The log is there and detailed: requests, the mail, the failed customization.
    expect(text).toContain('/api/auth/login');
    expect(text).toContain('/api/payments/test/payment-methods');
    expect(text).toContain('mail sent');
    expect(text).toContain('customization failed');
    for (const [name, value] of Object.entries({
      ...secrets,
      token,
      freshToken,
      registeredToken: tokenOf(registered),
      resetToken,
      ...Object.fromEntries(cards.map((c, i) => [`card${i}`, c])),
    })) {
      expect(text.includes(value), `${name} appears in the logs`).toBe(false);
    }
  }, 60_000);

  it('Stripe mode: the secret key, the webhook secret and signatures', async () => {
    const stripeKey = secret('sk_test_');
    const webhookSecret = secret('whsec_');
    const stripe = await startStripeServer({ secretKey: stripeKey });
    cleanups.push(() => stripe.close());
    const logs = logSink();
    const t = await createTestApp(
      {
        ...SERVICE_ENV,
        LOG_LEVEL: 'trace',
        STRIPE_SECRET_KEY: stripeKey,
        STRIPE_PUBLISHABLE_KEY: 'pk_test_public',
        STRIPE_WEBHOOK_SECRET: webhookSecret,
        STRIPE_PRICE_PRO: 'price_pro',
        STRIPE_PRICE_AGENCY: 'price_agency',
        STRIPE_API_URL: stripe.url,
      },
      { logStream: logs.stream },
    );
    cleanups.push(() => t.close());
    const registered = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { name: 'Payer', email: 'payer@example.com', password: 'a long password' },
    });
    const headers = { authorization: `Bearer ${tokenOf(registered)}` };
    const subscribe = (paymentMethodId: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/payments/subscribe',
        headers,
        payload: { planId: 'pro', paymentMethodId },
      });
    // A declined card (a Stripe error answer), then a card that works.
    expect((await subscribe('pm_card_chargeDeclined')).statusCode).toBe(402);
    expect((await subscribe('pm_card_visa')).statusCode).toBe(200);
    const event = stripe.events.at(-1)!;
    const good = signEvent(event, webhookSecret);
    const forged = signEvent(event, 'whsec_forged');
    const deliver = (signature: string, payload: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/payments/webhook',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        payload,
      });
    expect((await deliver(good.signature, good.payload)).statusCode).toBe(200);
    expect((await deliver(forged.signature, forged.payload)).statusCode).toBe(400);

    const text = logs.text();
    expect(text).toContain('/api/payments/webhook');
    expect(text).toContain('webhook refused');
    for (const [name, value] of Object.entries({
      stripeKey,
      webhookSecret,
      goodSignature: good.signature,
      forgedSignature: forged.signature,
    })) {
      expect(text.includes(value), `${name} appears in the logs`).toBe(false);
    }
  });
});
