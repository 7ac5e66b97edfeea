import type { DeleteAccountBody, MessageResponse } from '@mirror/contract';
import { api } from '../../../lib/api-client';

/** Deletes the account and everything it owns, with its password; the session ends with it. */
export function deleteAccount(body: DeleteAccountBody): Promise<MessageResponse> {
  return api.delete<MessageResponse>('/auth/me', {
    body,
    defaultMessage: 'Failed to delete account.',
  });
}
