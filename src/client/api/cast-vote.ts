import { useQueryClient } from '@tanstack/react-query';
import type { VoteReceipt } from '../../shared/api.js';
import type { castVote } from './send-vote.js';
import { statsQuery } from './get-stats.js';
import { activePollQuery } from './get-active-poll.js';

type VoteArgs = Parameters<typeof castVote>[0];

/** What a vote's sender is told, in this order, once the poll and the stats have been read again. */
export interface VoteCallbacks {
  onSuccess: (receipt: VoteReceipt) => void;
  onError: (error: unknown) => void;
  onSettled: () => void;
}

/** Loads the vote's code (send-vote.ts) ahead, on the first intent to vote. */
export const preloadVote = () => import('./send-vote.js');

/**
 * An anonymous vote (send-vote.ts). After it, counted or refused, the poll and the stats are
 * read again: a refused vote (already voted in another tab, voting just closed) shows the
 * results as they stand; then the sender is told. A mutation's work without the mutation
 * machinery, whose code the first view would otherwise carry.
 */
export function useCastVote() {
  const queryClient = useQueryClient();
  return {
    mutate(args: VoteArgs, { onSuccess, onError, onSettled }: VoteCallbacks) {
      const reread = () =>
        Promise.all([
          queryClient.invalidateQueries({ queryKey: activePollQuery.queryKey }),
          queryClient.invalidateQueries({ queryKey: statsQuery.queryKey }),
        ]).catch(() => undefined);
      void preloadVote()
        // A proof sent after a held vote counts it: the results are read again then.
        .then(({ castVote }) => castVote({ ...args, onCounted: () => void reread().then(args.onCounted) }))
        .then(
          async (receipt) => {
            await reread();
            onSuccess(receipt);
          },
          async (error: unknown) => {
            await reread();
            onError(error);
          },
        )
        .finally(onSettled);
    },
  };
}
