import type {
  AnalyticsPeriod,
  AnalyticsResponse,
  CloneRecord,
  SiteVersion,
  SyncSchedule,
} from '@mirror/contract';
import { api } from '../../../lib/api-client';

// The site management calls of docs/sites-api.md, all owner-only.

const site = (id: string) => `/domains/clone/${encodeURIComponent(id)}`;

export function getSite(id: string, signal?: AbortSignal): Promise<CloneRecord> {
  return api.get<CloneRecord>(site(id), { defaultMessage: 'Failed to get clone status', signal });
}

export function updateSyncSchedule(id: string, syncSchedule: SyncSchedule): Promise<CloneRecord> {
  return api.put<CloneRecord>(
    site(id),
    { syncSchedule },
    { defaultMessage: 'Customization update failed' },
  );
}

export function deleteSite(id: string): Promise<{ success: boolean; message: string }> {
  return api.delete(site(id), { defaultMessage: 'Failed to delete domain' });
}

/** Starts a new run of the same source; the live version stays online until it completes. */
export function remirrorSite(id: string): Promise<CloneRecord> {
  return api.post<CloneRecord>(`${site(id)}/remirror`, undefined, {
    defaultMessage: 'Website cloning failed',
  });
}

/** Newest first. */
export function getVersions(id: string, signal?: AbortSignal): Promise<SiteVersion[]> {
  return api.get<SiteVersion[]>(`${site(id)}/versions`, {
    defaultMessage: 'Failed to fetch domains',
    signal,
  });
}

/** Makes a completed version the live one (rollback). */
export function publishVersion(id: string, versionId: string): Promise<CloneRecord> {
  return api.post<CloneRecord>(
    `${site(id)}/versions/${encodeURIComponent(versionId)}/publish`,
    undefined,
    { defaultMessage: 'Deployment failed' },
  );
}

/** The static export of the live version, fetched with the session. */
export function downloadExport(id: string): Promise<Blob> {
  return api.getBlob(`${site(id)}/export.zip`, { defaultMessage: 'Download failed' });
}

export function getAnalytics(
  id: string,
  period: AnalyticsPeriod,
  signal?: AbortSignal,
): Promise<AnalyticsResponse> {
  return api.get<AnalyticsResponse>(
    `/domains/${encodeURIComponent(id)}/analytics?period=${period}`,
    { defaultMessage: 'Failed to fetch analytics', signal },
  );
}
