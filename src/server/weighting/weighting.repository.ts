/** The only place SQL about poll_profile_tallies and poll_weighting lives (the votes' INSERT and its triggers add to the tallies too). */
import { sql } from 'kysely';
import type { Db } from '../db/connection.js';
import { voterProfileOf } from './profile-copy.js';

export interface ProfileTally {
  /** A vote's copy of its voter's profile (profile-copy.ts). */
  voterProfile: string;
  optionIndex: number;
  votes: number;
}

/** A poll's counted votes per profile and option: at most profiles × options rows, whatever its votes. */
export async function profileTallies(db: Db, pollId: number): Promise<ProfileTally[]> {
  const rows = await db
    .selectFrom('poll_profile_tallies')
    .select(['voter_profile', 'option_index', 'vote_count'])
    .where('poll_id', '=', pollId)
    .where('vote_count', '>', 0)
    .execute();
  return rows.map((row) => ({ voterProfile: row.voter_profile, optionIndex: row.option_index, votes: row.vote_count }));
}

/**
 * Counts a poll's profile tallies again from its counted votes' copies: after staff change vote
 * statuses, in their transaction, which holds the poll's tally locks (review-tallies.repository.ts).
 */
export async function recountProfileTallies(db: Db, pollId: number): Promise<void> {
  await db.deleteFrom('poll_profile_tallies').where('poll_id', '=', pollId).execute();
  await sql`insert into poll_profile_tallies (poll_id, voter_profile, option_index, vote_count)
    select poll_id, voter_profile, option_index, count(*) from votes
    where poll_id = ${pollId} and status = 'counted' and voter_profile is not null
    group by poll_id, voter_profile, option_index`.execute(db);
}

/**
 * Today's vote follows its voter's profile while voting is open (profiles.service.ts): its copy
 * becomes the profile as it is now, and a counted vote moves between profile tallies.
 */
export async function recopyVoterProfile(db: Db, pollId: number, voterId: string): Promise<void> {
  const vote = await db
    .selectFrom('votes')
    .select(['option_index', 'status', 'voter_profile'])
    .where('poll_id', '=', pollId)
    .where('voter_id', '=', voterId)
    .executeTakeFirst();
  if (!vote) return;
  const updated = await db
    .updateTable('votes')
    .set({ voter_profile: voterProfileOf(sql`${voterId}`) })
    .where('poll_id', '=', pollId)
    .where('voter_id', '=', voterId)
    .returning('voter_profile')
    .executeTakeFirst();
  const now = updated?.voter_profile ?? null;
  if (vote.status !== 'counted' || now === vote.voter_profile) return;
  if (vote.voter_profile !== null) {
    await db
      .updateTable('poll_profile_tallies')
      .set({ vote_count: sql`vote_count - 1` })
      .where('poll_id', '=', pollId)
      .where('voter_profile', '=', vote.voter_profile)
      .where('option_index', '=', vote.option_index)
      .execute();
  }
  if (now !== null) {
    await db
      .insertInto('poll_profile_tallies')
      .values({ poll_id: pollId, voter_profile: now, option_index: vote.option_index, vote_count: 1 })
      .onConflict((conflict) =>
        conflict
          .columns(['poll_id', 'voter_profile', 'option_index'])
          .doUpdateSet({ vote_count: sql`poll_profile_tallies.vote_count + 1` }),
      )
      .execute();
  }
}

/**
 * "Forget this browser": its votes lose their copies of its profile. The profile tallies they
 * were counted in stay as counted, and weighted lines already kept stay as they are.
 */
export async function dropProfileCopies(db: Db, voterId: string): Promise<void> {
  // Its counted votes' polls: their profile tallies no longer follow from the votes' copies, so
  // the next staff action on them counts them again (review.service.ts).
  await db
    .updateTable('polls')
    .set({ profile_tallies_stale: sql`true` })
    .where(
      'id',
      'in',
      db
        .selectFrom('votes')
        .select('poll_id')
        .where('voter_id', '=', voterId)
        .where('status', '=', 'counted')
        .where('voter_profile', 'is not', null),
    )
    .execute();
  await db
    .updateTable('votes')
    .set({ voter_profile: null })
    .where('voter_id', '=', voterId)
    .where('voter_profile', 'is not', null)
    .execute();
}

export interface WeightingRow {
  scope: string;
  basis: string;
  countedVotes: number;
  /** JSON. */
  weighted: string;
}

/** The weighted lines kept for these scopes of a poll ('poll', and breakdown groups): one read by key. */
export async function storedWeighting(db: Db, pollId: number, scopes: readonly string[]): Promise<WeightingRow[]> {
  const rows = await db
    .selectFrom('poll_weighting')
    .select(['scope', 'basis', 'counted_votes', 'weighted'])
    .where('poll_id', '=', pollId)
    .where('scope', 'in', scopes)
    .execute();
  return rows.map((row) => ({
    scope: row.scope,
    basis: row.basis,
    countedVotes: row.counted_votes,
    weighted: row.weighted,
  }));
}

/** Keeps computed lines; two instances computing the same poll at once write the same figures. */
export async function storeWeighting(db: Db, pollId: number, rows: WeightingRow[], now: string): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('poll_weighting')
    .values(
      rows.map((row) => ({
        poll_id: pollId,
        scope: row.scope,
        basis: row.basis,
        counted_votes: row.countedVotes,
        weighted: row.weighted,
        computed_at: now,
      })),
    )
    .onConflict((conflict) =>
      conflict.columns(['poll_id', 'scope']).doUpdateSet((eb) => ({
        basis: eb.ref('excluded.basis'),
        counted_votes: eb.ref('excluded.counted_votes'),
        weighted: eb.ref('excluded.weighted'),
        computed_at: eb.ref('excluded.computed_at'),
      })),
    )
    .execute();
}

/** Forgets a poll's computed lines: staff changed its counted votes. */
export async function forgetWeighting(db: Db, pollId: number): Promise<void> {
  await db.deleteFrom('poll_weighting').where('poll_id', '=', pollId).execute();
}
