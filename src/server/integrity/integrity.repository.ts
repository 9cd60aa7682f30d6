/** The SQL of the vote path's integrity: the day's bucket key, a bucket's recent votes, bucket states. */
import { sql } from 'kysely';
import type { Db } from '../db/connection.js';
import { toIsoString, type BucketState } from '../db/tables.js';
import type { PollVote, RecentVote } from './detector.js';

/** The bucket key of a site day: the one stored, or `candidate` if this instance is the first to need it. */
export async function dayKey(db: Db, day: string, candidate: string): Promise<string> {
  await db
    .insertInto('integrity_keys')
    .values({ day, key: candidate })
    .onConflict((conflict) => conflict.column('day').doNothing())
    .execute();
  const row = await db.selectFrom('integrity_keys').select('key').where('day', '=', day).executeTakeFirstOrThrow();
  return row.key;
}

/** Deletes the keys of days before `day`: their buckets then link to no address. */
export async function deleteKeysBefore(db: Db, day: string): Promise<number> {
  const result = await db.deleteFrom('integrity_keys').where('day', '<', day).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * The retention of a poll's integrity data (issue 37, item 9), once per poll, for the polls that
 * went live before `day` and were not purged yet (found through the partial index
 * polls_integrity_unpurged, not by reading every old poll): empties the signal columns
 * (bucket, page time, cookie age) of its votes, deletes its held and discounted votes (in no
 * figure; after this nobody can release or restore them, and the count set aside stays as it
 * was at the close) and its networks' states. At most `limit` polls a run. Gives the polls purged.
 */
export async function purgeIntegrityBefore(db: Db, day: string, limit = 50): Promise<number> {
  const polls = await oldUnpurgedPolls(db, day, limit);
  for (const pollId of polls) {
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('votes').where('poll_id', '=', pollId).where('status', '<>', 'counted').execute();
      await trx
        .updateTable('votes')
        .set({ bucket: null, page_ms: null, cookie_age_s: null })
        .where('poll_id', '=', pollId)
        .execute();
      await trx.deleteFrom('integrity_buckets').where('poll_id', '=', pollId).execute();
      await trx
        .updateTable('polls')
        .set({ integrity_purged: sql`true` })
        .where('id', '=', pollId)
        .execute();
    });
  }
  return polls.length;
}

/** The statement that finds the polls to purge, for the purge and its query plan's test. */
export function oldUnpurgedPollsQuery(db: Db, day: string, limit: number) {
  return db
    .selectFrom('polls')
    .select('id')
    .where(sql<boolean>`not integrity_purged`)
    .where('live_date', '<', day)
    .orderBy('live_date')
    .limit(limit);
}

async function oldUnpurgedPolls(db: Db, day: string, limit: number): Promise<number[]> {
  return (await oldUnpurgedPollsQuery(db, day, limit).execute()).map((row) => row.id);
}

/** A vote's row as the detector reads it. */
const toRecentVote = (row: {
  option_index: number;
  created_at: Date | string;
  page_ms: number | null;
  status: string;
  cookie_age_s: number | null;
}): RecentVote & { counted: boolean } => ({
  optionIndex: row.option_index,
  at: new Date(toIsoString(row.created_at)).getTime(),
  pageMs: row.page_ms,
  firstTime: row.cookie_age_s === null,
  counted: row.status === 'counted',
});

/** A bucket's votes on a poll since `since`, newest first, at most `limit` (any status). */
export async function recentBucketVotes(
  db: Db,
  pollId: number,
  bucket: string,
  since: Date,
  limit: number,
): Promise<(RecentVote & { counted: boolean })[]> {
  const rows = await db
    .selectFrom('votes')
    .select(['option_index', 'created_at', 'page_ms', 'status', 'cookie_age_s'])
    .where('poll_id', '=', pollId)
    .where('bucket', '=', bucket)
    .where('created_at', '>', since.toISOString())
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
  return rows.map(toRecentVote);
}

/**
 * A poll's newest votes since `since`, newest first, at most `limit` (any status): read along
 * the poll's index by id (votes arrive in order), so a surge judgement reads no more than that.
 */
export async function recentPollVotes(
  db: Db,
  pollId: number,
  since: Date,
  limit: number,
): Promise<(PollVote & { counted: boolean })[]> {
  const rows = await db
    .selectFrom('votes')
    .select(['option_index', 'created_at', 'page_ms', 'status', 'cookie_age_s', 'bucket'])
    .where('poll_id', '=', pollId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  const sinceMs = since.getTime();
  return rows.map((row) => ({ ...toRecentVote(row), bucket: row.bucket })).filter((vote) => vote.at > sinceMs);
}

/** Whether this browser voted on another poll than `pollId` (one indexed probe of the per-voter key). */
export async function votedOnAnotherPoll(db: Db, voterId: string, pollId: number): Promise<boolean> {
  const row = await db
    .selectFrom('votes')
    .select('poll_id')
    .where('voter_id', '=', voterId)
    .where('poll_id', '<>', pollId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Every option's counted votes (the tallies). */
export async function countedPerOption(db: Db, pollId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('poll_options')
    .select(['position', 'vote_count'])
    .where('poll_id', '=', pollId)
    .orderBy('position')
    .execute();
  return rows.map((row) => row.vote_count);
}

export interface BucketRow {
  state: BucketState;
  firstFlaggedAt: number;
  challengedSince: number | null;
  challengedUntil: number | null;
}

const timeOf = (value: Date | string | null) => (value === null ? null : new Date(toIsoString(value)).getTime());

export async function findBucket(db: Db, pollId: number, bucket: string): Promise<BucketRow | undefined> {
  const row = await db
    .selectFrom('integrity_buckets')
    .select(['state', 'first_flagged_at', 'challenged_since', 'challenged_until'])
    .where('poll_id', '=', pollId)
    .where('bucket', '=', bucket)
    .executeTakeFirst();
  return (
    row && {
      state: row.state,
      firstFlaggedAt: timeOf(row.first_flagged_at) ?? 0,
      challengedSince: timeOf(row.challenged_since),
      challengedUntil: timeOf(row.challenged_until),
    }
  );
}

/**
 * Writes a bucket's verdict. Conditional (issue 37 item 8): instances judge one bucket at once,
 * each from its own read, so a write never downgrades a challenge still running when it lands
 * (a stale "watch" over a fresh challenge), never moves a running challenge's start later (its
 * level) nor its end earlier, and keeps the first flag's time. Each right-hand side reads the
 * row as it was before this update, on both databases.
 */
export async function saveBucket(
  db: Db,
  pollId: number,
  bucket: string,
  row: BucketRow & { reasons: string },
  now: number,
): Promise<void> {
  const iso = (time: number | null) => (time === null ? null : new Date(time).toISOString());
  const values = {
    state: row.state,
    first_flagged_at: new Date(row.firstFlaggedAt).toISOString(),
    challenged_since: iso(row.challengedSince),
    challenged_until: iso(row.challengedUntil),
    updated_at: new Date(now).toISOString(),
    reasons: row.reasons,
  };
  const running = sql`(integrity_buckets.state = 'challenge' and integrity_buckets.challenged_until > excluded.updated_at)`;
  await db
    .insertInto('integrity_buckets')
    .values({ poll_id: pollId, bucket, ...values })
    .onConflict((conflict) =>
      conflict.columns(['poll_id', 'bucket']).doUpdateSet({
        state: sql`case when ${running} then integrity_buckets.state else excluded.state end`,
        challenged_since: sql`case when ${running} then integrity_buckets.challenged_since else excluded.challenged_since end`,
        challenged_until: sql`case when ${running} and (excluded.challenged_until is null
          or excluded.challenged_until < integrity_buckets.challenged_until)
          then integrity_buckets.challenged_until else excluded.challenged_until end`,
        reasons: sql`case when ${running} and excluded.state <> 'challenge' then integrity_buckets.reasons else excluded.reasons end`,
        updated_at: sql`excluded.updated_at`,
      }),
    )
    .execute();
}

/** The buckets under challenge on a poll at `now`, with when each challenge began, and the poll's switch. */
export async function challengesOf(
  db: Db,
  pollId: number,
  now: Date,
): Promise<{ everyone: boolean; buckets: Map<string, number> }> {
  const [poll, rows] = await Promise.all([
    db.selectFrom('polls').select('challenge_everyone').where('id', '=', pollId).executeTakeFirst(),
    db
      .selectFrom('integrity_buckets')
      .select(['bucket', 'challenged_since'])
      .where('poll_id', '=', pollId)
      .where('state', '=', 'challenge')
      .where('challenged_until', '>', now.toISOString())
      .execute(),
  ]);
  return {
    everyone: Boolean(poll?.challenge_everyone),
    buckets: new Map(rows.map((row) => [row.bucket, timeOf(row.challenged_since) ?? now.getTime()])),
  };
}
