import {
  DOMAIN_MESSAGES,
  type CustomDomain,
  type DeployBody,
  type DomainCheckResponse,
  type DomainKind,
  type DomainsOverview,
  type ParkDomainBody,
  type ParkedDomain,
  type ParkedMessage,
  type ParkingTemplate,
  type UpdateCustomDomainBody,
  type UpdateParkedDomainBody,
} from '@mirror/contract';
import { api } from '../../../lib/api-client';

// The domain calls of SPEC §7 (issue 8), all for the signed-in owner. Only types come from the
// contract's schemas, so zod stays out of the web bundle.

export type DomainRecord = CustomDomain | ParkedDomain;

/** `GET /domains`: sites, custom and parked domains, with each domain's DNS state. */
export function getDomainsOverview(signal?: AbortSignal): Promise<DomainsOverview> {
  return api.get<DomainsOverview>('/domains', {
    defaultMessage: DOMAIN_MESSAGES.fetchFailed,
    signal,
  });
}

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

/** `POST /domains/deploy`: attaches a domain to a site; the answer lists the records to create. */
export function deployDomain(body: DeployBody): Promise<CustomDomain> {
  return api.post<CustomDomain>('/domains/deploy', body, {
    defaultMessage: DOMAIN_MESSAGES.deployFailed,
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

/** `GET /domains/check/{domain}`: asks DNS now and answers the state per record. */
export function checkDomain(domain: string): Promise<DomainCheckResponse> {
  return api.get<DomainCheckResponse>(`/domains/check/${encodeURIComponent(domain)}`, {
    defaultMessage: DOMAIN_MESSAGES.checkFailed,
  });
}

/** The `DELETE /domains/{kind}/{id}` kind of a domain record. */
const DELETE_KINDS: Record<DomainKind, string> = { custom: 'domain', parked: 'parked' };

export function deleteDomain(
  kind: DomainKind,
  id: string,
): Promise<{ success: boolean; message: string }> {
  return api.delete(`/domains/${DELETE_KINDS[kind]}/${encodeURIComponent(id)}`, {
    defaultMessage: DOMAIN_MESSAGES.deleteFailed,
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
