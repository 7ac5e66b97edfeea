import type { CloneRecord, DomainListItem } from '@mirror/contract';
import { api } from '../../../lib/api-client';

/** What the dashboard reads of `GET /domains`: the sites and the combined domain list. */
export interface DomainsOverview {
  sites: CloneRecord[];
  /** Custom and parked domains, each with its kind and status (SPEC §3 domain record). */
  domains: DomainListItem[];
}

/** `GET /domains`: the signed-in user's sites and domains, loaded when the dashboard opens. */
export function getDomains(signal?: AbortSignal): Promise<DomainsOverview> {
  return api.get<DomainsOverview>('/domains', {
    defaultMessage: 'Failed to fetch domains',
    signal,
  });
}
