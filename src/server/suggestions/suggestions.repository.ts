import type { Db } from '../db/connection.js';
import { toIsoString, type SuggestionStatus } from '../db/tables.js';

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

export interface SuggestionRecord {
  id: number;
  question: string;
  options: string[];
  status: SuggestionStatus;
  suggestedBy: string | null;
  email: string | null;
  createdAt: string;
  reviewedAt: string | null;
}

/** Every suggestion, newest first. */
export async function listSuggestions(db: Db): Promise<SuggestionRecord[]> {
  const rows = await db
    .selectFrom('poll_suggestions')
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    question: row.question,
    options: JSON.parse(row.options) as string[],
    status: row.status,
    suggestedBy: row.suggested_by,
    email: row.email,
    createdAt: toIsoString(row.created_at),
    reviewedAt: row.reviewed_at === null ? null : toIsoString(row.reviewed_at),
  }));
}

export async function setSuggestionStatus(db: Db, id: number, status: SuggestionStatus, now: string): Promise<boolean> {
  const result = await db
    .updateTable('poll_suggestions')
    .set({ status, reviewed_at: now })
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function deleteSuggestion(db: Db, id: number): Promise<boolean> {
  const result = await db.deleteFrom('poll_suggestions').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}
