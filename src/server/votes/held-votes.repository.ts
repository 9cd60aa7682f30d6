/** SQL for one browser's held vote, counted when its proof of work arrives after it (votes.service.ts). */
import type { VoteStatus } from '../db/tables.js';
import type { Db } from '../db/connection.js';

/** What counting a browser's own vote needs of it. */
export interface OwnVote {
  status: VoteStatus;
  optionIndex: number;
  bucket: string | null;
  /** Null for a first-time browser's vote (integrity's signal). */
  cookieAgeS: number | null;
  votedAt: number;
}

/** This voter's vote on the poll, whatever its status. */
export async function findOwnVote(db: Db, pollId: number, voterId: string): Promise<OwnVote | undefined> {
  const row = await db
    .selectFrom('votes')
    .select(['status', 'option_index', 'bucket', 'cookie_age_s', 'created_at'])
    .where('poll_id', '=', pollId)
    .where('voter_id', '=', voterId)
    .executeTakeFirst();
  return (
    row && {
      status: row.status,
      optionIndex: row.option_index,
      bucket: row.bucket,
      cookieAgeS: row.cookie_age_s,
      votedAt: new Date(row.created_at).getTime(),
    }
  );
}

/**
 * Counts this voter's vote on the poll if it is still held; gives its option and profile copy,
 * or undefined when it was not held (counted meanwhile by another request or a release, or set
 * aside): then nothing changed.
 */
export async function countHeldVote(
  db: Db,
  pollId: number,
  voterId: string,
): Promise<{ option: number; profile: string | null } | undefined> {
  const row = await db
    .updateTable('votes')
    .set({ status: 'counted' })
    .where('poll_id', '=', pollId)
    .where('voter_id', '=', voterId)
    .where('status', '=', 'held')
    .returning(['option_index', 'voter_profile'])
    .executeTakeFirst();
  return row && { option: row.option_index, profile: row.voter_profile };
}

/** The groups of this voter's profile as it reads now, as a release adds its votes to them. */
export async function groupsOfVoter(db: Db, voterId: string): Promise<{ dimension: string; group: string }[]> {
  const rows = await db
    .selectFrom('profile_answers')
    .select(['dimension', 'group_value'])
    .where('voter_id', '=', voterId)
    .orderBy('dimension')
    .execute();
  return rows.map((row) => ({ dimension: row.dimension, group: row.group_value }));
}
