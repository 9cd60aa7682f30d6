/**
 * Which data each address draws with, for the server to fetch before it draws the page. The
 * query keys are the ones the pages read, so the browser hydrates from the same cache and
 * fetches nothing again.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { SsrData } from '../../shared/ssr.js';
import { activePollQuery } from '../api/get-active-poll.js';
import { pastPollsQuery } from '../api/get-past-polls.js';
import { pollResultsQuery } from '../api/get-poll-results.js';
import { weightingDataQuery } from '../api/get-weighting-data.js';
import { trackerQuery, trackersQuery } from '../api/get-trackers.js';
import { topicsQuery } from '../api/get-topics.js';
import { ApiRequestError } from '../lib/api-client.js';
import { parseLocation } from '../lib/router.js';
import { screenOf } from './screens.js';

/** Fetches into the cache; a refusal is kept there too, as the page draws it. */
const fetchQuietly = <T>(
  queryClient: QueryClient,
  options: { queryKey: readonly unknown[]; queryFn: () => Promise<T> },
) => queryClient.query(options).catch(() => undefined);

export async function prefetchRoute(queryClient: QueryClient, url: string, data: SsrData): Promise<void> {
  const { pathname, search } = parseLocation(url);
  const screen = screenOf(pathname, search);
  const activePoll = () =>
    fetchQuietly(queryClient, { queryKey: activePollQuery.queryKey, queryFn: () => data.activePoll() });
  switch (screen.kind) {
    case 'home':
      if (screen.view === 'archive') {
        await fetchQuietly(queryClient, { queryKey: pastPollsQuery.queryKey, queryFn: () => data.pastPolls() });
      } else if (screen.view === 'today') {
        await activePoll();
      } else {
        // The suggestion form: its topic choices.
        await fetchQuietly(queryClient, { queryKey: topicsQuery.queryKey, queryFn: () => data.topics() });
      }
      return;
    case 'poll': {
      const { pollNumber } = screen;
      await Promise.all([
        activePoll(),
        fetchQuietly(queryClient, {
          queryKey: pollResultsQuery(pollNumber).queryKey,
          queryFn: async () => {
            const results = await data.pollResults(pollNumber);
            if (!results) throw new ApiRequestError(404, 'not-found', 'Poll not found');
            return results;
          },
        }),
      ]);
      return;
    }
    case 'trackers': {
      const { slug } = screen;
      if (slug === null) {
        await fetchQuietly(queryClient, { queryKey: trackersQuery.queryKey, queryFn: () => data.trackers() });
        return;
      }
      await fetchQuietly(queryClient, {
        queryKey: trackerQuery(slug).queryKey,
        queryFn: async () => {
          const tracker = await data.tracker(slug);
          if (!tracker) throw new ApiRequestError(404, 'not-found', 'Tracker not found');
          return tracker;
        },
      });
      return;
    }
    case 'methods':
      await fetchQuietly(queryClient, { queryKey: weightingDataQuery.queryKey, queryFn: () => data.weighting() });
      return;
    default:
      return;
  }
}
