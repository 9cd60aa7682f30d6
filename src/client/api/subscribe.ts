import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Confirmation } from '../../shared/api.js';
import { apiRequest } from '../lib/api-client.js';
import { storage } from '../lib/storage.js';
import { activePollQuery } from './get-active-poll.js';
import { statsQuery } from './get-stats.js';

/** Attaches the e-mail to this browser's vote, then subscribes it (spec section 4). */
export async function subscribe({ email, pollId }: { email: string; pollId: number }): Promise<Confirmation> {
  await apiRequest<Confirmation>(`/api/polls/${pollId}/update-vote`, { method: 'POST', body: { email } });
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
