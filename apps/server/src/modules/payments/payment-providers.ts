import type { FastifyBaseLogger } from 'fastify';
import { PAYMENT_MESSAGES } from '@mirror/contract';
import type { Config } from '../../config/env.js';
import { serviceUnavailable } from '../../errors.js';
import type { Db } from '../../platform/db/database.js';
import type { BillingEvent, PaymentProvider } from './payment-provider.js';
import { createStripeProvider } from './stripe-provider.js';
import { createTestPaymentProvider, type TestPaymentProvider } from './test-mode/provider.js';

/** Verifies a webhook's signature over its raw body; null for event types we do not act on. */
export type WebhookParser = (rawBody: Buffer, signature: string | undefined) => BillingEvent | null;

export interface PaymentProviders {
  provider: PaymentProvider;
  /** The local test mode (no Stripe keys): its card form, 3-D Secure dialog and renewals. */
  testMode: TestPaymentProvider | null;
  /** Stripe only. */
  parseWebhook: WebhookParser | null;
}

/**
 * No provider (production without Stripe keys): what has no customer reads as empty, everything
 * that would create, charge or change something answers 503 and changes nothing.
 */
function disabledProvider(): PaymentProvider {
  const refuse = (): never => {
    throw serviceUnavailable(PAYMENT_MESSAGES.notConfigured);
  };
  return {
    mode: 'off',
    publishableKey: null,
    createCustomer: refuse,
    createSetupIntent: refuse,
    listPaymentMethods: async () => [],
    setDefaultPaymentMethod: refuse,
    detachPaymentMethod: refuse,
    createSubscription: refuse,
    updateSubscription: refuse,
    cancelSubscription: refuse,
    reactivateSubscription: refuse,
    createPaymentIntent: refuse,
    retrievePaymentIntent: refuse,
    refundPaymentIntent: refuse,
    listInvoices: async () => [],
    invoicePdf: async () => null,
    createPortalSession: refuse,
  };
}

/** `config.payments.mode`: Stripe, the local test mode, or no provider at all. */
export function createPaymentProvider(
  config: Config,
  deps: { db: Db; log: FastifyBaseLogger; onEvent(event: BillingEvent): Promise<unknown> },
): PaymentProviders {
  const stripe = config.payments.stripe;
  if (config.payments.mode === 'off') {
    deps.log.warn(
      'Payments are not configured (PAYMENTS_MODE=off, or production without STRIPE_* keys): every payment and plan change answers 503',
    );
    return { provider: disabledProvider(), testMode: null, parseWebhook: null };
  }
  if (config.payments.mode === 'stripe' && stripe) {
    const provider = createStripeProvider(stripe);
    return {
      provider,
      testMode: null,
      parseWebhook: (rawBody, signature) => provider.parseWebhook(rawBody, signature),
    };
  }
  if (config.env === 'production') {
    deps.log.warn(
      'PAYMENTS_MODE=test IN PRODUCTION: the local test mode takes free test cards, anyone can buy any plan without paying',
    );
  }
  const testMode = createTestPaymentProvider({
    db: deps.db,
    appUrl: config.appUrl,
    onEvent: deps.onEvent,
    log: deps.log,
  });
  return { provider: testMode, testMode, parseWebhook: null };
}
