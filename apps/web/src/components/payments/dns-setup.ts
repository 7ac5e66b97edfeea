import type { CloneRecord } from '@mirror/contract';

// Helpers of the DNS setup dialog; its calls are the shared ones of src/api.

/** The user's newest site (not a claimed demo first), or null without one. */
export function newestSite(sites: readonly CloneRecord[]): CloneRecord | null {
  const newestFirst = [...sites].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  return newestFirst.find((site) => !site.isDemo) ?? newestFirst[0] ?? null;
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
