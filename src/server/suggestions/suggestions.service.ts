import type { SuggestionRequest } from '../../shared/schemas.js';
import type { ServiceDeps } from '../service-deps.js';
import type { AdminSuggestion } from '../../shared/api.js';
import { deleteSuggestion, insertSuggestion, listSuggestions, setSuggestionStatus } from './suggestions.repository.js';

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

    /** For staff: every suggestion, e-mails included, newest first. */
    list: (): Promise<AdminSuggestion[]> => listSuggestions(db),

    review: (id: number, status: 'approved' | 'rejected') =>
      setSuggestionStatus(db, id, status, clock.now().toISOString()),

    remove: (id: number) => deleteSuggestion(db, id),
  };
}

export type SuggestionsService = ReturnType<typeof createSuggestionsService>;
