import { dehydrate, hydrate, QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { ApiRequestError } from '../lib/api-client.js';
import { hydrateSettled, newQueryClient } from './query-client.js';

/** A cache as the server leaves it (route-data.ts): settled queries, answered and refused, sent as JSON. */
async function serverState() {
  const fetched = new QueryClient();
  await fetched.query({
    queryKey: ['polls', 'active'],
    queryFn: () => Promise.resolve({ pollNumber: 7, options: ['Yes'] }),
  });
  await fetched
    .query({
      queryKey: ['polls', 'number', 99],
      queryFn: () => Promise.reject(new ApiRequestError(404, 'not-found', 'Poll not found')),
      retry: false,
    })
    .catch(() => undefined);
  const state = dehydrate(fetched, { shouldDehydrateQuery: () => true, shouldRedactErrors: () => false });
  fetched.clear();
  return JSON.parse(JSON.stringify(state)) as typeof state;
}

const cacheOf = (client: QueryClient) =>
  client
    .getQueryCache()
    .getAll()
    .map((query) => ({
      queryKey: query.queryKey,
      queryHash: query.queryHash,
      state: query.state,
      stale: query.isStale(),
      options: query.options,
    }));

describe('hydrateSettled', () => {
  it("fills a new client's cache as the query library's hydrate does: data, refusals, their times and options", async () => {
    const state = await serverState();
    const library = newQueryClient();
    hydrate(library, state);
    const ours = newQueryClient();
    hydrateSettled(ours, state);

    expect(cacheOf(ours)).toEqual(cacheOf(library));
    expect(cacheOf(ours).map(({ queryKey, state: { status } }) => [queryKey, status])).toEqual([
      [['polls', 'active'], 'success'],
      [['polls', 'number', 99], 'error'],
    ]);
    expect(ours.getQueryData(['polls', 'active'])).toEqual({ pollNumber: 7, options: ['Yes'] });
    expect(ours.getQueryState(['polls', 'number', 99])?.error).toMatchObject({ status: 404, code: 'not-found' });
  });
});
