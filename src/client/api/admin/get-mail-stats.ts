import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MailStats } from '../../../shared/api.js';
import { apiRequest } from '../../lib/api-client.js';

export const getMailStats = () => apiRequest<MailStats>('/api/admin/mail-stats');

export const mailStatsQuery = queryOptions({ queryKey: ['admin', 'mail-stats'], queryFn: getMailStats });

export const useMailStats = () => useQuery(mailStatsQuery);
