import type { Db } from '../db/connection.js';
import type { SuggestionStatus } from '../db/tables.js';

export interface NewSuggestion {
  question: string;
  options: string[];
  suggestedBy: string | null;
  email: string | null;
  status?: SuggestionStatus;
}

export async function insertSuggestion(db: Db, suggestion: NewSuggestion, now: string): Promise<number> {
  const row = await db
    .insertInto('poll_suggestions')
    .values({
      question: suggestion.question,
      options: JSON.stringify(suggestion.options),
      suggested_by: suggestion.suggestedBy,
      email: suggestion.email,
      status: suggestion.status ?? 'pending',
      created_at: now,
      reviewed_at: suggestion.status && suggestion.status !== 'pending' ? now : null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
