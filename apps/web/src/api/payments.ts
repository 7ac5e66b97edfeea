import {
  PAYMENT_MESSAGES,
  type BillingView,
  type DowngradePreview,
  type Invoice,
  type PaidPlanId,
  type PaymentIntentResponse,
  type PaymentMethod,
  type PlanId,
  type SubscribeResponse,
  type Usage,
} from '@mirror/contract';
import { api } from '../lib/api-client';

/**
 * The payment calls of SPEC §7 "Payments" (docs/payments.md), shared by the billing screen, the
 * checkout dialog and the idea flow's $2 rewrite. Failures carry the server's message, else the
 * SPEC §8 default of the action.
 */

/**
 * One key per user action that charges a card: the server derives its provider idempotency keys
 * from it, so a request that reaches it twice charges once.
 */
function chargeAttempt(): Record<string, string> {
  // getRandomValues works outside secure contexts too (randomUUID does not).
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return { 'Idempotency-Key': Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('') };
}

export function getBillingView(signal?: AbortSignal): Promise<BillingView> {
  return api.get<BillingView>('/payments/subscription', {
    defaultMessage: PAYMENT_MESSAGES.loadBillingFailed,
    signal,
  });
}

/** `clientSecret` is set when the first payment needs the card holder to confirm it. */
export function subscribe(planId: PaidPlanId, paymentMethodId: string): Promise<SubscribeResponse> {
  return api.post<SubscribeResponse>(
    '/payments/subscribe',
    { planId, paymentMethodId },
    { defaultMessage: PAYMENT_MESSAGES.subscribeFailed, headers: chargeAttempt() },
  );
}

/** Changes the plan with proration; the billing view is fetched again afterwards. */
export function changePlan(planId: PaidPlanId): Promise<unknown> {
  return api.put(
    '/payments/subscription',
    { planId },
    { defaultMessage: PAYMENT_MESSAGES.updateFailed, headers: chargeAttempt() },
  );
}

/** At the end of the period unless `immediately`. */
export function cancelSubscription(immediately = false): Promise<unknown> {
  return api.post(
    '/payments/cancel',
    { immediately },
    {
      defaultMessage: PAYMENT_MESSAGES.cancelFailed,
    },
  );
}

export function reactivateSubscription(): Promise<unknown> {
  return api.post('/payments/reactivate', undefined, {
    defaultMessage: PAYMENT_MESSAGES.reactivateFailed,
  });
}

export function getPaymentMethods(signal?: AbortSignal): Promise<PaymentMethod[]> {
  return api.get<PaymentMethod[]>('/payments/payment-methods', {
    defaultMessage: PAYMENT_MESSAGES.fetchMethodsFailed,
    signal,
  });
}

/** Attaches the payment method when it is new, and makes it the default for invoices. */
export function setDefaultPaymentMethod(paymentMethodId: string): Promise<unknown> {
  return api.put(
    '/payments/default-payment-method',
    { paymentMethodId },
    {
      defaultMessage: PAYMENT_MESSAGES.setDefaultFailed,
    },
  );
}

export function removePaymentMethod(paymentMethodId: string): Promise<unknown> {
  return api.delete(`/payments/payment-methods/${encodeURIComponent(paymentMethodId)}`, {
    defaultMessage: PAYMENT_MESSAGES.removeMethodFailed,
  });
}

export function getInvoices(signal?: AbortSignal): Promise<Invoice[]> {
  return api.get<Invoice[]>('/payments/invoices', {
    defaultMessage: PAYMENT_MESSAGES.fetchInvoicesFailed,
    signal,
  });
}

/** The invoice's PDF, fetched with the session; saved as `invoice-{id}.pdf`. */
export function downloadInvoice(invoiceId: string): Promise<Blob> {
  return api.getBlob(`/payments/invoices/${encodeURIComponent(invoiceId)}/download`, {
    defaultMessage: PAYMENT_MESSAGES.downloadInvoiceFailed,
  });
}

export function getUsage(signal?: AbortSignal): Promise<Usage> {
  return api.get<Usage>('/payments/usage', {
    defaultMessage: PAYMENT_MESSAGES.fetchUsageFailed,
    signal,
  });
}

/**
 * What a plan would leave read-only, stop or detach, from the account's data now (without `plan`:
 * what is over the current plan). `period_end`: a cancellation at the end of the paid period.
 */
export function getDowngradePreview(
  options: { plan?: PlanId; at?: 'now' | 'period_end' } = {},
  signal?: AbortSignal,
): Promise<DowngradePreview> {
  const query = new URLSearchParams();
  if (options.plan) query.set('plan', options.plan);
  if (options.at) query.set('at', options.at);
  const search = query.toString();
  return api.get<DowngradePreview>(`/payments/downgrade-preview${search ? `?${search}` : ''}`, {
    signal,
  });
}

/** The payment provider's billing portal; the browser navigates to the answer's url. */
export function createPortalSession(): Promise<{ url: string }> {
  return api.post<{ url: string }>('/payments/portal-session', undefined, {
    defaultMessage: PAYMENT_MESSAGES.portalFailed,
  });
}

/** Pays the one-off AI rewrite of one site (SPEC §3 AI rewrite payment). */
export function payForRewrite(
  cloneId: string,
  paymentMethodId: string,
): Promise<PaymentIntentResponse> {
  return api.post<PaymentIntentResponse>(
    '/payments/ai-rewrite',
    { cloneId, paymentMethodId },
    { defaultMessage: PAYMENT_MESSAGES.paymentFailed, headers: chargeAttempt() },
  );
}

export interface TestCard {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
}

/**
 * Test mode only: turns a test card into a payment method id, as Stripe.js does in the browser.
 * The answer carries brand and last4; the card itself is never stored.
 */
export function createTestPaymentMethod(
  card: TestCard,
): Promise<{ id: string; brand: string; last4: string }> {
  return api.post('/payments/test/payment-methods', card, {
    defaultMessage: PAYMENT_MESSAGES.addMethodFailed,
  });
}

/** Test mode only: the card holder's answer in the 3-D Secure dialog. */
export function confirmTestPayment(clientSecret: string, approve: boolean): Promise<unknown> {
  return api.post(
    '/payments/test/confirm',
    { clientSecret, approve },
    {
      defaultMessage: PAYMENT_MESSAGES.authenticationFailed,
    },
  );
}
