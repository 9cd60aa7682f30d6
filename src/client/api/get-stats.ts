import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Stats } from '../../shared/api.js';
import { apiRequest } from '../lib/api-client.js';

/** This browser's stats: the voter cookie says whose, so the visitor's e-mail is never sent. */
export const getStats = (): Promise<Stats> => apiRequest<Stats>('/api/stats');

export const statsQuery = queryOptions({
  queryKey: ['stats'],
  queryFn: getStats,
});

export const useStats = () => useQuery(statsQuery);
