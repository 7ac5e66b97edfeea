import { useQuery, useQueryClient } from '@tanstack/react-query';
import { PAYMENT_MESSAGES, type BillingView } from '@mirror/contract';
import { getBillingView } from '../../../api/payments';
import { queryKeys } from '../../../api/query-keys';
import { getErrorMessage } from '../../../lib/api-client';

export type BillingViewLoad =
  | { state: 'loading' }
  | { state: 'error'; message: string }
  | { state: 'ready'; view: BillingView };

/**
 * The billing view (plan, subscription, which provider answers). A refresh after an action keeps
 * the view on screen, even when it fails; only a first load shows the error. `retry` starts over.
 */
export function useBillingView(): { load: BillingViewLoad; retry: () => void } {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: queryKeys.billing.view(),
    queryFn: ({ signal }) => getBillingView(signal),
  });

  const load: BillingViewLoad = query.data
    ? { state: 'ready', view: query.data }
    : query.isError
      ? {
          state: 'error',
          message: getErrorMessage(query.error, PAYMENT_MESSAGES.loadBillingFailed),
        }
      : { state: 'loading' };

  const retry = () => void queryClient.resetQueries({ queryKey: queryKeys.billing.view() });

  return { load, retry };
}
