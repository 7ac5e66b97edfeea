import type { CloneRecord } from '@mirror/contract';
import { api } from '../../../lib/api-client';

/** A custom or parked domain (SPEC §3 domain record); the list is empty until domains exist. */
export interface DomainRecord {
  id: string;
  status: 'active' | 'pending' | (string & {});
}

export interface DomainsOverview {
  sites: CloneRecord[];
  domains: DomainRecord[];
}

/** `GET /domains`: the signed-in user's sites and domains, loaded when the dashboard opens. */
export function getDomains(signal?: AbortSignal): Promise<DomainsOverview> {
  return api.get<DomainsOverview>('/domains', {
    defaultMessage: 'Failed to fetch domains',
    signal,
  });
}
