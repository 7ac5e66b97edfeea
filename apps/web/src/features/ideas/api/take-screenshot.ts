import type { ScreenshotResponse } from '@mirror/contract';
import { api } from '../../../lib/api-client';

/**
 * `POST /domains/screenshot` (SPEC §7): a thumbnail of `url`, stored under /api/screenshots. A
 * capture that fails is an error answer with its message.
 */
export function takeScreenshot(url: string): Promise<ScreenshotResponse> {
  return api.post<ScreenshotResponse>(
    '/domains/screenshot',
    { url },
    { defaultMessage: 'Failed to generate screenshot' },
  );
}
