/** SQL for one browser's own vote, read when its proof of work arrives after it (votes.service.ts). */
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
