import { api } from '../../../lib/api-client';

export function resetPassword(email: string): Promise<unknown> {
  return api.post('/auth/reset-password', { email }, { defaultMessage: 'Password reset failed' });
}
