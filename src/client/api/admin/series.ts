/** Staff and series (issue 38, item 3): the series with their runs, and renaming one. */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Confirmation } from '../../../shared/api.js';
import type { AdminSeries, SeriesChange } from '../../../shared/series-schemas.js';
import { apiRequest } from '../../lib/api-client.js';

export const adminSeriesQuery = queryOptions({
  queryKey: ['admin', 'series'],
  queryFn: () => apiRequest<AdminSeries[]>('/api/admin/series'),
});

export const useAdminSeries = (enabled = true) => useQuery({ ...adminSeriesQuery, enabled });

export function useRenameSeries() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...change }: SeriesChange & { id: number }) =>
      apiRequest<Confirmation>(`/api/admin/series/${id}`, { method: 'PUT', body: change }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['admin', 'series'] }),
  });
}
