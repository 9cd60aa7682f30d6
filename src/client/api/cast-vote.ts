import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { VoteReceipt } from '../../shared/api.js';
import type { voteRequest } from '../../shared/schemas.js';
import { apiRequest } from '../lib/api-client.js';
import { statsQuery } from './get-stats.js';
import { activePollQuery } from './get-active-poll.js';

type VoteBody = z.input<typeof voteRequest>;

/** An anonymous vote: the e-mail comes later, if at all, with the subscribe invitation. */
export function castVote({
  pollId,
  optionIndex,
}: {
  pollId: number;
  optionIndex: VoteBody['optionIndex'];
}): Promise<VoteReceipt> {
  const body: VoteBody = { optionIndex, voterEmail: '' };
  return apiRequest<VoteReceipt>(`/api/polls/${pollId}/vote`, { method: 'POST', body });
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
