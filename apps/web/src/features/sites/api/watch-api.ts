import type {
  CloneStatusResponse,
  PageSource,
  VersionChanges,
  Watch,
  WatchInput,
  WatchList,
  WebhookDeliveryList,
} from '@mirror/contract';
import { api } from '../../../lib/api-client';

// Watches and change reports (issue 33): calls only the site page and its report screen make, all
// owner-only.

const site = (id: string) => `/domains/clone/${encodeURIComponent(id)}`;
const watch = (id: string, watchId: string) => `${site(id)}/watches/${encodeURIComponent(watchId)}`;

/** The site's watches, how many the plan allows across all sites and how many are used, the feed. */
export function getWatches(id: string, signal?: AbortSignal): Promise<WatchList> {
  return api.get<WatchList>(`${site(id)}/watches`, {
    defaultMessage: 'Failed to fetch the watches',
    signal,
  });
}

/** A 403 carries the plan's limit sentence. */
export function createWatch(id: string, input: WatchInput): Promise<Watch> {
  return api.post<Watch>(`${site(id)}/watches`, input, {
    defaultMessage: 'Failed to save the watch',
  });
}

export function updateWatch(id: string, watchId: string, input: WatchInput): Promise<Watch> {
  return api.put<Watch>(watch(id, watchId), input, {
    defaultMessage: 'Failed to save the watch',
  });
}

export function deleteWatch(id: string, watchId: string): Promise<unknown> {
  return api.delete(watch(id, watchId), { defaultMessage: 'Failed to delete the watch' });
}

/** A page of the live copy as hosted, for the part picker; a 404 says the copy has no such page. */
export function getPageSource(id: string, path: string, signal?: AbortSignal): Promise<PageSource> {
  return api.get<PageSource>(`${site(id)}/page-source?path=${encodeURIComponent(path)}`, {
    defaultMessage: 'Failed to load the page',
    signal,
  });
}

/** The newest first. */
export function getWebhookDeliveries(
  id: string,
  signal?: AbortSignal,
): Promise<WebhookDeliveryList> {
  return api.get<WebhookDeliveryList>(`${site(id)}/webhook-deliveries`, {
    defaultMessage: 'Failed to fetch the webhook deliveries',
    signal,
  });
}

/** A version's change report; a 404 means the version has none. */
export function getVersionChanges(
  id: string,
  versionId: string,
  signal?: AbortSignal,
): Promise<VersionChanges> {
  return api.get<VersionChanges>(`${site(id)}/versions/${encodeURIComponent(versionId)}/changes`, {
    defaultMessage: 'Failed to fetch the change report',
    signal,
  });
}

/**
 * A draft of the site with `path` as the version the report compared with had it (issue 33); the
 * answer is the site's status, its run making the draft.
 */
export function restorePage(
  id: string,
  versionId: string,
  path: string,
): Promise<CloneStatusResponse> {
  return api.post<CloneStatusResponse>(
    `${site(id)}/versions/${encodeURIComponent(versionId)}/changes/restore`,
    { path },
    { defaultMessage: 'Failed to restore the page' },
  );
}
