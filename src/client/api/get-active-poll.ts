import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { ActivePoll } from '../../shared/api.js';
import { apiRequest } from '../lib/api-client.js';
import { storage } from '../lib/storage.js';

/** Open pages see new votes and the close of voting within half a minute. */
export const ACTIVE_POLL_REFETCH_MS = 30_000;

export function getActivePoll(email: string | null): Promise<ActivePoll | null> {
  const query = email ? `?email=${encodeURIComponent(email)}` : '';
  return apiRequest<ActivePoll | null>(`/api/polls/active${query}`);
}

export const activePollQuery = queryOptions({
  queryKey: ['polls', 'active'],
  queryFn: () => getActivePoll(storage.voterEmail()),
  refetchInterval: ACTIVE_POLL_REFETCH_MS,
});

/**
 * The server draws the page without this browser's stored e-mail (it lives in local storage),
 * so once hydrated, a browser that has one reads today's poll again with it, once per page load.
 */
let emailHintSent = false;

export function useActivePoll() {
  const client = useQueryClient();
  useEffect(() => {
    if (emailHintSent || !storage.voterEmail()) return;
    emailHintSent = true;
    void client.invalidateQueries({ queryKey: activePollQuery.queryKey });
  }, [client]);
  return useQuery(activePollQuery);
}
