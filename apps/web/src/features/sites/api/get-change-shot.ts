import { API_BASE_PATH } from '@mirror/contract';
import { api } from '../../../lib/api-client';

/**
 * A screenshot of a change report's visual diff, by the address the report gives
 * (`/api/domains/clone/…/changes/shots/<hash>.png`): owner only, so fetched with the session
 * like every other call, not by an <img> of its own.
 */
export function getChangeShot(url: string, signal?: AbortSignal): Promise<Blob> {
  const path = url.startsWith(`${API_BASE_PATH}/`) ? url.slice(API_BASE_PATH.length) : url;
  return api.getBlob(path, { defaultMessage: 'Failed to load the screenshot', signal });
}
