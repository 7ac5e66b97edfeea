import { startTransition, useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { paths } from '../config/paths';
import type { MeResponse, MessageResponse } from '@mirror/contract';
import { api, ApiError, getToken, setToken, setUnauthorizedHandler } from './api-client';
import { AuthContext, type AuthAnswer, type AuthContextValue, type User } from './auth-context';

/** When the current user could not be fetched for want of an answer: asked again after these. */
const ME_RETRY_DELAYS_MS = [500, 2_000, 5_000];

export function getMe(): Promise<MeResponse> {
  return api.get<MeResponse>('/auth/me');
}

export function logout(): Promise<MessageResponse> {
  return api.post<MessageResponse>('/auth/logout', undefined, {
    defaultMessage: 'Failed to logout',
  });
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  // Another account (or none) must not see what the cache holds for the last one.
  const queryClient = useQueryClient();
  const [token, setTokenState] = useState<string | null>(() => getToken());
  const [user, setUser] = useState<User | null>(null);

  const signIn = useCallback(
    (answer: AuthAnswer) => {
      queryClient.clear();
      setToken(answer.token);
      setTokenState(answer.token);
      setUser(answer.user);
    },
    [queryClient],
  );

  const updateUser = useCallback((next: User) => setUser(next), []);

  // A transition, like the router's own location updates: a sign-out followed by a navigation
  // renders once, so a login-required page never sees "logged out" before it is left.
  const signOut = useCallback(() => {
    setToken(null);
    startTransition(() => {
      setTokenState(null);
      setUser(null);
    });
    queryClient.clear();
  }, [queryClient]);

  useEffect(
    () =>
      setUnauthorizedHandler(() => {
        setTokenState(null);
        setUser(null);
        queryClient.clear();
        void navigate(paths.login.getHref(), { replace: true });
      }),
    [navigate, queryClient],
  );

  const hasUser = user !== null;
  useEffect(() => {
    if (!token || hasUser) return;
    let cancelled = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const fetchUser = (attempt: number) => {
      getMe()
        .then((answer) => {
          if (!cancelled) setUser(answer.user);
        })
        .catch((error: unknown) => {
          if (cancelled) return;
          // No answer at all (offline, or the request cut short because the page is being left
          // for another): asked again a little later, and the session is kept meanwhile. A page
          // left mid-request must not sign its visitor out of the next one.
          const answered = !(error instanceof ApiError) || error.status !== 0;
          if (!answered && attempt < ME_RETRY_DELAYS_MS.length) {
            retry = setTimeout(() => fetchUser(attempt + 1), ME_RETRY_DELAYS_MS[attempt]);
            return;
          }
          // SPEC §4: if fetching the current user fails, the user is logged out.
          setToken(null);
          setTokenState(null);
          setUser(null);
        });
    };
    fetchUser(0);
    return () => {
      cancelled = true;
      clearTimeout(retry);
    };
  }, [token, hasUser]);

  const value = useMemo<AuthContextValue>(
    () => ({ user, token, isLoggedIn: token !== null, signIn, updateUser, signOut }),
    [user, token, signIn, updateUser, signOut],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
