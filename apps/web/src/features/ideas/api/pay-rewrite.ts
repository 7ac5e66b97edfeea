import { CUSTOMIZE_MESSAGES, PAYMENT_MESSAGES } from '@mirror/contract';
import { ApiError } from '../../../lib/api-client';
import { payForRewrite } from '../../../api/payments';

/**
 * Pays the one-off rewrite of a site (`POST /payments/ai-rewrite`) and tells the checkout what is
 * left: a client secret when the bank asks the card holder to confirm (3-D Secure), nothing when
 * the payment went through. A rewrite paid before counts as paid.
 */
export async function payRewrite(
  cloneId: string,
  paymentMethodId: string,
): Promise<{ clientSecret: string | null }> {
  try {
    const intent = await payForRewrite(cloneId, paymentMethodId);
    if (intent.status === 'succeeded' || intent.status === 'processing') {
      return { clientSecret: null };
    }
    if (intent.status === 'requires_action' || intent.status === 'requires_confirmation') {
      return { clientSecret: intent.clientSecret };
    }
    throw new ApiError(402, PAYMENT_MESSAGES.paymentFailed);
  } catch (error) {
    // 409: this site's rewrite is already paid for; go on to the rewrite. A server without an AI
    // model answers 409 too, with its own message: nothing was paid and there is no rewrite.
    if (
      error instanceof ApiError &&
      error.status === 409 &&
      error.message !== CUSTOMIZE_MESSAGES.rewriteUnavailable
    ) {
      return { clientSecret: null };
    }
    throw error;
  }
}
