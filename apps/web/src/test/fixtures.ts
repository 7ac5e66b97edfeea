import { DEFAULT_USER_SETTINGS, STORAGE_KEYS } from '@mirror/contract';
import type { User } from '../lib/auth-context';

export function makeUser(overrides: Partial<User> = {}): User {
  return {
    id: 'u1',
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    role: 'user',
    plan: 'free',
    locale: 'en',
    settings: structuredClone(DEFAULT_USER_SETTINGS) as User['settings'],
    createdAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

/** Signs the browser in as far as the app can tell: a stored token. */
export function storeToken(token = 'token-1'): string {
  window.localStorage.setItem(STORAGE_KEYS.token, token);
  return token;
}
