import type { LoginBody } from '@mirror/contract';
import { api } from '../../../lib/api-client';
import type { AuthAnswer } from '../../../lib/auth-context';

export type { LoginBody };

export function login(body: LoginBody): Promise<AuthAnswer> {
  return api.post<AuthAnswer>('/auth/login', body, { defaultMessage: 'Login failed' });
}
