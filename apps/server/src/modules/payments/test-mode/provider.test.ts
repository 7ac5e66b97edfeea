import { TEST_CARDS } from '@mirror/contract';
import { inflateSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import type { BillingEvent } from '../payment-provider.js';
import { brandOf, cardProblem, passesLuhn, testCardFacts } from './cards.js';
import { createTestPaymentProvider } from './provider.js';
import { addMonths } from './renewals.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const DAY = 86_400;
const at = (iso: string) => Date.parse(iso) / 1000;
const card = (number: string) => ({ number, expMonth: 12, expYear: 2099, cvc: '123' });

async function setup(onEvent: (event: BillingEvent) => Promise<unknown>) {
  const t: TestApp = await createTestApp({}, { runJobs: false });
  cleanups.push(() => t.close());
  const provider = createTestPaymentProvider({
    db: t.app.database.db,
    appUrl: t.config.appUrl,
    onEvent,
  });
  const customerId = await provider.createCustomer({ id: 'u1', email: 'a@b.c', name: 'Ann' });
  return { t, provider, customerId };
}

/** The text a PDF made by pdfkit shows: its compressed page streams' TJ strings, decoded. */
function pdfText(pdf: Buffer): string {
  const raw = pdf.toString('latin1');
  const lines: string[] = [];
  for (const match of raw.matchAll(/stream\r?\n/g)) {
    const start = match.index + match[0].length;
    let content: string;
    try {
      content = inflateSync(pdf.subarray(start, raw.indexOf('endstream', start))).toString(
        'latin1',
      );
    } catch {
      continue; // fonts and other binary streams
    }
    for (const [, array] of content.matchAll(/\[(.*?)\] TJ/g)) {
      const hex = [...array!.matchAll(/<([0-9a-f]*)>/g)].map((m) => m[1]).join('');
      lines.push(Buffer.from(hex, 'hex').toString('latin1'));
    }
  }
  return lines.join('\n');
}

describe('test cards', () => {
  it('knows brands, the Luhn check, expiry and CVC length', () => {
    expect(passesLuhn(TEST_CARDS.succeeds)).toBe(true);
    expect(passesLuhn('4242424242424241')).toBe(false);
    expect(
      ['4242424242424242', '5555555555554444', '2223003122003222', '378282246310005'].map(brandOf),
    ).toEqual(['visa', 'mastercard', 'mastercard', 'amex']);
    expect(
      ['6011111111111117', '6500000000000002', '3056930009020004', '3566002020360505'].map(brandOf),
    ).toEqual(['discover', 'discover', 'diners', 'jcb']);
    const now = new Date('2030-06-15T00:00:00Z');
    expect(
      cardProblem({ ...card(TEST_CARDS.succeeds), expYear: 2030, expMonth: 6 }, now),
    ).toBeNull();
    expect(cardProblem({ ...card(TEST_CARDS.succeeds), expYear: 2030, expMonth: 5 }, now)).toBe(
      'expired',
    );
    expect(cardProblem({ ...card('378282246310005'), cvc: '123' }, now)).toBe('cvc');
    expect(testCardFacts(TEST_CARDS.declined)).toMatchObject({
      behaviour: 'declines',
      declineMessage: 'Your card was declined.',
    });
    expect(testCardFacts(TEST_CARDS.requiresAuthentication).behaviour).toBe('authenticates');
  });
});

describe('billing periods', () => {
  it('end on the anchor day each month, or the last day of a shorter month', () => {
    const anchor = at('2031-01-31T10:00:00Z');
    expect([1, 2, 3].map((m) => new Date(addMonths(anchor, m) * 1000).toISOString())).toEqual([
      '2031-02-28T10:00:00.000Z',
      '2031-03-31T10:00:00.000Z',
      '2031-04-30T10:00:00.000Z',
    ]);
  });
});

describe('the test-mode provider', () => {
  it('delivers events in order, and again from the first that failed', async () => {
    const seen: string[] = [];
    let fail = true;
    const { provider, customerId } = await setup(async (event) => {
      if (fail && seen.length === 1) {
        fail = false;
        throw new Error('database unavailable');
      }
      seen.push('subscription' in event ? event.subscription.status : event.type);
    });
    const pm = await provider.createPaymentMethod(card(TEST_CARDS.succeeds));
    const created = await provider.createSubscription({
      customerId,
      planId: 'pro',
      paymentMethodId: pm.id,
      idempotencyKey: 'k1',
    });
    // The payment succeeded, then the subscription event failed and waits.
    expect(seen).toEqual(['payment_intent.succeeded']);
    await provider.cancelSubscription(created.subscription.id, true);
    expect(seen).toEqual(['payment_intent.succeeded', 'active', 'canceled']);
  });

  it('answers a repeated idempotency key with the first result and charges once', async () => {
    const { t, provider, customerId } = await setup(async () => undefined);
    const pm = await provider.createPaymentMethod(card(TEST_CARDS.succeeds));
    const input = {
      customerId,
      amount: 200,
      currency: 'usd',
      description: 'AI Website Rewrite',
      metadata: {},
      paymentMethodId: pm.id,
      idempotencyKey: 'same-key',
    };
    const [a, b] = await Promise.all([
      provider.createPaymentIntent(input),
      provider.createPaymentIntent(input),
    ]);
    const c = await provider.createPaymentIntent(input);
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    const charges = await t.app.database.db
      .selectFrom('testmode_payment_intents')
      .select('id')
      .execute();
    expect(charges).toHaveLength(1);
  });

  it('retries a failed renewal, keeps the plan meanwhile, and cancels after the last attempt', async () => {
    const statuses: string[] = [];
    const { provider, customerId } = await setup(async (event) => {
      if (event.type === 'subscription.updated' || event.type === 'subscription.deleted')
        statuses.push(event.subscription.status);
    });
    const good = await provider.createPaymentMethod(card(TEST_CARDS.succeeds));
    const { subscription } = await provider.createSubscription({
      customerId,
      planId: 'pro',
      paymentMethodId: good.id,
      idempotencyKey: 'k2',
    });
    const bad = await provider.createPaymentMethod(card(TEST_CARDS.declined));
    await provider.setDefaultPaymentMethod(customerId, bad.id);

    const end = subscription.current_period_end;
    await provider.renewDue(new Date((end + 60) * 1000));
    expect(statuses.at(-1)).toBe('past_due');
    for (const days of [3, 8, 15]) {
      await provider.renewDue(new Date((end + days * DAY + 120) * 1000));
    }
    expect(statuses.at(-1)).toBe('canceled');
    const invoices = await provider.listInvoices(customerId);
    expect(invoices.map((i) => i.status)).toEqual(['uncollectible', 'paid']);
  });

  it('pays a past-due invoice on the next attempt once the card works', async () => {
    const statuses: string[] = [];
    const { provider, customerId } = await setup(async (event) => {
      if (event.type === 'subscription.updated') statuses.push(event.subscription.status);
    });
    const good = await provider.createPaymentMethod(card(TEST_CARDS.succeeds));
    const { subscription } = await provider.createSubscription({
      customerId,
      planId: 'agency',
      paymentMethodId: good.id,
      idempotencyKey: 'k3',
    });
    const bad = await provider.createPaymentMethod(card(TEST_CARDS.declined));
    await provider.setDefaultPaymentMethod(customerId, bad.id);
    const end = subscription.current_period_end;
    await provider.renewDue(new Date((end + 60) * 1000));
    await provider.setDefaultPaymentMethod(customerId, good.id);
    await provider.renewDue(new Date((end + 3 * DAY + 120) * 1000));
    expect(statuses.slice(-2)).toEqual(['past_due', 'active']);
    expect((await provider.listInvoices(customerId)).map((i) => [i.total, i.status])).toEqual([
      [2900, 'paid'],
      [2900, 'paid'],
    ]);
  });

  it('expires a subscription whose first payment was never confirmed', async () => {
    const statuses: string[] = [];
    const { provider, customerId } = await setup(async (event) => {
      if (event.type === 'subscription.updated') statuses.push(event.subscription.status);
    });
    const pm = await provider.createPaymentMethod(card(TEST_CARDS.requiresAuthentication));
    const created = await provider.createSubscription({
      customerId,
      planId: 'pro',
      paymentMethodId: pm.id,
      idempotencyKey: 'k4',
    });
    expect(created.clientSecret).toMatch(/_secret_/);
    await provider.renewDue(new Date(Date.now() + 2 * 3600_000));
    expect(statuses).toEqual(['incomplete']);
    await provider.renewDue(new Date(Date.now() + 24 * 3600_000));
    expect(statuses).toEqual(['incomplete', 'incomplete_expired']);
    expect((await provider.listInvoices(customerId)).map((i) => i.status)).toEqual(['void']);
  });

  it('writes invoices as PDF files marked as test mode, only for their customer', async () => {
    const { provider, customerId } = await setup(async () => undefined);
    const pm = await provider.createPaymentMethod(card(TEST_CARDS.succeeds));
    await provider.createSubscription({
      customerId,
      planId: 'pro',
      paymentMethodId: pm.id,
      idempotencyKey: 'k5',
    });
    const [invoice] = await provider.listInvoices(customerId);
    const pdf = await provider.invoicePdf(customerId, invoice!.id);
    expect(pdf!.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(pdf!);
    for (const shown of [
      'TEST MODE',
      'MIRROR-0001',
      'Ann <a@b.c>',
      'Mirror Pro',
      'Total',
      '$7.00',
    ]) {
      expect(text).toContain(shown);
    }
    expect(await provider.invoicePdf('cus_other', invoice!.id)).toBeNull();
  });
});
