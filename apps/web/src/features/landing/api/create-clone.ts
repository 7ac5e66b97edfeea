import type { CloneRecord, CloneRequestBody } from '@mirror/contract';
import { api } from '../../../lib/api-client';

/** `POST /domains/clone`: guests get a demo (`isDemo: true`), the answer carries the new id. */
export function createClone(body: CloneRequestBody): Promise<CloneRecord> {
  return api.post<CloneRecord>('/domains/clone', body, {
    defaultMessage: 'Website cloning failed',
  });
}
