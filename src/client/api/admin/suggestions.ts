import { infiniteQueryOptions, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { Confirmation, SuggestionsPage } from '../../../shared/api.js';
import type { suggestionStatusRequest } from '../../../shared/schemas.js';
import { apiRequest } from '../../lib/api-client.js';

/** Suggestions shown per page in each list: the first page, then as many again on "Show more". */
export const SUGGESTIONS_PAGE = 20;

/** Community Poll Suggestions (pending) or Reviewed Submissions. */
export type SuggestionList = 'pending' | 'reviewed';

/** The key of every suggestion list: a change to a suggestion refreshes both. */
const suggestionsKey = ['admin', 'suggestions'] as const;

/** One page of a list, after the page whose `next` is `after`; with `topic` (a slug), only the suggestions given it. */
export const getSuggestions = (list: SuggestionList, after: string | null, topic = '') =>
  apiRequest<SuggestionsPage>(
    `/api/poll-suggestions?status=${list}&limit=${SUGGESTIONS_PAGE}${topic ? `&topic=${encodeURIComponent(topic)}` : ''}${after ? `&after=${encodeURIComponent(after)}` : ''}`,
  );

export const suggestionsQuery = (list: SuggestionList, topic = '') =>
  infiniteQueryOptions({
    queryKey: [...suggestionsKey, list, topic],
    queryFn: ({ pageParam }) => getSuggestions(list, pageParam, topic),
    initialPageParam: null as string | null,
    getNextPageParam: (page: SuggestionsPage) => page.next,
  });

export const useSuggestions = (list: SuggestionList, topic = '') => useInfiniteQuery(suggestionsQuery(list, topic));

export const reviewSuggestion = ({ id, ...review }: { id: number } & z.input<typeof suggestionStatusRequest>) =>
  apiRequest<Confirmation>(`/api/admin/poll-suggestions/${id}/status`, { method: 'PUT', body: review });

export const deleteSuggestion = (id: number) =>
  apiRequest<Confirmation>(`/api/admin/poll-suggestions/${id}`, { method: 'DELETE' });

function useSuggestionChange<A>(mutationFn: (argument: A) => Promise<Confirmation>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    // Each list refetches the pages it shows, each from where the one before now ends.
    onSettled: () => queryClient.invalidateQueries({ queryKey: suggestionsKey }),
  });
}

export const useReviewSuggestion = () => useSuggestionChange(reviewSuggestion);
export const useDeleteSuggestion = () => useSuggestionChange(deleteSuggestion);
