import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { CustomDomain, DomainCheckResponse, DomainsOverview } from '@mirror/contract';
import { queryKeys } from '../api/query-keys';
import { applyCheck } from '../lib/apply-check';

/**
 * Writes a change a screen made to custom domains (attached, checked, removed) into the shared
 * domains overview, which the dashboard, the site page and the DNS setup dialog all read.
 */
export function useCustomDomainUpdates() {
  const queryClient = useQueryClient();
  const update = useCallback(
    (change: (all: CustomDomain[]) => CustomDomain[]) =>
      queryClient.setQueryData<DomainsOverview>(queryKeys.domains.overview(), (current) =>
        current ? { ...current, customDomains: change(current.customDomains) } : current,
      ),
    [queryClient],
  );
  const handleChecked = useCallback(
    (answer: DomainCheckResponse) =>
      update((all) =>
        all.map((domain) => (domain.id === answer.id ? applyCheck(domain, answer) : domain)),
      ),
    [update],
  );
  return { update, handleChecked };
}
