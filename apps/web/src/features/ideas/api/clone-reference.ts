import type { CloneRecord } from '@mirror/contract';
import { api } from '../../../lib/api-client';

/** Mirrors a chosen reference into the user's account (`POST /domains/clone`). */
export function cloneReference(sourceUrl: string): Promise<CloneRecord> {
  return api.post<CloneRecord>(
    '/domains/clone',
    { sourceUrl, isDemo: false },
    { defaultMessage: 'Website cloning failed' },
  );
}
