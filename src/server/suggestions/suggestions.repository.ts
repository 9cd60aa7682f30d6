import type { TopicRef } from '../../shared/api.js';
import type { SuggestionPlace } from '../../shared/schemas.js';
import type { Db } from '../db/connection.js';
import { toIsoString, type SuggestionStatus } from '../db/tables.js';

export interface NewSuggestion {
  question: string;
  options: string[];
  suggestedBy: string | null;
  email: string | null;
  status?: SuggestionStatus;
  /** The topic the visitor picked (issue 39), by id. */
  topicId?: number | null;
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
      topic_id: suggestion.topicId ?? null,
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
  topic: TopicRef | null;
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

/** The suggestions of `list`; with `topicId`, only those the visitor gave that topic (issue 39, item 5). */
const listed = (db: Db, list: SuggestionList, topicId: number | undefined) => {
  const statuses = STATUSES[list];
  return db
    .selectFrom('poll_suggestions')
    .$if(statuses !== null, (qb) => qb.where('status', 'in', statuses ?? []))
    .$if(topicId !== undefined, (qb) => qb.where('topic_id', '=', topicId ?? 0));
};

/** The suggestions of `list` that come after `after` in its order (from the top without it), at most `limit`. */
export async function suggestionsPage(
  db: Db,
  {
    list,
    after,
    limit,
    emails,
    topicId,
  }: {
    list: SuggestionList;
    after: SuggestionPlace | undefined;
    limit: number;
    emails: boolean;
    topicId?: number | undefined;
  },
): Promise<SuggestionRecord[]> {
  const time = orderOf(list);
  // The suggester's e-mail is read only for someone who may see it (the owner).
  let query = listed(db, list, topicId)
    .select(['id', 'question', 'options', 'status', 'suggested_by', 'created_at', 'reviewed_at', 'topic_id'])
    .$if(emails, (q) => q.select('email'));
  if (after) {
    query = query.where((eb) =>
      eb.or([eb(time, '<', after.at), eb.and([eb(time, '=', after.at), eb('id', '<', after.id)])]),
    );
  }
  const rows = await query.orderBy(time, 'desc').orderBy('id', 'desc').limit(limit).execute();
  const topicIds = [...new Set(rows.flatMap((row) => (row.topic_id === null ? [] : [row.topic_id])))];
  const topics = new Map(
    topicIds.length === 0
      ? []
      : (await db.selectFrom('topics').select(['id', 'slug', 'name']).where('id', 'in', topicIds).execute()).map(
          (topic) => [topic.id, { slug: topic.slug, name: topic.name }] as const,
        ),
  );
  return rows.map((row) => ({
    id: row.id,
    question: row.question,
    options: JSON.parse(row.options) as string[],
    status: row.status,
    suggestedBy: row.suggested_by,
    email: row.email ?? null,
    topic: (row.topic_id === null ? undefined : topics.get(row.topic_id)) ?? null,
    createdAt: toIsoString(row.created_at),
    reviewedAt: row.reviewed_at === null ? null : toIsoString(row.reviewed_at),
  }));
}

/** Where `suggestion` stands in the order of `list`. */
export function placeIn(list: SuggestionList, suggestion: SuggestionRecord): SuggestionPlace {
  return { at: (list === 'reviewed' ? suggestion.reviewedAt : null) ?? suggestion.createdAt, id: suggestion.id };
}

export async function countSuggestions(db: Db, list: SuggestionList, topicId?: number): Promise<number> {
  const row = await listed(db, list, topicId)
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
