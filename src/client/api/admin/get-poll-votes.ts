import { queryOptions, useQuery } from '@tanstack/react-query';
import type { VoteRecord } from '../../../shared/api.js';
import { apiRequest } from '../../lib/api-client.js';

export const getPollVotes = (pollId: number) => apiRequest<VoteRecord[]>(`/api/admin/polls/${pollId}/votes`);

export const pollVotesQuery = (pollId: number) =>
  queryOptions({ queryKey: ['admin', 'polls', pollId, 'votes'], queryFn: () => getPollVotes(pollId) });

/** Fetched only once the voter section is opened. */
export const usePollVotes = (pollId: number, open: boolean) => useQuery({ ...pollVotesQuery(pollId), enabled: open });
