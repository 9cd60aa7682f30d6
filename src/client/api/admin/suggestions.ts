import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { AdminSuggestion, Confirmation } from '../../../shared/api.js';
import type { suggestionStatusRequest } from '../../../shared/schemas.js';
import { apiRequest } from '../../lib/api-client.js';

export const getSuggestions = () => apiRequest<AdminSuggestion[]>('/api/poll-suggestions');

export const suggestionsQuery = queryOptions({ queryKey: ['admin', 'suggestions'], queryFn: getSuggestions });

export const useSuggestions = () => useQuery(suggestionsQuery);

export const reviewSuggestion = ({ id, ...review }: { id: number } & z.input<typeof suggestionStatusRequest>) =>
  apiRequest<Confirmation>(`/api/admin/poll-suggestions/${id}/status`, { method: 'PUT', body: review });

export const deleteSuggestion = (id: number) =>
  apiRequest<Confirmation>(`/api/admin/poll-suggestions/${id}`, { method: 'DELETE' });

function useSuggestionChange<A>(mutationFn: (argument: A) => Promise<Confirmation>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () => queryClient.invalidateQueries({ queryKey: suggestionsQuery.queryKey }),
  });
}

export const useReviewSuggestion = () => useSuggestionChange(reviewSuggestion);
export const useDeleteSuggestion = () => useSuggestionChange(deleteSuggestion);
