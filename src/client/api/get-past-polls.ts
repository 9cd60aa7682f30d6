import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PastPoll } from '../../shared/api.js';
import { apiRequest } from '../lib/api-client.js';

export const getPastPolls = () => apiRequest<PastPoll[]>('/api/polls');

export const pastPollsQuery = queryOptions({ queryKey: ['polls', 'past'], queryFn: getPastPolls });

export const usePastPolls = () => useQuery(pastPollsQuery);
