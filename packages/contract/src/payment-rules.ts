/**
 * Payment constants and texts (issue 7), zod-free like `site-rules.ts`: the web app imports them
 * without pulling the schemas of `payments.ts` (and zod) into its bundles.
 */

export const PAID_PLAN_IDS = ['pro', 'agency'] as const;
export type PaidPlanId = (typeof PAID_PLAN_IDS)[number];

/**
 * Which provider answers: `test` is the local test mode, labelled as such in the UI; `off` is a
 * server with no payment provider (production without Stripe keys): plans cannot be bought.
 */
export const PAYMENT_MODES = ['test', 'stripe', 'off'] as const;
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
  /** A rewrite payment asked for while another one for the same site is under way: not charged. */
  paymentInProgress:
    'A payment for this rewrite is already being processed. Please wait a moment and check again.',
  rewriteNotNeeded: 'AI rewrite is included in your plan.',
  testModeOnly: 'Test cards are only accepted in test mode.',
  notConfigured: 'Payments are not configured',
  invalidSignature: 'Invalid webhook signature.',
  overLimitAfterDowngrade:
    'Your plan allows fewer sites than you have. Existing sites keep working; delete some or upgrade to mirror more.',
} as const;
