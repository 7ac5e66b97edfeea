import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { queryKeys } from '../api/query-keys';
import { ApiError } from './api-client';
import { useAuth, type User } from './auth-context';
import { getMe } from './auth-provider';

export type FreshUserStatus = 'loading' | 'ready' | 'error';

/**
 * Account pages show what the server holds now, not what was fetched at start-up: the user is
 * fetched again on arrival (a cached answer does not count) and stored in the auth context. A
 * rejected session is not an error here: the api client's 401 handler already sends the visitor to
 * the login dialog.
 */
export function useFreshUser(): { user: User | null; status: FreshUserStatus } {
  const { user, updateUser } = useAuth();
  const query = useQuery({ queryKey: queryKeys.auth.me(), queryFn: () => getMe() });
  const fresh = query.isFetchedAfterMount && !query.isError ? query.data : undefined;

  useEffect(() => {
    if (fresh) updateUser(fresh.user);
  }, [fresh, updateUser]);

  const rejected = query.error instanceof ApiError && query.error.status === 401;
  const status: FreshUserStatus =
    query.isError && !rejected ? 'error' : fresh ? 'ready' : 'loading';
  // The fresh answer is what the context holds from the next render on.
  return { user: fresh?.user ?? user, status };
}
