import { useEffect, useState } from 'react';
import { AI_REWRITE_PRICE_CENTS, DEFAULT_CURRENCY } from '@mirror/contract';
import { getRewritePricing, type RewritePricing } from '../api/get-rewrite-pricing';

/**
 * The price of an AI rewrite for users without a paid plan, and whether the server can rewrite at
 * all (`available`: an AI model is connected), asked once when `needed`. Until the answer arrives
 * (or when the call fails) the product's configured default is shown and rewrites are offered; the
 * server refuses them with a plain message if they are not available after all.
 */
export function useRewritePricing(needed: boolean): RewritePricing {
  const [pricing, setPricing] = useState<RewritePricing>({
    amount: AI_REWRITE_PRICE_CENTS,
    currency: DEFAULT_CURRENCY,
    available: true,
  });

  useEffect(() => {
    if (!needed) return;
    const controller = new AbortController();
    getRewritePricing(controller.signal)
      .then(setPricing)
      .catch((error: unknown) => {
        if (!controller.signal.aborted) console.warn('Failed to get pricing', error);
      });
    return () => controller.abort();
  }, [needed]);

  return pricing;
}
