import {
  DOMAIN_MESSAGES,
  type CloneRecord,
  type CloneRequestBody,
  type CloneStatusResponse,
  type Customizations,
  type SyncSchedule,
} from '@mirror/contract';
import { api } from '../lib/api-client';
import type { SiteVersionDetail } from '../lib/site-versions';

// The site calls of docs/sites-api.md used by more than one feature (or by shared components),
// each wrapped once. Calls only the site page makes stay in features/sites/api.

const site = (id: string) => `/domains/clone/${encodeURIComponent(id)}`;

/** `POST /domains/clone`: guests get a demo (`isDemo: true`), the answer carries the new id. */
export function createClone(body: CloneRequestBody): Promise<CloneRecord> {
  return api.post<CloneRecord>('/domains/clone', body, {
    defaultMessage: 'Website cloning failed',
  });
}

/** `GET /domains/clones`: the signed-in user's sites, claimed demos included. */
export function getSites(signal?: AbortSignal): Promise<CloneRecord[]> {
  return api.get<CloneRecord[]>('/domains/clones', {
    defaultMessage: DOMAIN_MESSAGES.fetchFailed,
    signal,
  });
}

/**
 * `PUT /domains/clone/{id}`: the sync schedule, or a new subdomain (`targetDomain`; blank: a new
 * random one). Mirrors the contract's UpdateSiteBody, which sends at least one of the two.
 */
export interface UpdateSiteChanges {
  syncSchedule?: SyncSchedule;
  targetDomain?: string;
}

export function updateSite(id: string, changes: UpdateSiteChanges): Promise<CloneRecord> {
  return api.put<CloneRecord>(site(id), changes, {
    defaultMessage: DOMAIN_MESSAGES.updateFailed,
  });
}

/** `DELETE /domains/clone/{id}`: the site, its versions and its address. */
export function deleteSite(id: string): Promise<{ success: boolean; message: string }> {
  return api.delete(site(id), { defaultMessage: DOMAIN_MESSAGES.deleteFailed });
}

/**
 * `POST /domains/clone/{id}/remirror`: a new run of the same source; the live version stays
 * online until it completes.
 */
export function remirrorSite(id: string): Promise<CloneRecord> {
  return api.post<CloneRecord>(`${site(id)}/remirror`, undefined, {
    defaultMessage: 'Website cloning failed',
  });
}

/**
 * `PUT /domains/clone/{id}/customize`: applies a customization plan (or AI instructions) to the
 * live version as a new version, made by a job whose progress the status call reports; the result
 * is a draft to review, published only when the owner says so.
 */
export function customizeSite(id: string, customizations: Customizations) {
  return api.put<CloneStatusResponse>(
    `${site(id)}/customize`,
    { customizations, regenerate: true },
    { defaultMessage: 'Customization update failed' },
  );
}

/** `GET /domains/clone/{id}/status` (SPEC §7); demos answer anyone who has the id. */
export function fetchCloneStatus(id: string, signal?: AbortSignal): Promise<CloneStatusResponse> {
  return api.get<CloneStatusResponse>(`${site(id)}/status`, {
    defaultMessage: 'Failed to get clone status',
    signal,
  });
}

// The version calls, shared by the site page and the idea flow's draft review.

const versionsPath = (id: string) => `${site(id)}/versions`;

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
