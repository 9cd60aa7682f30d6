import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Breakdown } from '../../shared/api.js';
import { apiRequest } from '../lib/api-client.js';

/** A poll's results by role, grade level, region and experience: past polls, and today's after the close. */
export const getBreakdown = (pollId: number) => apiRequest<Breakdown>(`/api/polls/${pollId}/breakdown`);

export const breakdownQuery = (pollId: number) =>
  queryOptions({ queryKey: ['breakdowns', pollId], queryFn: () => getBreakdown(pollId) });

export const useBreakdown = (pollId: number) => useQuery(breakdownQuery(pollId));
