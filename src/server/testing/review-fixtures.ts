/**
 * Votes as the integrity detector and staff review see them (a network, signals, a status),
 * and the detector's flags, written straight into the database; and the tallies read two ways,
 * as kept and as counted from the votes, for tests of staff review.
 */
import { sql } from 'kysely';
import type { Profile } from '../../shared/profile.js';
import type { Db } from '../db/connection.js';
import type { BucketState, VoteStatus } from '../db/tables.js';
import { newVoterId } from './fixtures.js';
import { voterProfileOf } from '../weighting/profile-copy.js';

export interface ReviewVote {
  pollId: number;
  optionIndex: number;
  createdAt: string;
  status?: VoteStatus;
  bucket?: string | null;
  /** Page-to-vote time; null: no valid ballot. */
  pageMs?: number | null;
  /** Cookie age; null: issued with the vote. */
  cookieAgeS?: number | null;
  voterId?: string;
  /** Stored before the vote, so the database counts it in these groups. */
  profile?: Partial<Profile>;
}

/** Writes votes (and their voters' profiles first) as the vote path would; the triggers count them. */
export async function insertReviewVotes(db: Db, votes: ReviewVote[]): Promise<string[]> {
  const rows = votes.map((vote) => ({ ...vote, voterId: vote.voterId ?? newVoterId() }));
  const answers = rows.flatMap(({ voterId, profile, createdAt }) =>
    Object.entries(profile ?? {}).flatMap(([dimension, value]) =>
      value ? [{ voter_id: voterId, dimension, group_value: value, updated_at: createdAt }] : [],
    ),
  );
  for (let start = 0; start < answers.length; start += 500) {
    await db
      .insertInto('profile_answers')
      .values(answers.slice(start, start + 500))
      .onConflict((conflict) => conflict.columns(['voter_id', 'dimension']).doNothing())
      .execute();
  }
  for (let start = 0; start < rows.length; start += 500) {
    await db
      .insertInto('votes')
      .values(
        rows.slice(start, start + 500).map((vote) => ({
          poll_id: vote.pollId,
          voter_id: vote.voterId,
          option_index: vote.optionIndex,
          voter_email: null,
          voted_on: '2026-11-21',
          created_at: vote.createdAt,
          status: vote.status ?? 'counted',
          bucket: vote.bucket ?? null,
          page_ms: vote.pageMs === undefined ? 4_000 : vote.pageMs,
          cookie_age_s: vote.cookieAgeS === undefined ? 86_400 : vote.cookieAgeS,
          voter_profile: voterProfileOf(sql`${vote.voterId}`),
        })),
      )
      .execute();
  }
  return rows.map((row) => row.voterId);
}

/** What the detector writes when it flags a network on a poll. */
export async function flagBucket(
  db: Db,
  flag: {
    pollId: number;
    bucket: string;
    state: BucketState;
    firstFlaggedAt: string;
    updatedAt: string;
    challengedSince?: string | null;
    challengedUntil?: string | null;
    reasons?: string;
  },
): Promise<void> {
  await db
    .insertInto('integrity_buckets')
    .values({
      poll_id: flag.pollId,
      bucket: flag.bucket,
      state: flag.state,
      first_flagged_at: flag.firstFlaggedAt,
      challenged_since: flag.challengedSince ?? null,
      challenged_until: flag.challengedUntil ?? null,
      updated_at: flag.updatedAt,
      reasons: flag.reasons ?? '',
    })
    .execute();
}

export interface Tallies {
  options: number[];
  setAside: number;
  /** "dimension/group/option: votes", sorted, zeros left out. */
  groups: string[];
}

const groupLines = (rows: { dimension: string; group_value: string; option_index: number; n: number }[]) =>
  rows
    .filter((row) => row.n !== 0)
    .map((row) => `${row.dimension}/${row.group_value}/${row.option_index}: ${row.n}`)
    .sort();

/** The tallies as the database keeps them. */
export async function keptTallies(db: Db, pollId: number): Promise<Tallies> {
  const options = await db
    .selectFrom('poll_options')
    .select('vote_count')
    .where('poll_id', '=', pollId)
    .orderBy('position')
    .execute();
  const poll = await db
    .selectFrom('polls')
    .select('set_aside_votes')
    .where('id', '=', pollId)
    .executeTakeFirstOrThrow();
  const groups = await db
    .selectFrom('poll_group_tallies')
    .select(['dimension', 'group_value', 'option_index', 'vote_count as n'])
    .where('poll_id', '=', pollId)
    .execute();
  return { options: options.map((row) => row.vote_count), setAside: poll.set_aside_votes, groups: groupLines(groups) };
}

/** The tallies counted from the votes themselves: counted votes, in their voters' groups as profiles read now. */
export async function talliesFromVotes(db: Db, pollId: number, optionCount: number): Promise<Tallies> {
  const { rows: counted } = await sql<{ option_index: number; n: number }>`
    select option_index, count(*) as n from votes where poll_id = ${pollId} and status = 'counted'
    group by option_index`.execute(db);
  const { rows: setAside } = await sql<{ n: number }>`
    select count(*) as n from votes where poll_id = ${pollId} and status <> 'counted'`.execute(db);
  const { rows: groups } = await sql<{ dimension: string; group_value: string; option_index: number; n: number }>`
    select p.dimension, p.group_value, v.option_index, count(*) as n
    from votes v join profile_answers p on p.voter_id = v.voter_id
    where v.poll_id = ${pollId} and v.status = 'counted'
    group by p.dimension, p.group_value, v.option_index`.execute(db);
  const options = Array.from({ length: optionCount }, () => 0);
  for (const row of counted) options[row.option_index] = row.n;
  return { options, setAside: setAside[0]?.n ?? 0, groups: groupLines(groups) };
}
