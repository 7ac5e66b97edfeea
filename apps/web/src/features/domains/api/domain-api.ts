import {
  DOMAIN_MESSAGES,
  type CustomDomain,
  type ParkDomainBody,
  type ParkedDomain,
  type ParkedMessage,
  type ParkingTemplate,
  type UpdateCustomDomainBody,
  type UpdateParkedDomainBody,
} from '@mirror/contract';
import { getDomainsOverview } from '../../../api/domains';
import { api } from '../../../lib/api-client';

// The domain calls of SPEC §7 (issue 8) that only the domain pages make, all for the signed-in
// owner; the calls other features share are in src/api/domains.ts. Only types come from the
// contract's schemas, so zod stays out of the web bundle.

export type DomainRecord = CustomDomain | ParkedDomain;

/** One of the user's domains by id (custom or parked), or null when it is not theirs. */
export async function getDomain(id: string, signal?: AbortSignal): Promise<DomainRecord | null> {
  const overview = await getDomainsOverview(signal);
  return (
    overview.customDomains.find((domain) => domain.id === id) ??
    overview.parkedDomains.find((domain) => domain.id === id) ??
    null
  );
}

export function parkDomain(body: ParkDomainBody): Promise<ParkedDomain> {
  return api.post<ParkedDomain>('/domains/park', body, {
    defaultMessage: DOMAIN_MESSAGES.parkFailed,
  });
}

export function updateParkedDomain(
  id: string,
  body: UpdateParkedDomainBody,
): Promise<ParkedDomain> {
  return api.put<ParkedDomain>(`/domains/park/${encodeURIComponent(id)}`, body, {
    defaultMessage: DOMAIN_MESSAGES.updateFailed,
  });
}

export function updateCustomDomain(
  id: string,
  body: UpdateCustomDomainBody,
): Promise<CustomDomain> {
  return api.put<CustomDomain>(`/domains/domain/${encodeURIComponent(id)}`, body, {
    defaultMessage: DOMAIN_MESSAGES.updateFailed,
  });
}

/** Contact messages and offers sent from a parked page, newest first. */
export function getParkedMessages(id: string, signal?: AbortSignal): Promise<ParkedMessage[]> {
  return api.get<ParkedMessage[]>(`/domains/parked/${encodeURIComponent(id)}/messages`, {
    defaultMessage: DOMAIN_MESSAGES.fetchFailed,
    signal,
  });
}

/**
 * `GET /domains/parked/{id}/preview`: the parking page with a template, as HTML for a sandboxed
 * frame (the call needs the session, so the page is fetched here rather than framed by address).
 */
export async function getParkingPreview(
  id: string,
  template: ParkingTemplate,
  signal?: AbortSignal,
): Promise<string> {
  const page = await api.getBlob(
    `/domains/parked/${encodeURIComponent(id)}/preview?template=${encodeURIComponent(template)}`,
    { defaultMessage: DOMAIN_MESSAGES.fetchFailed, signal },
  );
  return page.text();
}
