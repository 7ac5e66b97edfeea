import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { DomainCheckResponse } from '@mirror/contract';
import { queryKeys } from '../../../api/query-keys';
import { getErrorMessage } from '../../../lib/api-client';
import { getDomain, type DomainRecord } from '../api/domain-api';
import { applyCheck } from '../../../lib/apply-check';

/** While a domain is not active, the page re-reads it this often: the server's checks activate it. */
export const DOMAIN_REFRESH_MS = 20_000;

export type DomainLoad =
  | { state: 'loading' }
  | { state: 'not-found' }
  | { state: 'error'; message: string }
  | { state: 'ready' };

/**
 * One custom or parked domain of the signed-in user, kept fresh while it waits for DNS: re-read
 * every {@link DOMAIN_REFRESH_MS} while the tab is visible. A refresh that fails keeps the record.
 */
export function useDomain(id: string) {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: queryKeys.domains.detail(id),
    queryFn: ({ signal }) => getDomain(id, signal),
    refetchInterval: ({ state }) =>
      state.data && state.data.status !== 'active' ? DOMAIN_REFRESH_MS : false,
  });
  const record = query.data ?? null;

  const load: DomainLoad = record
    ? { state: 'ready' }
    : query.isSuccess
      ? { state: 'not-found' }
      : query.isError
        ? { state: 'error', message: getErrorMessage(query.error, 'Failed to fetch domains') }
        : { state: 'loading' };

  const setRecord = useCallback(
    (next: DomainRecord) => queryClient.setQueryData(queryKeys.domains.detail(id), next),
    [queryClient, id],
  );

  const retry = useCallback(
    () => void queryClient.resetQueries({ queryKey: queryKeys.domains.detail(id), exact: true }),
    [queryClient, id],
  );

  const applyAnswer = useCallback(
    (answer: DomainCheckResponse) =>
      queryClient.setQueryData<DomainRecord | null>(queryKeys.domains.detail(id), (current) =>
        current && current.id === answer.id ? applyCheck(current, answer) : current,
      ),
    [queryClient, id],
  );

  return { load, record, setRecord, retry, applyCheck: applyAnswer };
}
