import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Stats } from '../../shared/api.js';
import { apiRequest } from '../lib/api-client.js';
import { storage } from '../lib/storage.js';

/** GET without a saved e-mail; POST with it, as the spec's client does. */
export function getStats(email: string | null): Promise<Stats> {
  return email
    ? apiRequest<Stats>('/api/stats', { method: 'POST', body: { voterEmail: email } })
    : apiRequest<Stats>('/api/stats');
}

export const statsQuery = queryOptions({
  queryKey: ['stats'],
  queryFn: () => getStats(storage.voterEmail()),
});

export const useStats = () => useQuery(statsQuery);
