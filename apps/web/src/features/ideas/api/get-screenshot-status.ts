import type { ScreenshotStatusResponse } from '@mirror/contract';
import { api } from '../../../lib/api-client';

/**
 * `GET /domains/screenshot?url=`: whether the server's background capture of a reference is there
 * yet. Reads the cache only, so a card may ask every few seconds.
 */
export function getScreenshotStatus(
  url: string,
  signal?: AbortSignal,
): Promise<ScreenshotStatusResponse> {
  return api.get<ScreenshotStatusResponse>(
    `/domains/screenshot?url=${encodeURIComponent(url)}`,
    signal ? { signal } : undefined,
  );
}
