import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminPoll } from '../../../shared/api.js';
import { apiRequest } from '../../lib/api-client.js';

export const getAdminPolls = () => apiRequest<AdminPoll[]>('/api/admin/polls');

export const adminPollsQuery = queryOptions({ queryKey: ['admin', 'polls'], queryFn: getAdminPolls });

/** `enabled`: only for a role that may read polls (a moderator may not). */
export const useAdminPolls = (enabled = true) => useQuery({ ...adminPollsQuery, enabled });
