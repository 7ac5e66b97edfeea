import type { MessageResponse } from '@mirror/contract';
import { api } from '../../../lib/api-client';

/** Deletes the account and everything it owns; the session ends with it. */
export function deleteAccount(): Promise<MessageResponse> {
  return api.delete<MessageResponse>('/auth/me', { defaultMessage: 'Failed to delete account.' });
}
