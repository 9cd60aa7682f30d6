/** The only place SQL about staff notes lives (poll_notes, migration 0024). */
import type { Db } from '../db/connection.js';
import { toIsoString } from '../db/tables.js';
import { indexPollText } from '../db/search-index.js';

export interface StoredNote {
  pollId: number;
  body: string;
  updatedAt: string;
}

export async function findNote(db: Db, pollId: number): Promise<StoredNote | undefined> {
  const row = await db
    .selectFrom('poll_notes')
    .select(['poll_id', 'body', 'updated_at'])
    .where('poll_id', '=', pollId)
    .executeTakeFirst();
  return row && { pollId: row.poll_id, body: row.body, updatedAt: toIsoString(row.updated_at) };
}

/** The notes of several polls at once (open data, the feed, the digest), by poll id. */
export async function findNotes(db: Db, pollIds: readonly number[]): Promise<Map<number, StoredNote>> {
  if (pollIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('poll_notes')
    .select(['poll_id', 'body', 'updated_at'])
    .where('poll_id', 'in', [...pollIds])
    .execute();
  return new Map(
    rows.map((row) => [row.poll_id, { pollId: row.poll_id, body: row.body, updatedAt: toIsoString(row.updated_at) }]),
  );
}

/** Writes a poll's note (a new one, or over the old); empty `body` removes it. True when something changed. */
export async function writeNote(
  db: Db,
  { pollId, body, at, by }: { pollId: number; body: string; at: Date; by: number | null },
): Promise<boolean> {
  // The search index holds the note's words too (db/search-index.ts), changed with it.
  await indexPollText(db, pollId, { note: body });
  if (body === '') {
    const removed = await db.deleteFrom('poll_notes').where('poll_id', '=', pollId).executeTakeFirst();
    return removed.numDeletedRows > 0n;
  }
  const updatedAt = at.toISOString();
  await db
    .insertInto('poll_notes')
    .values({ poll_id: pollId, body, updated_at: updatedAt, updated_by: by })
    .onConflict((conflict) => conflict.column('poll_id').doUpdateSet({ body, updated_at: updatedAt, updated_by: by }))
    .execute();
  return true;
}
