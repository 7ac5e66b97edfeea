import type { MessageResponse, ResetPasswordConfirmBody } from '@mirror/contract';
import { api } from '../../../lib/api-client';

/** Sets a new password with the token from the reset mail; every session is signed out. */
export function confirmPasswordReset(body: ResetPasswordConfirmBody): Promise<MessageResponse> {
  return api.post<MessageResponse>('/auth/reset-password/confirm', body, {
    defaultMessage: 'Password reset failed',
  });
}
