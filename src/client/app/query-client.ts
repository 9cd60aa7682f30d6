import { QueryClient, type DehydratedState } from '@tanstack/react-query';

/** The spec's settings: no retries, data never stale, no refetch on focus. */
export function newQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, staleTime: Infinity, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}

/**
 * Fills a new, empty client's cache with the queries a page was drawn with (the server's
 * dehydrated cache), each as it was: its data or its refusal, and when. It is what the query
 * library's hydrate() does for such a cache and for queries that have settled, which the
 * server's all have (route-data.ts waits for each); hydrate() also merges into a cache that
 * holds queries, restores mutations and pending queries' promises, none of which a page's
 * start meets; left out of the first visit's JavaScript, it saves 0.7 KB gzipped (issue 35
 * item 5). The server draws from the cache this fills too (entry-server.tsx).
 */
export function hydrateSettled(client: QueryClient, { queries }: DehydratedState): void {
  const cache = client.getQueryCache();
  for (const { queryKey, queryHash, meta, state } of queries) {
    cache.build(client, { queryKey, queryHash, meta }, { ...state, fetchStatus: 'idle' });
  }
}
