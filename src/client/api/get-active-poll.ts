import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ActivePoll } from '../../shared/api.js';
import { apiRequest } from '../lib/api-client.js';

/** Open pages see new votes and the close of voting within half a minute. */
export const ACTIVE_POLL_REFETCH_MS = 30_000;

/**
 * Today's poll as this browser may see it. Who is asking is the voter cookie alone: the
 * visitor's e-mail never goes into the address, where school proxies would log it.
 */
export function getActivePoll(): Promise<ActivePoll | null> {
  return apiRequest<ActivePoll | null>('/api/polls/active');
}

export const activePollQuery = queryOptions({
  queryKey: ['polls', 'active'],
  queryFn: getActivePoll,
  refetchInterval: ACTIVE_POLL_REFETCH_MS,
});

export const useActivePoll = () => useQuery(activePollQuery);
