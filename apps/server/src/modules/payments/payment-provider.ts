import type {
  Invoice,
  PaidPlanId,
  PaymentIntentResponse,
  PaymentMethod,
  PaymentMode,
  Subscription,
} from '@mirror/contract';

/**
 * What the payments service needs from a card payment provider. Two implementations: Stripe
 * (`stripe-provider.ts`, the official SDK) and the local test mode (`test-mode/provider.ts`, stateful in
 * our database, behaving like Stripe's test mode). Ids are the provider's own (`cus_…`, `pm_…`,
 * `sub_…`, `pi_…`, `in_…`); the service stores them and never a card number.
 *
 * State changes reach the service as `BillingEvent`s: Stripe's verified webhooks, and the test
 * mode's own events, handled by the same idempotent code (`payments.service.ts#applyEvent`).
 */
export interface PaymentProvider {
  readonly mode: PaymentMode;
  /** Stripe.js key for the browser; null in test mode. */
  readonly publishableKey: string | null;

  /** A customer for this user, created on first use. */
  createCustomer(user: { id: string; email: string; name: string }): Promise<string>;
  createSetupIntent(customerId: string): Promise<{ clientSecret: string }>;
  listPaymentMethods(customerId: string): Promise<PaymentMethod[]>;
  /** Attaches (when needed) and makes it the default for invoices. */
  setDefaultPaymentMethod(customerId: string, paymentMethodId: string): Promise<void>;
  detachPaymentMethod(customerId: string, paymentMethodId: string): Promise<void>;

  /**
   * Subscribes the customer; `clientSecret` is set when the first payment needs confirmation
   * (3-D Secure), then the subscription is `incomplete` until it is confirmed.
   */
  createSubscription(input: {
    customerId: string;
    planId: PaidPlanId;
    paymentMethodId: string;
    idempotencyKey: string;
  }): Promise<{ subscription: Subscription; clientSecret: string | null }>;
  /** Changes the plan with proration. */
  updateSubscription(
    subscriptionId: string,
    planId: PaidPlanId,
    idempotencyKey: string,
  ): Promise<Subscription>;
  cancelSubscription(subscriptionId: string, immediately: boolean): Promise<Subscription>;
  reactivateSubscription(subscriptionId: string): Promise<Subscription>;

  /** A one-off payment, confirmed at once when a payment method is given. */
  createPaymentIntent(input: {
    customerId: string;
    amount: number;
    currency: string;
    description: string;
    metadata: Record<string, string>;
    paymentMethodId?: string;
    idempotencyKey: string;
  }): Promise<PaymentIntentResponse>;
  retrievePaymentIntent(paymentIntentId: string): Promise<{
    id: string;
    status: PaymentIntentResponse['status'];
    amount: number;
    customerId: string | null;
    metadata: Record<string, string>;
  }>;

  /**
   * Refunds a succeeded payment in full (a rewrite paid twice). Safe to repeat: the key makes a
   * retry the same refund, and a payment refunded already is not an error.
   */
  refundPaymentIntent(paymentIntentId: string, idempotencyKey: string): Promise<void>;

  listInvoices(customerId: string): Promise<Invoice[]>;
  /** The invoice's PDF; null when the invoice is not this customer's. */
  invoicePdf(customerId: string, invoiceId: string): Promise<Buffer | null>;
  createPortalSession(customerId: string, returnUrl: string): Promise<{ url: string }>;
}

/** A provider-neutral state change, from a webhook or the test mode. */
export type BillingEvent =
  | {
      /** Unique per event: events seen before are ignored. */
      id: string;
      type: 'subscription.updated' | 'subscription.deleted';
      /** Seconds; an event older than the state already stored does not overwrite it. */
      created: number;
      customerId: string;
      subscription: Subscription;
    }
  | {
      id: string;
      type: 'payment_intent.succeeded' | 'payment_intent.payment_failed';
      created: number;
      customerId: string | null;
      paymentIntentId: string;
      amount: number;
      metadata: Record<string, string>;
    }
  | {
      id: string;
      /**
       * A payment was refunded (`fully`: all of it; Stripe's `charge.refunded`) or disputed by the
       * card holder (Stripe's `charge.dispute.created`).
       */
      type: 'payment.refunded' | 'payment.disputed';
      created: number;
      paymentIntentId: string;
      fully: boolean;
    };

/** A refusal the user can act on (declined card, …): reported as 402 with the provider's text. */
export class PaymentDeclinedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PaymentDeclinedError';
  }
}
