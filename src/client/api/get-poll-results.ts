import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PollResults } from '../../shared/api.js';
import { apiRequest } from '../lib/api-client.js';

export const getPollResults = (pollNumber: number) => apiRequest<PollResults>(`/api/polls/number/${pollNumber}`);

export const pollResultsQuery = (pollNumber: number) =>
  queryOptions({ queryKey: ['polls', 'number', pollNumber], queryFn: () => getPollResults(pollNumber) });

export const usePollResults = (pollNumber: number) => useQuery(pollResultsQuery(pollNumber));
