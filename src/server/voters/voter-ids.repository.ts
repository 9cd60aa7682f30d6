/** SQL for voter ids from before signing (voter-ids.service.ts). */
import type { Db } from '../db/connection.js';
import { toIsoString } from '../db/tables.js';

export interface LegacyVoterRecord {
  /**
   * When the database first saw the id: its first vote, or its profile's latest save when it
   * has no vote. Null when the database holds nothing of it.
   */
  firstSeenAt: Date | null;
  /** When it was re-issued signed; null while it has not been. */
  reissuedAt: Date | null;
}

const instant = (value: Date | string | null | undefined) =>
  value === null || value === undefined ? null : new Date(toIsoString(value));

/** What the database knows of a bare voter id, in one round trip (every lookup by a key). */
export async function findLegacyVoter(db: Db, voterId: string, idHash: string): Promise<LegacyVoterRecord> {
  const row = await db
    .selectNoFrom((eb) => [
      eb
        .selectFrom('votes')
        .where('voter_id', '=', voterId)
        .select((votes) => votes.fn.min('created_at').as('at'))
        .as('voted_at'),
      eb
        .selectFrom('profile_answers')
        .where('voter_id', '=', voterId)
        .select((answers) => answers.fn.min('updated_at').as('at'))
        .as('answered_at'),
      eb.selectFrom('reissued_voter_ids').where('id_hash', '=', idHash).select('reissued_at').as('reissued_at'),
    ])
    .executeTakeFirstOrThrow();
  const seen = [instant(row.voted_at), instant(row.answered_at)].filter((at): at is Date => at !== null);
  return {
    firstSeenAt: seen.length === 0 ? null : new Date(Math.min(...seen.map((at) => at.getTime()))),
    reissuedAt: instant(row.reissued_at),
  };
}

/** Marks a bare id re-issued; the first mark stands. */
export async function markReissued(db: Db, idHash: string, at: Date): Promise<void> {
  await db
    .insertInto('reissued_voter_ids')
    .values({ id_hash: idHash, reissued_at: at.toISOString() })
    .onConflict((conflict) => conflict.column('id_hash').doNothing())
    .execute();
}
