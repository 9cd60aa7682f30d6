import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminSession } from '../../../shared/api.js';
import { apiRequest } from '../../lib/api-client.js';

export const getAdminSession = () => apiRequest<AdminSession>('/api/admin/session');

export const adminSessionQuery = queryOptions({ queryKey: ['admin', 'session'], queryFn: getAdminSession });

export const useAdminSession = () => useQuery(adminSessionQuery);
