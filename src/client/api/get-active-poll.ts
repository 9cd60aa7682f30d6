import { queryOptions, useQuery } from '@tanstack/react-query';
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

export const useActivePoll = () => useQuery(activePollQuery);
