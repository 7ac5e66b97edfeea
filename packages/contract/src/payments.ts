import { z } from 'zod';
import { PAID_PLAN_IDS, PAYMENT_MESSAGES, PAYMENT_MODES } from './payment-rules.js';
import { PLAN_IDS } from './plans.js';

/**
 * Payments and billing (SPEC §3, §7 "Payments"; issue 7). Two providers answer these calls the
 * same way: Stripe when it is configured, and a local test mode (the default) that behaves like
 * Stripe's test mode. Times are unix seconds and amounts cents, as Stripe sends them.
 */

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
  /**
   * Custom domains attached to the account's sites, against the plan's number: `used` counts them
   * all, since each takes a slot whether or not it serves yet; `waiting` those whose DNS records
   * are not (or not correctly) set up yet.
   */
  customDomains: z.object({
    used: z.number().int(),
    waiting: z.number().int(),
    limit: z.number().int(),
  }),
  /** Page views of the account's sites in the period (people only: no bots, no owner previews). */
  pageViews: z.number().int(),
  /** Unique visitors of the account's sites: the sum over days of each day's distinct people. */
  visitors: z.number().int(),
  /** Body bytes the sites host sent for the account's sites in the period. */
  bandwidthBytes: z.number().int(),
  /** Visits to the account's parked domains' pages in the period (same rules as sites). */
  parked: z.object({ visitors: z.number().int(), pageViews: z.number().int() }),
  /** Bytes all versions of the account's sites hold (shared bodies once), and the plan's limit. */
  storage: z.object({ usedBytes: z.number().int(), limitBytes: z.number().int() }),
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

/**
 * GET /payments/downgrade-preview: what a plan would leave read-only, stop or detach, from the
 * account's data now. `plan` defaults to the current plan (what is over its limits today, the
 * dashboard's notice); `at: 'period_end'` is a cancellation at the end of the paid period.
 */
export const DowngradePreviewQuery = z.object({
  plan: z.enum(PLAN_IDS).optional(),
  at: z.enum(['now', 'period_end']).default('now'),
});

const SiteRef = z.object({
  id: z.string(),
  sourceUrl: z.string(),
  /** The live home page's title (the site's name); null names it by its host. */
  title: z.string().nullable().optional(),
});

export const DowngradePreview = z.object({
  plan: z.enum(PLAN_IDS),
  /** When that plan applies (ISO): now, or the end of the paid period. */
  effectiveAt: z.string(),
  sites: z.object({
    count: z.number().int(),
    limit: z.number().int().nullable(),
    /** Sites beyond the limit (all but the most recently created): served, but not changed. */
    readOnly: z.array(SiteRef),
  }),
  /** Sites whose scheduled sync stops (the plan has none, or the site becomes read-only). */
  syncsStopping: z.array(SiteRef.extend({ schedule: z.enum(['hourly', 'daily', 'weekly']) })),
  customDomains: z.object({
    count: z.number().int(),
    limit: z.number().int(),
    /** Custom domains beyond the limit: they keep serving until `detachAt` (ISO), then go. */
    detaching: z.array(z.object({ id: z.string(), domain: z.string(), detachAt: z.string() })),
  }),
  /** Whether the plan allows choosing subdomains (without: they keep working, or go back to random). */
  customSubdomain: z.boolean(),
  /** Sites of the account on a subdomain their owner chose (not a random one). */
  chosenSubdomains: z.number().int(),
  graceDays: z.number().int(),
});
export type DowngradePreview = z.infer<typeof DowngradePreview>;
