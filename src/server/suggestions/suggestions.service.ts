import type { SuggestionRequest } from '../../shared/schemas.js';
import type { ServiceDeps } from '../service-deps.js';
import { insertSuggestion } from './suggestions.repository.js';

export function createSuggestionsService({ db, clock }: ServiceDeps) {
  return {
    /** Stores a visitor's suggestion for staff to review. */
    async submit(suggestion: SuggestionRequest): Promise<number> {
      return insertSuggestion(
        db,
        {
          question: suggestion.question,
          options: suggestion.options,
          suggestedBy: suggestion.suggestedBy ?? null,
          email: suggestion.email ?? null,
        },
        clock.now().toISOString(),
      );
    },
  };
}

export type SuggestionsService = ReturnType<typeof createSuggestionsService>;
