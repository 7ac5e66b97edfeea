import { api } from '../../../lib/api-client';
import type { AuthAnswer } from '../../../lib/auth-context';

export interface RegisterBody {
  name: string;
  email: string;
  password: string;
}

export function register(body: RegisterBody): Promise<AuthAnswer> {
  return api.post<AuthAnswer>('/auth/register', body, { defaultMessage: 'Registration failed' });
}
