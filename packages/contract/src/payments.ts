import { z } from 'zod';

/**
 * Payments and billing (SPEC §3, §7 "Payments"; issue 7). Two providers answer these calls the
 * same way: Stripe when it is configured, and a local test mode (the default) that behaves like
 * Stripe's test mode. Times are unix seconds and amounts cents, as Stripe sends them.
 */

export const PAID_PLAN_IDS = ['pro', 'agency'] as const;
export type PaidPlanId = (typeof PAID_PLAN_IDS)[number];

/** Which provider answers: `test` is the local test mode, labelled as such in the UI. */
export const PAYMENT_MODES = ['test', 'stripe'] as const;
export type PaymentMode = (typeof PAYMENT_MODES)[number];

/** Card numbers of the local test mode, as in Stripe's test mode. */
export const TEST_CARDS = {
  succeeds: '4242424242424242',
  declined: '4000000000000002',
  requiresAuthentication: '4000002500003155',
} as const;

/** SPEC §8 fallbacks (shown when the server sends no message) and the server's own texts. */
export const PAYMENT_MESSAGES = {
  subscribeFailed: 'Subscription creation failed',
  updateFailed: 'Subscription update failed',
  cancelFailed: 'Subscription cancellation failed',
  reactivateFailed: 'Subscription reactivation failed',
  addMethodFailed: 'Failed to add payment method',
  fetchMethodsFailed: 'Failed to fetch payment methods',
  setDefaultFailed: 'Failed to set default payment method',
  removeMethodFailed: 'Failed to remove payment method',
  paymentFailed: 'Payment failed',
  fetchInvoicesFailed: 'Failed to fetch invoices',
  downloadInvoiceFailed: 'Failed to download invoice',
  fetchUsageFailed: 'Failed to fetch usage',
  portalFailed: 'Failed to open billing portal',
  initFailed: 'Failed to initialize payment system',
  // Billing screen (SPEC §8).
  loadBillingFailed: 'Failed to load billing information.',
  cancelScheduled: 'Subscription scheduled for cancellation.',
  reactivated: 'Subscription reactivated successfully!',
  cancelConfirm:
    'Are you sure you want to cancel your subscription? It will remain active until the end of the current billing period.',
  // Server answers.
  cardDeclined: 'Your card was declined.',
  cardInvalid: 'Your card number is invalid.',
  cardExpired: 'Your card has expired.',
  cvcInvalid: "Your card's security code is invalid.",
  authenticationFailed: 'We are unable to authenticate your payment method.',
  noPaymentMethod: 'Add a payment method first.',
  paymentMethodNotFound: 'Payment method not found.',
  alreadySubscribed: 'You already have a subscription. Change its plan instead.',
  notSubscribed: 'You have no active subscription.',
  samePlan: 'You are already on this plan.',
  notCancelling: 'This subscription is not scheduled for cancellation.',
  invoiceNotFound: 'Invoice not found.',
  paymentNotFound: 'Payment not found.',
  alreadyPaid: 'This rewrite is already paid for.',
  rewriteNotNeeded: 'AI rewrite is included in your plan.',
  testModeOnly: 'Test cards are only accepted in test mode.',
  invalidSignature: 'Invalid webhook signature.',
  overLimitAfterDowngrade:
    'Your plan allows fewer sites than you have. Existing sites keep working; delete some or upgrade to mirror more.',
} as const;

export const PlanIdField = z.enum(PAID_PLAN_IDS, { error: 'Choose Mirror Pro or Mirror Agency.' });

/** Subscription status, as Stripe names it. */
export const SUBSCRIPTION_STATUSES = [
  'active',
  'trialing',
  'incomplete',
  'incomplete_expired',
  'past_due',
  'canceled',
  'unpaid',
] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const Subscription = z.object({
  id: z.string(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  plan: z.enum(PAID_PLAN_IDS),
  current_period_start: z.number().int(),
  current_period_end: z.number().int(),
  cancel_at_period_end: z.boolean(),
  trial_end: z.number().int().nullable(),
});
export type Subscription = z.infer<typeof Subscription>;

/** GET /payments/subscription: the billing view of SPEC §3. */
export const BillingView = z.object({
  currentPlan: z.enum(['free', 'pro', 'agency']),
  isSubscribed: z.boolean(),
  isTrialing: z.boolean(),
  trialEndsAt: z.number().int().nullable(),
  cancel_at_period_end: z.boolean(),
  subscription: Subscription.nullable(),
  mode: z.enum(PAYMENT_MODES),
  /** Stripe's publishable key (Stripe.js), null in test mode. */
  publishableKey: z.string().nullable(),
});
export type BillingView = z.infer<typeof BillingView>;

export const SubscribeBody = z.object({
  planId: PlanIdField,
  paymentMethodId: z.string().trim().min(1, PAYMENT_MESSAGES.noPaymentMethod).max(255),
});
export const SubscribeResponse = z.object({
  subscription: Subscription,
  /** Set when the first payment needs the card holder to confirm it (3-D Secure). */
  clientSecret: z.string().nullable(),
});
export type SubscribeResponse = z.infer<typeof SubscribeResponse>;

export const UpdateSubscriptionBody = z.object({ planId: PlanIdField });
export const CancelSubscriptionBody = z.object({ immediately: z.boolean().default(false) });

export const ClientSecretResponse = z.object({ clientSecret: z.string() });

export const PaymentMethod = z.object({
  id: z.string(),
  brand: z.string(),
  last4: z.string().regex(/^\d{4}$/),
  expMonth: z.number().int(),
  expYear: z.number().int(),
  isDefault: z.boolean(),
});
export type PaymentMethod = z.infer<typeof PaymentMethod>;

export const DefaultPaymentMethodBody = z.object({
  paymentMethodId: z.string().trim().min(1).max(255),
});

export const PaymentIntentBody = z.object({
  amount: z.number().int().min(50).max(99_999_999),
  currency: z
    .string()
    .regex(/^[a-z]{3}$/)
    .default('usd'),
  description: z.string().trim().min(1).max(500),
  paymentMethodId: z.string().trim().min(1).max(255).optional(),
  metadata: z.record(z.string(), z.string().max(500)).optional(),
});
export const PAYMENT_INTENT_STATUSES = [
  'requires_payment_method',
  'requires_confirmation',
  'requires_action',
  'processing',
  'succeeded',
  'canceled',
] as const;
export const PaymentIntentResponse = z.object({
  id: z.string(),
  clientSecret: z.string(),
  status: z.enum(PAYMENT_INTENT_STATUSES),
});
export type PaymentIntentResponse = z.infer<typeof PaymentIntentResponse>;

/** POST /payments/ai-rewrite: pays the one-off rewrite of one clone (SPEC §3 AI rewrite payment). */
export const AiRewritePaymentBody = z.object({
  cloneId: z.string().trim().min(1).max(64),
  paymentMethodId: z.string().trim().min(1).max(255),
});

export const Invoice = z.object({
  id: z.string(),
  number: z.string().nullable(),
  created: z.number().int(),
  total: z.number().int(),
  currency: z.string(),
  status: z.string(),
  description: z.string().nullable(),
});
export type Invoice = z.infer<typeof Invoice>;

export const Usage = z.object({
  plan: z.enum(['free', 'pro', 'agency']),
  periodStart: z.number().int(),
  periodEnd: z.number().int(),
  mirrors: z.object({ used: z.number().int(), limit: z.number().int().nullable() }),
  customDomains: z.object({ used: z.number().int(), limit: z.number().int() }),
  pageViews: z.number().int(),
  bandwidthBytes: z.number().int(),
});
export type Usage = z.infer<typeof Usage>;

export const PortalSessionResponse = z.object({ url: z.string() });

/** POST /payments/test/payment-methods (test mode only): the card never leaves this call. */
export const TestCardBody = z.object({
  number: z
    .string()
    .transform((v) => v.replace(/[\s-]/g, ''))
    .pipe(z.string().regex(/^\d{12,19}$/, PAYMENT_MESSAGES.cardInvalid)),
  expMonth: z.coerce.number().int().min(1, PAYMENT_MESSAGES.cardExpired).max(12),
  expYear: z.coerce.number().int().min(2000).max(2100),
  cvc: z.string().regex(/^\d{3,4}$/, PAYMENT_MESSAGES.cvcInvalid),
});
export const TestPaymentMethodResponse = z.object({
  id: z.string(),
  brand: z.string(),
  last4: z.string(),
});

/** POST /payments/test/confirm (test mode only): the card holder's answer in the 3-D Secure dialog. */
export const TestConfirmBody = z.object({
  clientSecret: z.string().min(1).max(500),
  approve: z.boolean(),
});
