import { QueryClient } from '@tanstack/react-query';

/** The spec's settings: no retries, data never stale, no refetch on focus. */
export function newQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, staleTime: Infinity, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}
