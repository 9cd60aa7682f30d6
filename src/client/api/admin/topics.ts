import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Confirmation } from '../../../shared/api.js';
import { apiRequest } from '../../lib/api-client.js';
import { topicsQuery } from '../get-topics.js';

/** The owner's changes to the topic list (issue 39); each refreshes the list. */
export const addTopic = (name: string) =>
  apiRequest<Confirmation>('/api/admin/topics', { method: 'POST', body: { name } });
export const renameTopic = ({ id, name }: { id: number; name: string }) =>
  apiRequest<Confirmation>(`/api/admin/topics/${id}`, { method: 'PUT', body: { name } });
export const deleteTopic = (id: number) => apiRequest<Confirmation>(`/api/admin/topics/${id}`, { method: 'DELETE' });

function useTopicChange<A>(mutationFn: (argument: A) => Promise<Confirmation>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () => queryClient.invalidateQueries({ queryKey: topicsQuery.queryKey }),
  });
}

export const useAddTopic = () => useTopicChange(addTopic);
export const useRenameTopic = () => useTopicChange(renameTopic);
export const useDeleteTopic = () => useTopicChange(deleteTopic);
