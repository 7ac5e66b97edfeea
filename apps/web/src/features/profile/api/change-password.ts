import type { ChangePasswordBody, MessageResponse } from '@mirror/contract';
import { api } from '../../../lib/api-client';

/** Changes the password; the server signs out every other session. */
export function changePassword(body: ChangePasswordBody): Promise<MessageResponse> {
  return api.put<MessageResponse>('/auth/me/password', body, {
    defaultMessage: 'Failed to update profile.',
  });
}
