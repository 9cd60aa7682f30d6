import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { SuggestionReceipt } from '../../shared/api.js';
import type { suggestionRequest } from '../../shared/schemas.js';
import { apiRequest } from '../lib/api-client.js';

/** What POST /api/poll-suggestions takes, as its schema reads it. */
export type NewSuggestion = z.input<typeof suggestionRequest>;

export const submitSuggestion = (suggestion: NewSuggestion) =>
  apiRequest<SuggestionReceipt>('/api/poll-suggestions', { method: 'POST', body: suggestion });

export const useSubmitSuggestion = () => useMutation({ mutationFn: submitSuggestion });
