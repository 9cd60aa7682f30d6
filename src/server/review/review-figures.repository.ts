/**
 * What the integrity report reads (review-report.ts works it into the report): a poll's votes
 * per minute, its busiest networks and their spread, each network's options, peak, median
 * page-to-vote time and detector state, a range's votes (a network's, a signal's or both), the
 * votes by status. Reads only; the writes of staff review are in review.repository.ts and
 * review-tallies.repository.ts, which take their ranges (VoteRange) from here.
 */
import { sql } from 'kysely';
import { isPostgres, type Db } from '../db/connection.js';
import { toIsoString, type BucketState, type VoteStatus } from '../db/tables.js';

/** A vote's minute, 'YYYY-MM-DDTHH:MM' in UTC, the same text from either database. */
function minuteOfVote(db: Db) {
  return isPostgres(db)
    ? sql<string>`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI')`
    : sql<string>`substr(created_at, 1, 16)`;
}

const minuteStart = (minute: string) => `${minute}:00.000Z`;

export interface MinuteCount {
  at: string;
  optionIndex: number;
  status: VoteStatus;
  votes: number;
}

/** A poll's votes per minute, option and status: at most minutes × options × 3 rows, whatever its votes. */
export async function votesPerMinute(db: Db, pollId: number): Promise<MinuteCount[]> {
  const minute = minuteOfVote(db);
  const { rows } = await sql<{ minute: string; option_index: number; status: VoteStatus; n: number }>`
    select ${minute} as minute, option_index, status, count(*) as n from votes
    where poll_id = ${pollId}
    group by ${minute}, option_index, status
    order by minute`.execute(db);
  return rows.map((row) => ({
    at: minuteStart(row.minute),
    optionIndex: row.option_index,
    status: row.status,
    votes: row.n,
  }));
}

export interface BucketTotals {
  bucket: string;
  votes: number;
  held: number;
  discounted: number;
  withoutBallot: number;
  freshCookie: number;
  firstVoteAt: string;
  lastVoteAt: string;
}

/** The `limit` networks with the most votes on a poll, most first. */
export async function topBuckets(db: Db, pollId: number, limit: number): Promise<BucketTotals[]> {
  const { rows } = await sql<{
    bucket: string;
    votes: number;
    held: number;
    discounted: number;
    without_ballot: number;
    fresh_cookie: number;
    first_at: Date | string;
    last_at: Date | string;
  }>`
    select bucket, count(*) as votes,
      sum(case when status = 'held' then 1 else 0 end) as held,
      sum(case when status = 'discounted' then 1 else 0 end) as discounted,
      sum(case when page_ms is null then 1 else 0 end) as without_ballot,
      sum(case when cookie_age_s is null then 1 else 0 end) as fresh_cookie,
      min(created_at) as first_at, max(created_at) as last_at
    from votes
    where poll_id = ${pollId} and bucket is not null
    group by bucket
    order by votes desc, bucket
    limit ${limit}`.execute(db);
  return rows.map((row) => ({
    bucket: row.bucket,
    votes: row.votes,
    held: row.held,
    discounted: row.discounted,
    withoutBallot: row.without_ballot,
    freshCookie: row.fresh_cookie,
    firstVoteAt: toIsoString(row.first_at),
    lastVoteAt: toIsoString(row.last_at),
  }));
}

/** How many networks a poll's votes came from, and how many votes have none. */
export async function bucketSpread(
  db: Db,
  pollId: number,
): Promise<{ buckets: number; votesWithBucket: number; votesWithoutBucket: number }> {
  const row = await db
    .selectFrom('votes')
    .select((eb) => [
      eb.fn.count<number>('bucket').distinct().as('buckets'),
      eb.fn.count<number>('bucket').as('with_bucket'),
      eb.fn.countAll<number>().as('all_votes'),
    ])
    .where('poll_id', '=', pollId)
    .executeTakeFirstOrThrow();
  return {
    buckets: row.buckets,
    votesWithBucket: row.with_bucket,
    votesWithoutBucket: row.all_votes - row.with_bucket,
  };
}

export interface BucketOptionCount {
  bucket: string;
  optionIndex: number;
  status: VoteStatus;
  votes: number;
}

/** The votes of these networks per option and status. */
export async function bucketOptionCounts(db: Db, pollId: number, buckets: string[]): Promise<BucketOptionCount[]> {
  if (buckets.length === 0) return [];
  const rows = await db
    .selectFrom('votes')
    .select((eb) => ['bucket', 'option_index', 'status', eb.fn.countAll<number>().as('n')])
    .where('poll_id', '=', pollId)
    .where('bucket', 'in', buckets)
    .groupBy(['bucket', 'option_index', 'status'])
    .execute();
  return rows.map((row) => ({
    bucket: row.bucket ?? '',
    optionIndex: row.option_index,
    status: row.status,
    votes: row.n,
  }));
}

/** The busiest minute of each of these networks. */
export async function bucketPeaks(db: Db, pollId: number, buckets: string[]): Promise<Map<string, number>> {
  if (buckets.length === 0) return new Map();
  const minute = minuteOfVote(db);
  const { rows } = await sql<{ bucket: string; peak: number }>`
    select bucket, max(n) as peak from (
      select bucket, ${minute} as minute, count(*) as n from votes
      where poll_id = ${pollId} and bucket in (${sql.join(buckets)})
      group by bucket, ${minute}
    ) per_minute
    group by bucket`.execute(db);
  return new Map(rows.map((row) => [row.bucket, row.peak]));
}

/** The median page-to-vote time of a network's votes that carried a ballot (`withBallot` of them). */
export async function medianPageMs(db: Db, pollId: number, bucket: string, withBallot: number): Promise<number | null> {
  if (withBallot === 0) return null;
  const middle = await db
    .selectFrom('votes')
    .select('page_ms')
    .where('poll_id', '=', pollId)
    .where('bucket', '=', bucket)
    .where('page_ms', 'is not', null)
    .orderBy('page_ms')
    .limit(withBallot % 2 === 0 ? 2 : 1)
    .offset(Math.floor((withBallot - 1) / 2))
    .execute();
  const values = middle.map((row) => row.page_ms ?? 0);
  if (values.length === 0) return null;
  return Math.round(values.reduce((a, b) => a + b, 0) / values.length);
}

export interface BucketStateRow {
  bucket: string;
  state: BucketState;
  firstFlaggedAt: string;
  challengedSince: string | null;
  challengedUntil: string | null;
  updatedAt: string;
  reasons: string[];
}

/** What the detector last judged of each flagged network of a poll, first flagged first. */
export async function bucketStates(db: Db, pollId: number): Promise<BucketStateRow[]> {
  const rows = await db
    .selectFrom('integrity_buckets')
    .selectAll()
    .where('poll_id', '=', pollId)
    .orderBy('first_flagged_at')
    .orderBy('bucket')
    .execute();
  return rows.map((row) => ({
    bucket: row.bucket,
    state: row.state,
    firstFlaggedAt: toIsoString(row.first_flagged_at),
    challengedSince: row.challenged_since === null ? null : toIsoString(row.challenged_since),
    challengedUntil: row.challenged_until === null ? null : toIsoString(row.challenged_until),
    updatedAt: toIsoString(row.updated_at),
    reasons: row.reasons.split(',').filter((reason) => reason !== ''),
  }));
}

export interface RangeCounts {
  /** Per option, by status. */
  counts: { optionIndex: number; status: VoteStatus; votes: number }[];
  firstVoteAt: string | null;
  lastVoteAt: string | null;
}

/**
 * Votes between two instants (both included) of one network, or with one signal, or both: a
 * discount's pick. A vote's signals are emptied with its network after 30 days, so an old
 * vote has none.
 */
export interface VoteRange {
  bucket?: string | undefined;
  signal?: DiscountSignal | undefined;
  from: string;
  to: string;
}

export type DiscountSignal = 'first-time' | 'no-page';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any query of the votes table
export function inRange<Q extends { where: (...args: any[]) => Q }>(query: Q, pollId: number, range: VoteRange): Q {
  let picked = query
    .where('poll_id', '=', pollId)
    .where('created_at', '>=', range.from)
    .where('created_at', '<=', range.to);
  if (range.bucket !== undefined) picked = picked.where('bucket', '=', range.bucket);
  if (range.signal === 'first-time') picked = picked.where('bucket', 'is not', null).where('cookie_age_s', 'is', null);
  if (range.signal === 'no-page') picked = picked.where('bucket', 'is not', null).where('page_ms', 'is', null);
  return picked;
}

/** The votes of a range (VoteRange) per option and status. */
export async function votesInRange(db: Db, pollId: number, range: VoteRange): Promise<RangeCounts> {
  const rows = await inRange(
    db
      .selectFrom('votes')
      .select((eb) => [
        'option_index',
        'status',
        eb.fn.countAll<number>().as('n'),
        eb.fn.min('created_at').as('first_at'),
        eb.fn.max('created_at').as('last_at'),
      ]),
    pollId,
    range,
  )
    .groupBy(['option_index', 'status'])
    .execute();
  const firsts = rows.map((row) => toIsoString(row.first_at)).sort();
  const lasts = rows.map((row) => toIsoString(row.last_at)).sort();
  return {
    counts: rows.map((row) => ({ optionIndex: row.option_index, status: row.status, votes: row.n })),
    firstVoteAt: firsts[0] ?? null,
    lastVoteAt: lasts.at(-1) ?? null,
  };
}

/** Whether staff asked every vote on the poll for a proof of work. */
export async function challengesEveryone(db: Db, pollId: number): Promise<boolean> {
  const row = await db.selectFrom('polls').select('challenge_everyone').where('id', '=', pollId).executeTakeFirst();
  return Boolean(row?.challenge_everyone);
}

/** Votes of a poll by status. */
export async function votesByStatus(db: Db, pollId: number): Promise<Record<VoteStatus, number>> {
  const rows = await db
    .selectFrom('votes')
    .select((eb) => ['status', eb.fn.countAll<number>().as('n')])
    .where('poll_id', '=', pollId)
    .groupBy('status')
    .execute();
  const counts: Record<VoteStatus, number> = { counted: 0, held: 0, discounted: 0 };
  for (const row of rows) counts[row.status] = row.n;
  return counts;
}
