import { createContext, useContext } from 'react';
import type { AuthResponse, UserDto } from '@mirror/contract';

// Types only: the contract's zod schemas stay out of the browser bundle.
export type User = UserDto;
export type AuthAnswer = AuthResponse;

export interface AuthContextValue {
  user: User | null;
  token: string | null;
  isLoggedIn: boolean;
  /** Stores the answer of login or register. */
  signIn: (answer: AuthAnswer) => void;
  /** Replaces the stored user after a profile or settings change. */
  updateUser: (user: User) => void;
  /** Forgets the session on this browser only; the server call is the caller's. */
  signOut: () => void;
}

export const AuthContext = createContext<AuthContextValue | null>(null);

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside <AuthProvider>');
  return value;
}

export function isPaidUser(user: Pick<User, 'plan'> | null): boolean {
  return user?.plan != null && user.plan !== 'free';
}

/** First letters of the words of the name, at most two, uppercased; U without a name. */
export function getInitials(name: string | null | undefined): string {
  const words = (name ?? '').trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return 'U';
  return words
    .slice(0, 2)
    .map((word) => Array.from(word)[0] ?? '')
    .join('')
    .toUpperCase();
}
