import { useEffect, useState } from 'react';
import { ApiError } from './api-client';
import { useAuth, type User } from './auth-context';
import { getMe } from './auth-provider';

export type FreshUserStatus = 'loading' | 'ready' | 'error';

/**
 * Account pages show what the server holds now, not what was fetched at start-up: the user is
 * fetched again on arrival and stored in the auth context. A rejected session is not an error here:
 * the api client's 401 handler already sends the visitor to the login dialog.
 */
export function useFreshUser(): { user: User | null; status: FreshUserStatus } {
  const { user, updateUser } = useAuth();
  const [status, setStatus] = useState<FreshUserStatus>('loading');

  useEffect(() => {
    let cancelled = false;
    getMe()
      .then((answer) => {
        if (cancelled) return;
        updateUser(answer.user);
        setStatus('ready');
      })
      .catch((error: unknown) => {
        if (cancelled || (error instanceof ApiError && error.status === 401)) return;
        console.error('Could not load the current user', error);
        setStatus('error');
      });
    return () => {
      cancelled = true;
    };
  }, [updateUser]);

  return { user, status };
}
