import type {
  AnalyticsPeriod,
  AnalyticsResponse,
  CloneRecord,
  FidelityCheckBody,
  FidelityReportResponse,
  Understanding,
} from '@mirror/contract';
import { api } from '../../../lib/api-client';

// The site management calls of docs/sites-api.md that only the site page makes, all owner-only.
// The calls other features share (update, delete, remirror, customize, status, versions) are in
// src/api/sites.ts.

const site = (id: string) => `/domains/clone/${encodeURIComponent(id)}`;

export function getSite(id: string, signal?: AbortSignal): Promise<CloneRecord> {
  return api.get<CloneRecord>(site(id), { defaultMessage: 'Failed to get clone status', signal });
}

/** What instructions would change ("I will: …"), before anything is applied. */
export function understandInstructions(id: string, instructions: string) {
  return api.post<Understanding>(
    `${site(id)}/customize/understand`,
    { instructions },
    { defaultMessage: 'Could not read the instructions' },
  );
}

/** The static export of the live version, fetched with the session. */
export function downloadExport(id: string): Promise<Blob> {
  return api.getBlob(`${site(id)}/export.zip`, { defaultMessage: 'Download failed' });
}

/** A version as a web archive (docs/archives.md): `warc` is a `.warc.gz`, `wacz` a `.wacz`. */
export function downloadVersionArchive(
  id: string,
  versionId: string,
  format: 'warc' | 'wacz',
): Promise<Blob> {
  const extension = format === 'wacz' ? 'wacz' : 'warc.gz';
  return api.getBlob(`${site(id)}/versions/${encodeURIComponent(versionId)}/export.${extension}`, {
    defaultMessage: 'Download failed',
  });
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

/**
 * The live version's fidelity report (issue 21): how the copy compares with the original, page by
 * page, at desktop and mobile widths. A 404 means the live version has not been checked yet.
 */
export function getFidelity(id: string, signal?: AbortSignal): Promise<FidelityReportResponse> {
  return api.get<FidelityReportResponse>(`${site(id)}/fidelity`, {
    defaultMessage: 'Failed to fetch the fidelity report',
    signal,
  });
}

/**
 * Checks the live version again (answered with the queued report, 202): the whole sample, or only
 * `paths`, which are captured again from the original first. A 429 says to wait.
 */
export function checkFidelity(id: string, paths?: string[]): Promise<FidelityReportResponse> {
  const body: FidelityCheckBody = paths && paths.length > 0 ? { paths } : {};
  return api.post<FidelityReportResponse>(`${site(id)}/fidelity`, body, {
    defaultMessage: 'Failed to check fidelity',
  });
}
