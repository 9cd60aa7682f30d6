import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Breakdown } from '../../shared/api.js';
import { apiRequest } from '../lib/api-client.js';

/** Every breakdown's key starts with this: a saved profile changes today's, so all are read again. */
export const BREAKDOWNS_KEY = ['breakdowns'] as const;

/** A poll's results by role, grade level, region and experience: past polls, and today's after the close. */
export const getBreakdown = (pollId: number) => apiRequest<Breakdown>(`/api/polls/${pollId}/breakdown`);

export const breakdownQuery = (pollId: number) =>
  queryOptions({ queryKey: [...BREAKDOWNS_KEY, pollId], queryFn: () => getBreakdown(pollId) });

export const useBreakdown = (pollId: number) => useQuery(breakdownQuery(pollId));
