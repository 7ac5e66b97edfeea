import type { CloneRecord, CloneStatusResponse, DomainCheckResponse } from '@mirror/contract';
import { api } from '../../lib/api-client';

/** The signed-in user's newest site (not a claimed demo first), or null without one. */
export async function getNewestSite(signal?: AbortSignal): Promise<CloneRecord | null> {
  const sites = await api.get<CloneRecord[]>('/domains/clones', {
    defaultMessage: 'Failed to fetch domains',
    signal,
  });
  const newestFirst = [...sites].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  return newestFirst.find((site) => !site.isDemo) ?? newestFirst[0] ?? null;
}

/** `GET /domains/check/{domain}` (SPEC §7): a domain of this account, checked in DNS now. */
export function checkDomain(domain: string): Promise<DomainCheckResponse> {
  return api.get<DomainCheckResponse>(`/domains/check/${encodeURIComponent(domain)}`, {
    defaultMessage: 'Domain availability check failed',
  });
}

/** Moves the site to another subdomain (`PUT /domains/clone/{id}` with `targetDomain`). */
export function changeSubdomain(siteId: string, subdomain: string): Promise<CloneRecord> {
  return api.put<CloneRecord>(
    `/domains/clone/${encodeURIComponent(siteId)}`,
    { targetDomain: subdomain },
    { defaultMessage: 'Domain update failed' },
  );
}

/** AI instructions applied to the live version as a new version (`PUT /domains/clone/{id}/customize`). */
export function applyInstructions(siteId: string, instructions: string) {
  return api.put<CloneStatusResponse>(
    `/domains/clone/${encodeURIComponent(siteId)}/customize`,
    { customizations: { instructions }, regenerate: true },
    { defaultMessage: 'Customization update failed' },
  );
}

/** The product's sites host, read from a site's address: `calm-river.mirror.site` → `mirror.site`. */
export function sitesHostOf(previewUrl: string | null): string | null {
  if (!previewUrl) return null;
  try {
    const labels = new URL(previewUrl).hostname.split('.');
    return labels.length > 1 ? labels.slice(1).join('.') : null;
  } catch {
    return null;
  }
}

export interface DnsCheck {
  state: 'active' | 'pending';
  /** The server's words on what is missing or wrong, when it says. */
  reason: string | null;
}

/** `status: 'active'` means the records are in place; `pending` and `misconfigured` say why not. */
export function readDnsCheck(answer: Pick<DomainCheckResponse, 'status' | 'reason'>): DnsCheck {
  return {
    state: answer.status === 'active' ? 'active' : 'pending',
    reason: answer.reason || null,
  };
}
