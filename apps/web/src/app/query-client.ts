import { QueryClient, type DefaultOptions } from '@tanstack/react-query';

/**
 * The one cache of server state (decision 014). Screens show a failure at once, with their own
 * retry button, so queries do not retry by themselves; nor do they refetch when the window gets
 * focus or the network comes back: each screen fetches when it opens, and writes refresh what
 * they changed.
 */
export function createQueryClient(overrides: DefaultOptions['queries'] = {}): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: false,
        refetchOnWindowFocus: false,
        refetchOnReconnect: false,
        ...overrides,
      },
      mutations: { retry: false },
    },
  });
}
