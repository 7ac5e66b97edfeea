import type { RegisterBody } from '@mirror/contract';
import { api } from '../../../lib/api-client';
import type { AuthAnswer } from '../../../lib/auth-context';

export type { RegisterBody };

export function register(body: RegisterBody): Promise<AuthAnswer> {
  return api.post<AuthAnswer>('/auth/register', body, { defaultMessage: 'Registration failed' });
}
