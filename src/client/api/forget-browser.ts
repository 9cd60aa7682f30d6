import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../lib/api-client.js';
import { storage } from '../lib/storage.js';
import { activePollQuery } from './get-active-poll.js';
import { profileQuery } from './get-profile.js';
import { statsQuery } from './get-stats.js';

/**
 * DELETE /api/me: the server deletes this browser's profile and the e-mails on its votes (the
 * votes stay counted, anonymously) and clears its voter cookie. 204, no body.
 */
export const forgetBrowser = () => apiRequest<null>('/api/me', { method: 'DELETE' });

/**
 * Then this browser forgets too: its local storage, and what was read as the old voter (its
 * profile, its vote, its stats). Breakdowns stay as they are: the votes stay counted.
 */
export function useForgetBrowser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: forgetBrowser,
    onSuccess: async () => {
      storage.forgetVisitor();
      await Promise.all(
        [profileQuery.queryKey, activePollQuery.queryKey, statsQuery.queryKey].map((queryKey) =>
          queryClient.invalidateQueries({ queryKey }),
        ),
      );
    },
  });
}
