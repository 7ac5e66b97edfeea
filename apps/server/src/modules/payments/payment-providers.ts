import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config/env.js';
import type { Db } from '../../platform/db/database.js';
import type { BillingEvent, PaymentProvider } from './payment-provider.js';
import { createStripeProvider } from './stripe-provider.js';
import { createTestPaymentProvider, type TestPaymentProvider } from './test-provider.js';

/** Verifies a webhook's signature over its raw body; null for event types we do not act on. */
export type WebhookParser = (rawBody: Buffer, signature: string | undefined) => BillingEvent | null;

export interface PaymentProviders {
  provider: PaymentProvider;
  /** The local test mode (no Stripe keys): its card form, 3-D Secure dialog and renewals. */
  testMode: TestPaymentProvider | null;
  /** Stripe only. */
  parseWebhook: WebhookParser | null;
}

/** Stripe when every STRIPE_* setting is there, else the local test mode. */
export function createPaymentProvider(
  config: Config,
  deps: { db: Db; log: FastifyBaseLogger; onEvent(event: BillingEvent): Promise<unknown> },
): PaymentProviders {
  const stripe = config.payments.stripe;
  if (stripe) {
    const provider = createStripeProvider(stripe);
    return {
      provider,
      testMode: null,
      parseWebhook: (rawBody, signature) => provider.parseWebhook(rawBody, signature),
    };
  }
  const testMode = createTestPaymentProvider({
    db: deps.db,
    appUrl: config.appUrl,
    onEvent: deps.onEvent,
    log: deps.log,
  });
  return { provider: testMode, testMode, parseWebhook: null };
}
