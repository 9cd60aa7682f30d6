import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { VoteReceipt } from '../../shared/api.js';
import { apiRequest } from '../lib/api-client.js';
import { statsQuery } from './get-stats.js';
import { activePollQuery } from './get-active-poll.js';

export function castVote({ pollId, optionIndex }: { pollId: number; optionIndex: number }): Promise<VoteReceipt> {
  return apiRequest<VoteReceipt>(`/api/polls/${pollId}/vote`, { method: 'POST', body: { optionIndex, voterEmail: '' } });
}

/**
 * After a vote, counted or refused, the poll and the stats are read again: a refused vote
 * (already voted in another tab, voting just closed) shows the results as they stand.
 */
export function useCastVote() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: castVote,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: activePollQuery.queryKey }),
        queryClient.invalidateQueries({ queryKey: statsQuery.queryKey }),
      ]),
  });
}
