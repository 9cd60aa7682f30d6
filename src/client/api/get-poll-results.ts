import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PollResults } from '../../shared/api.js';
import { apiRequest } from '../lib/api-client.js';

export const getPollResults = (pollNumber: number) => apiRequest<PollResults>(`/api/polls/number/${pollNumber}`);

/**
 * An unknown number's refusal is kept, not asked again on mount: a page the server drew as
 * "Poll Not Found" hydrates as it is.
 */
export const pollResultsQuery = (pollNumber: number) =>
  queryOptions({
    queryKey: ['polls', 'number', pollNumber],
    queryFn: () => getPollResults(pollNumber),
    retryOnMount: false,
  });

export const usePollResults = (pollNumber: number) => useQuery(pollResultsQuery(pollNumber));
