import { api } from '../../../lib/api-client';
import type { AuthAnswer } from '../../../lib/auth-context';

export interface LoginBody {
  email: string;
  password: string;
}

export function login(body: LoginBody): Promise<AuthAnswer> {
  return api.post<AuthAnswer>('/auth/login', body, { defaultMessage: 'Login failed' });
}
