import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { Confirmation } from '../../shared/api.js';
import type { subscribeRequest, updateVoteRequest } from '../../shared/schemas.js';
import { apiRequest } from '../lib/api-client.js';
import { storage } from '../lib/storage.js';
import { activePollQuery } from './get-active-poll.js';
import { statsQuery } from './get-stats.js';

/** POST /api/subscribe's body, as its schema reads it, with the poll voted on (update-vote needs it too). */
export type Subscription = z.input<typeof subscribeRequest> & { pollId: number };

/** Attaches the e-mail to this browser's vote, then subscribes it (spec section 4). */
export async function subscribe({ email, pollId }: Subscription): Promise<Confirmation> {
  const attach: z.input<typeof updateVoteRequest> = { email };
  await apiRequest<Confirmation>(`/api/polls/${pollId}/update-vote`, { method: 'POST', body: attach });
  return apiRequest<Confirmation>('/api/subscribe', { method: 'POST', body: { email, pollId } });
}

export function useSubscribe() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: subscribe,
    onSuccess: async (_answer, { email }) => {
      storage.setVoterEmail(email);
      storage.setEmailSubscribed();
      storage.setEmailModalSeen();
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: activePollQuery.queryKey }),
        queryClient.invalidateQueries({ queryKey: statsQuery.queryKey }),
      ]);
    },
  });
}
