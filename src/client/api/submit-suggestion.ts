import { useMutation } from '@tanstack/react-query';
import type { SuggestionReceipt } from '../../shared/api.js';
import { apiRequest } from '../lib/api-client.js';

export interface NewSuggestion {
  question: string;
  options: string[];
  suggestedBy: string;
  email: string;
}

export const submitSuggestion = (suggestion: NewSuggestion) =>
  apiRequest<SuggestionReceipt>('/api/poll-suggestions', { method: 'POST', body: suggestion });

export const useSubmitSuggestion = () => useMutation({ mutationFn: submitSuggestion });
