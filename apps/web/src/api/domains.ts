import {
  DOMAIN_MESSAGES,
  type AiRewritePricingResponse,
  type CustomDomain,
  type DeployBody,
  type DomainCheckResponse,
  type DomainKind,
  type DomainsOverview,
} from '@mirror/contract';
import { api } from '../lib/api-client';

// The domain calls of SPEC §7 used by more than one feature (or by shared components), each
// wrapped once. Calls only the domain pages make stay in features/domains/api. Only types come
// from the contract's schemas, so zod stays out of the web bundle.

/** `GET /domains`: sites, custom and parked domains, with each domain's DNS state. */
export function getDomainsOverview(signal?: AbortSignal): Promise<DomainsOverview> {
  return api.get<DomainsOverview>('/domains', {
    defaultMessage: DOMAIN_MESSAGES.fetchFailed,
    signal,
  });
}

/** `POST /domains/deploy`: attaches a domain to a site; the answer lists the records to create. */
export function deployDomain(body: DeployBody): Promise<CustomDomain> {
  return api.post<CustomDomain>('/domains/deploy', body, {
    defaultMessage: DOMAIN_MESSAGES.deployFailed,
  });
}

/** `GET /domains/check/{domain}`: a domain of this account, asked in DNS now; the state per record. */
export function checkDomain(domain: string): Promise<DomainCheckResponse> {
  return api.get<DomainCheckResponse>(`/domains/check/${encodeURIComponent(domain)}`, {
    defaultMessage: DOMAIN_MESSAGES.checkFailed,
  });
}

/** The `DELETE /domains/{kind}/{id}` kind of a domain record. */
const DELETE_KINDS: Record<DomainKind, string> = { custom: 'domain', parked: 'parked' };

/** `DELETE /domains/{kind}/{id}`: removes a custom or parked domain. */
export function deleteDomain(
  kind: DomainKind,
  id: string,
): Promise<{ success: boolean; message: string }> {
  return api.delete(`/domains/${DELETE_KINDS[kind]}/${encodeURIComponent(id)}`, {
    defaultMessage: DOMAIN_MESSAGES.deleteFailed,
  });
}

/**
 * `GET /domains/ai-rewrite-pricing` (open to everyone): what a rewrite costs users without a paid
 * plan, in cents, and whether this server can rewrite at all (`available`: an AI model is set up).
 */
export function getRewritePricing(signal?: AbortSignal): Promise<AiRewritePricingResponse> {
  return api.get<AiRewritePricingResponse>('/domains/ai-rewrite-pricing', {
    defaultMessage: 'Failed to get pricing',
    signal,
  });
}
