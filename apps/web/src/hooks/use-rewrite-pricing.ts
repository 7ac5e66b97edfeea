import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import {
  AI_REWRITE_PRICE_CENTS,
  DEFAULT_CURRENCY,
  type AiRewritePricingResponse,
} from '@mirror/contract';
import { getRewritePricing } from '../api/domains';
import { queryKeys } from '../api/query-keys';

export type RewritePricing = AiRewritePricingResponse & {
  /** The server has answered: `available` is what it said, not the default. */
  known: boolean;
};

/**
 * The price of an AI rewrite for users without a paid plan, and whether the server can rewrite at
 * all (`available`: an AI model is connected), asked once when `needed`. Until the answer arrives
 * (or when the call fails) `known` is false and the product's default is given: the price, and
 * rewrites as offered (the idea flow; the server refuses them with a plain message if they are not
 * available after all). Whatever is sold for rewrites (plans, pricing) waits for `known`.
 */
export function useRewritePricing(needed: boolean): RewritePricing {
  // The landing page's pricing asks this: the query client's cache is used without a query
  // observer (`useQuery`), which would add 6 KB to the landing page's initial JavaScript.
  const client = useQueryClient();
  const queryKey = queryKeys.ideas.rewritePricing();
  const [data, setData] = useState(() => client.getQueryData<AiRewritePricingResponse>(queryKey));
  useEffect(() => {
    if (!needed || data) return;
    let mounted = true;
    client
      .ensureQueryData({
        queryKey,
        queryFn: ({ signal }) => getRewritePricing(signal),
        staleTime: Infinity,
      })
      .then(
        (answer) => mounted && setData(answer),
        // Unanswered: the default stays (see above).
        () => undefined,
      );
    return () => {
      mounted = false;
    };
    // The key is a constant: one request per mount at most.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [client, needed, data]);
  return data
    ? { ...data, known: true }
    : { amount: AI_REWRITE_PRICE_CENTS, currency: DEFAULT_CURRENCY, available: true, known: false };
}
