/** A poll's staff note ("What we learned") and the weekly digest's Friday time, for the panel. */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminNote, Confirmation, DigestSettings } from '../../../shared/api.js';
import { apiRequest } from '../../lib/api-client.js';

export const noteQuery = (pollId: number) =>
  queryOptions({
    queryKey: ['admin', 'note', pollId],
    queryFn: () => apiRequest<AdminNote>(`/api/admin/polls/${pollId}/note`),
  });

export const useNote = (pollId: number) => useQuery(noteQuery(pollId));

export function useSaveNote(pollId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: string) =>
      apiRequest<Confirmation>(`/api/admin/polls/${pollId}/note`, { method: 'PUT', body: { body } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: noteQuery(pollId).queryKey }),
  });
}

export const digestSettingsQuery = queryOptions({
  queryKey: ['admin', 'digest'],
  queryFn: () => apiRequest<DigestSettings>('/api/admin/digest'),
});

export const useDigestSettings = () => useQuery(digestSettingsQuery);

export function useSaveDigestTime() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (sendAt: string) => apiRequest<Confirmation>('/api/admin/digest', { method: 'PUT', body: { sendAt } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: digestSettingsQuery.queryKey }),
  });
}
