import type { MessageResponse, ResetPasswordBody } from '@mirror/contract';
import { api } from '../../../lib/api-client';

/** Emails a reset link; the answer is the same whether or not the account exists. */
export function resetPassword(body: ResetPasswordBody): Promise<MessageResponse> {
  return api.post<MessageResponse>('/auth/reset-password', body, {
    defaultMessage: 'Password reset failed',
  });
}
