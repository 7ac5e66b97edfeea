import { useQuery } from '@tanstack/react-query';
import { AI_REWRITE_PRICE_CENTS, DEFAULT_CURRENCY } from '@mirror/contract';
import { queryKeys } from '../../../api/query-keys';
import { getRewritePricing, type RewritePricing } from '../api/get-rewrite-pricing';

/** What is shown until the answer arrives, or when the call fails. */
const DEFAULT_PRICING: RewritePricing = {
  amount: AI_REWRITE_PRICE_CENTS,
  currency: DEFAULT_CURRENCY,
  available: true,
};

/**
 * The price of an AI rewrite for users without a paid plan, and whether the server can rewrite at
 * all (`available`: an AI model is connected), asked once when `needed`. Until the answer arrives
 * (or when the call fails) the product's configured default is shown and rewrites are offered; the
 * server refuses them with a plain message if they are not available after all.
 */
export function useRewritePricing(needed: boolean): RewritePricing {
  const { data } = useQuery({
    queryKey: queryKeys.ideas.rewritePricing(),
    queryFn: ({ signal }) => getRewritePricing(signal),
    enabled: needed,
    staleTime: Infinity,
  });
  return data ?? DEFAULT_PRICING;
}
