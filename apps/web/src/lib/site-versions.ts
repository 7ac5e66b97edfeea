import type { CloneRecord, CloneStatusResponse, SiteVersion } from '@mirror/contract';
import { api } from './api-client';

// Version calls shared by the site page and the idea flow's draft review (docs/sites-api.md).

/**
 * A version with the plan that made it (`kind`, `draft`, `changes`, `unparsed`, `instructions`)
 * and, when it is completed but not live, the address where it can be looked at (`previewUrl`).
 */
export type SiteVersionDetail = SiteVersion;

const versionsPath = (id: string) => `/domains/clone/${encodeURIComponent(id)}/versions`;

/** Newest first. */
export function getVersions(id: string, signal?: AbortSignal): Promise<SiteVersionDetail[]> {
  return api.get<SiteVersionDetail[]>(versionsPath(id), {
    defaultMessage: 'Failed to fetch domains',
    signal,
  });
}

/** Makes a completed version the live one: rollback, or the approval of a draft. */
export function publishVersion(id: string, versionId: string): Promise<CloneRecord> {
  return api.post<CloneRecord>(
    `${versionsPath(id)}/${encodeURIComponent(versionId)}/publish`,
    undefined,
    { defaultMessage: 'Deployment failed' },
  );
}

/** Throws a draft away; the live version does not change. */
export function discardVersion(id: string, versionId: string): Promise<unknown> {
  return api.delete(`${versionsPath(id)}/${encodeURIComponent(versionId)}`, {
    defaultMessage: 'Failed to delete domain',
  });
}

/**
 * Undoes one edit of a draft: a new draft without it is made (a run to watch) and replaces this
 * one; undoing the only edit discards the draft.
 */
export function undoEdit(id: string, versionId: string, index: number) {
  return api.post<CloneStatusResponse>(
    `${versionsPath(id)}/${encodeURIComponent(versionId)}/undo`,
    { index },
    { defaultMessage: 'Failed to undo the change' },
  );
}

/** The newest draft of a list (newest first), if any. */
export function findDraft(versions: readonly SiteVersionDetail[]): SiteVersionDetail | undefined {
  return versions.find((version) => version.draft === true);
}
