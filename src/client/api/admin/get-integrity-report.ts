import { queryOptions, useQuery } from '@tanstack/react-query';
import type { IntegrityReport } from '../../../shared/api.js';
import { apiRequest } from '../../lib/api-client.js';

export const getIntegrityReport = (pollId: number) =>
  apiRequest<IntegrityReport>(`/api/admin/polls/${pollId}/integrity`);

/** Every poll's report shares this start of its key: any review change refreshes them all. */
export const integrityReportsKey = ['admin', 'integrity'] as const;

export const integrityReportQuery = (pollId: number) =>
  queryOptions({ queryKey: [...integrityReportsKey, pollId], queryFn: () => getIntegrityReport(pollId) });

/**
 * Fetched once the view is opened; today's poll is read again every 30 seconds while it is
 * open, as votes (and a burst) keep coming.
 */
export const useIntegrityReport = (pollId: number, { live }: { live: boolean }) =>
  useQuery({ ...integrityReportQuery(pollId), refetchInterval: live ? 30_000 : false });
