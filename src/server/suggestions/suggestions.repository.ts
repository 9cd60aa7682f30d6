import type { SuggestionPlace } from '../../shared/schemas.js';
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

/** Which suggestions a list holds: those waiting for review, those reviewed, or every one. */
export type SuggestionList = 'pending' | 'reviewed' | 'all';

/**
 * The list's order, newest first: reviewed ones by when they were reviewed (what staff did
 * last comes first), the others by when they came in. The id settles ties, so the order is
 * total and a page can start right after a place without skipping or repeating a suggestion.
 */
const orderOf = (list: SuggestionList) => (list === 'reviewed' ? 'reviewed_at' : 'created_at');

const STATUSES: Record<SuggestionList, SuggestionStatus[] | null> = {
  pending: ['pending'],
  reviewed: ['approved', 'rejected'],
  all: null,
};

const listed = (db: Db, list: SuggestionList) => {
  const statuses = STATUSES[list];
  return db.selectFrom('poll_suggestions').$if(statuses !== null, (qb) => qb.where('status', 'in', statuses ?? []));
};

/** The suggestions of `list` that come after `after` in its order (from the top without it), at most `limit`. */
export async function suggestionsPage(
  db: Db,
  {
    list,
    after,
    limit,
    emails,
  }: { list: SuggestionList; after: SuggestionPlace | undefined; limit: number; emails: boolean },
): Promise<SuggestionRecord[]> {
  const time = orderOf(list);
  // The suggester's e-mail is read only for someone who may see it (the owner).
  let query = listed(db, list)
    .select(['id', 'question', 'options', 'status', 'suggested_by', 'created_at', 'reviewed_at'])
    .$if(emails, (q) => q.select('email'));
  if (after) {
    query = query.where((eb) =>
      eb.or([eb(time, '<', after.at), eb.and([eb(time, '=', after.at), eb('id', '<', after.id)])]),
    );
  }
  const rows = await query.orderBy(time, 'desc').orderBy('id', 'desc').limit(limit).execute();
  return rows.map((row) => ({
    id: row.id,
    question: row.question,
    options: JSON.parse(row.options) as string[],
    status: row.status,
    suggestedBy: row.suggested_by,
    email: row.email ?? null,
    createdAt: toIsoString(row.created_at),
    reviewedAt: row.reviewed_at === null ? null : toIsoString(row.reviewed_at),
  }));
}

/** Where `suggestion` stands in the order of `list`. */
export function placeIn(list: SuggestionList, suggestion: SuggestionRecord): SuggestionPlace {
  return { at: (list === 'reviewed' ? suggestion.reviewedAt : null) ?? suggestion.createdAt, id: suggestion.id };
}

export async function countSuggestions(db: Db, list: SuggestionList): Promise<number> {
  const row = await listed(db, list)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return row.count;
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
