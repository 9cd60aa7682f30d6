/**
 * What staff do in a poll's integrity view: each change refreshes the reports, the admin list
 * (its vote counts) and today's poll, whose results it may move.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ChallengeChange, IntegrityChange } from '../../../shared/api.js';
import type { challengeRequest, discountRequest, releaseRequest } from '../../../shared/schemas.js';
import { apiRequest } from '../../lib/api-client.js';
import { activePollQuery } from '../get-active-poll.js';
import { adminPollsQuery } from './get-admin-polls.js';
import { integrityReportsKey } from './get-integrity-report.js';

type PollCall<Body> = Body & { pollId: number };

export const discountVotes = ({ pollId, ...body }: PollCall<z.input<typeof discountRequest>>) =>
  apiRequest<IntegrityChange>(`/api/admin/polls/${pollId}/discounts`, { method: 'POST', body });

export const restoreVotes = ({ pollId, discountId }: { pollId: number; discountId: number }) =>
  apiRequest<IntegrityChange>(`/api/admin/polls/${pollId}/discounts/${discountId}`, { method: 'DELETE' });

/** Without a bucket, every held vote of the poll. */
export const releaseHeldVotes = ({ pollId, ...body }: PollCall<NonNullable<z.input<typeof releaseRequest>>>) =>
  apiRequest<IntegrityChange>(`/api/admin/polls/${pollId}/held/release`, { method: 'POST', body });

export const switchChallenge = ({ pollId, ...body }: PollCall<z.input<typeof challengeRequest>>) =>
  apiRequest<ChallengeChange>(`/api/admin/polls/${pollId}/challenge`, { method: 'PUT', body });

function useReviewChange<A, R>(mutationFn: (argument: A) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: integrityReportsKey }),
        queryClient.invalidateQueries({ queryKey: adminPollsQuery.queryKey }),
        queryClient.invalidateQueries({ queryKey: activePollQuery.queryKey }),
      ]),
  });
}

export const useDiscountVotes = () => useReviewChange(discountVotes);
export const useRestoreVotes = () => useReviewChange(restoreVotes);
export const useReleaseHeldVotes = () => useReviewChange(releaseHeldVotes);
export const useSwitchChallenge = () => useReviewChange(switchChallenge);
