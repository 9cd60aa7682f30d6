/**
 * The only place SQL about staff review of votes lives: what the integrity report reads, and
 * the writes of a discount, a restore, a release and the challenge switch. Every write here
 * runs inside the review service's transaction, after `lockTallies`.
 */
import { sql } from 'kysely';
import { isPostgres, type Db } from '../db/connection.js';
import { toIsoString, type BucketState, type IntegrityActionKind, type VoteStatus } from '../db/tables.js';

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
function inRange<Q extends { where: (...args: any[]) => Q }>(query: Q, pollId: number, range: VoteRange): Q {
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

/** One change to a group tally: + gave votes back (or added released ones), − took them away. */
export interface GroupChange {
  dimension: string;
  group: string;
  option: number;
  votes: number;
}

export interface ActionRow {
  id: number;
  pollId: number;
  kind: IntegrityActionKind;
  bucket: string | null;
  from: string | null;
  to: string | null;
  reason: string;
  votes: number;
  actor: string;
  undoesId: number | null;
  groupChanges: GroupChange[];
  createdAt: string;
}

function actionFromRow(row: {
  id: number;
  poll_id: number;
  kind: IntegrityActionKind;
  bucket: string | null;
  from_at: Date | string | null;
  to_at: Date | string | null;
  reason: string;
  votes: number;
  actor: string;
  undoes_id: number | null;
  group_changes: string;
  created_at: Date | string;
}): ActionRow {
  return {
    id: row.id,
    pollId: row.poll_id,
    kind: row.kind,
    bucket: row.bucket,
    from: row.from_at === null ? null : toIsoString(row.from_at),
    to: row.to_at === null ? null : toIsoString(row.to_at),
    reason: row.reason,
    votes: row.votes,
    actor: row.actor,
    undoesId: row.undoes_id,
    groupChanges: JSON.parse(row.group_changes) as GroupChange[],
    createdAt: toIsoString(row.created_at),
  };
}

/** A poll's integrity log, newest first. */
export async function actionsOf(db: Db, pollId: number): Promise<ActionRow[]> {
  const rows = await db
    .selectFrom('integrity_actions')
    .selectAll()
    .where('poll_id', '=', pollId)
    .orderBy('id', 'desc')
    .execute();
  return rows.map(actionFromRow);
}

export async function findAction(db: Db, pollId: number, id: number): Promise<ActionRow | undefined> {
  const row = await db
    .selectFrom('integrity_actions')
    .selectAll()
    .where('poll_id', '=', pollId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row && actionFromRow(row);
}

/** The restore that undid a discount, if one has. */
export async function findRestoreOf(db: Db, pollId: number, discountId: number): Promise<number | undefined> {
  const row = await db
    .selectFrom('integrity_actions')
    .select('id')
    .where('poll_id', '=', pollId)
    .where('kind', '=', 'restore')
    .where('undoes_id', '=', discountId)
    .executeTakeFirst();
  return row?.id;
}

/**
 * Appends to the log. A discount's and a release's vote count and group changes are only known
 * once its votes are changed, so they are filled in by `completeAction`, in the same
 * transaction: nobody ever reads the row unfinished.
 */
export async function insertAction(
  db: Db,
  action: Omit<ActionRow, 'id' | 'groupChanges'> & { groupChanges?: GroupChange[] },
): Promise<number> {
  const row = await db
    .insertInto('integrity_actions')
    .values({
      poll_id: action.pollId,
      kind: action.kind,
      bucket: action.bucket,
      from_at: action.from,
      to_at: action.to,
      reason: action.reason,
      votes: action.votes,
      actor: action.actor,
      undoes_id: action.undoesId,
      group_changes: JSON.stringify(action.groupChanges ?? []),
      created_at: action.createdAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function completeAction(db: Db, id: number, votes: number, groupChanges: GroupChange[]): Promise<void> {
  await db
    .updateTable('integrity_actions')
    .set({ votes, group_changes: JSON.stringify(groupChanges) })
    .where('id', '=', id)
    .execute();
}

/**
 * Takes the locks of a change to a poll's tallies, in the order the vote triggers take them
 * (option tallies, group tallies, the poll's row: migration 0010), so votes arriving meanwhile
 * wait for the change instead of deadlocking with it, and the recount that follows sees every
 * vote committed before it. SQLite's transactions hold the write lock from their start already.
 */
export async function lockTallies(db: Db, pollId: number): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`select position from poll_options where poll_id = ${pollId} order by position for update`.execute(db);
  await sql`select option_index from poll_group_tallies where poll_id = ${pollId}
    order by dimension, group_value, option_index for update`.execute(db);
  await sql`select id from polls where id = ${pollId} for update`.execute(db);
}

/** Sets the counted votes of a range (VoteRange) aside under `discountId`; gives how many. */
export async function discountVotes(db: Db, pollId: number, range: VoteRange, discountId: number): Promise<number> {
  const result = await inRange(
    db.updateTable('votes').set({ status: 'discounted', discount_id: discountId }),
    pollId,
    range,
  )
    .where('status', '=', 'counted')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Counts the votes a discount still holds again; gives how many. */
export async function restoreVotes(db: Db, pollId: number, discountId: number): Promise<number> {
  const result = await db
    .updateTable('votes')
    .set({ status: 'counted', discount_id: null })
    .where('poll_id', '=', pollId)
    .where('status', '=', 'discounted')
    .where('discount_id', '=', discountId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Which held votes a release counts: one network's or all, and, for the release when a
 * challenge ends (review.service.ts), only those cast from a page read for at least
 * `pageAtLeastMs` before `before`: a vote with no anomaly of its own.
 */
export interface HeldPick {
  bucket: string | undefined;
  pageAtLeastMs?: number;
  before?: string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any query of the votes table
function heldOf<Q extends { where: (...args: any[]) => Q }>(
  query: Q,
  column: (name: string) => string,
  pick: HeldPick,
): Q {
  let picked = query.where(column('status'), '=', 'held');
  if (pick.bucket !== undefined) picked = picked.where(column('bucket'), '=', pick.bucket);
  if (pick.pageAtLeastMs !== undefined) picked = picked.where(column('page_ms'), '>=', pick.pageAtLeastMs);
  if (pick.before !== undefined) picked = picked.where(column('created_at'), '<=', pick.before);
  return picked;
}

/** Counts a poll's held votes (HeldPick); gives how many. */
export async function releaseVotes(db: Db, pollId: number, pick: HeldPick): Promise<number> {
  const query = db.updateTable('votes').set({ status: 'counted' }).where('poll_id', '=', pollId);
  const result = await heldOf(query, (name) => name, pick).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** How many held votes a release would count (HeldPick). */
export async function countHeld(db: Db, pollId: number, pick: HeldPick): Promise<number> {
  const query = db
    .selectFrom('votes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('poll_id', '=', pollId);
  const row = await heldOf(query, (name) => name, pick).executeTakeFirstOrThrow();
  return row.n;
}

/**
 * The networks whose challenge ended between `since` and `now` (the release when a challenge
 * ends looks at these), on polls still taking votes or not.
 */
export async function endedChallenges(
  db: Db,
  since: string,
  now: string,
): Promise<{ pollId: number; bucket: string; until: string }[]> {
  const rows = await db
    .selectFrom('integrity_buckets')
    .select(['poll_id', 'bucket', 'challenged_until'])
    .where('state', '=', 'challenge')
    .where('challenged_until', '>', since)
    .where('challenged_until', '<=', now)
    .execute();
  return rows.map((row) => ({
    pollId: row.poll_id,
    bucket: row.bucket,
    until: toIsoString(row.challenged_until ?? now),
  }));
}

/**
 * The groups of these votes' voters, as their profiles say now, with how many of the votes
 * fall in each group and option: the votes a discount holds, or the held votes about to be
 * released.
 */
export async function groupsOfVotes(
  db: Db,
  pollId: number,
  votes: { discountId: number } | ({ held: true } & HeldPick),
): Promise<GroupChange[]> {
  let query = db
    .selectFrom('votes as v')
    .innerJoin('profile_answers as p', 'p.voter_id', 'v.voter_id')
    .select((eb) => ['p.dimension', 'p.group_value', 'v.option_index', eb.fn.countAll<number>().as('n')])
    .where('v.poll_id', '=', pollId);
  if ('discountId' in votes) {
    query = query.where('v.status', '=', 'discounted').where('v.discount_id', '=', votes.discountId);
  } else {
    query = heldOf(query, (name) => `v.${name}`, votes);
  }
  const rows = await query
    .groupBy(['p.dimension', 'p.group_value', 'v.option_index'])
    .orderBy('p.dimension')
    .orderBy('p.group_value')
    .orderBy('v.option_index')
    .execute();
  return rows.map((row) => ({
    dimension: row.dimension,
    group: row.group_value,
    option: row.option_index,
    votes: row.n,
  }));
}

/**
 * Takes votes out of a poll's group tallies, never below zero: a voter who changed their profile
 * since voting on a past poll is counted in the group they were in then, which a profile read
 * now may not name. Gives what was taken (negative votes), to be given back exactly on restore.
 */
export async function takeFromGroups(db: Db, pollId: number, wanted: GroupChange[]): Promise<GroupChange[]> {
  if (wanted.length === 0) return [];
  const rows = await db
    .selectFrom('poll_group_tallies')
    .select(['dimension', 'group_value', 'option_index', 'vote_count'])
    .where('poll_id', '=', pollId)
    .execute();
  const tallies = new Map(
    rows.map((row) => [`${row.dimension}\u0000${row.group_value}\u0000${row.option_index}`, row]),
  );
  const taken: GroupChange[] = [];
  for (const change of wanted) {
    const tally = tallies.get(`${change.dimension}\u0000${change.group}\u0000${change.option}`);
    const votes = Math.min(change.votes, tally?.vote_count ?? 0);
    if (votes <= 0) continue;
    await db
      .updateTable('poll_group_tallies')
      .set({ vote_count: sql`vote_count - ${votes}` })
      .where('poll_id', '=', pollId)
      .where('dimension', '=', change.dimension)
      .where('group_value', '=', change.group)
      .where('option_index', '=', change.option)
      .execute();
    taken.push({ ...change, votes: -votes });
  }
  return taken;
}

/** Adds votes to a poll's group tallies (a restore giving back what its discount took, or a release). */
export async function addToGroups(db: Db, pollId: number, changes: GroupChange[]): Promise<void> {
  for (const change of changes) {
    if (change.votes <= 0) continue;
    await db
      .insertInto('poll_group_tallies')
      .values({
        poll_id: pollId,
        dimension: change.dimension,
        group_value: change.group,
        option_index: change.option,
        vote_count: change.votes,
      })
      .onConflict((conflict) =>
        conflict
          .columns(['poll_id', 'dimension', 'group_value', 'option_index'])
          .doUpdateSet({ vote_count: sql`poll_group_tallies.vote_count + ${change.votes}` }),
      )
      .execute();
  }
}

/**
 * Counts a poll's option tallies and set-aside votes again from its votes' statuses. The
 * triggers keep them for votes as they arrive; a change of status is this.
 */
export async function recountTallies(db: Db, pollId: number): Promise<void> {
  await sql`update poll_options set vote_count = (
      select count(*) from votes v
      where v.poll_id = poll_options.poll_id and v.option_index = poll_options.position and v.status = 'counted'
    ) where poll_id = ${pollId}`.execute(db);
  await sql`update polls set set_aside_votes = (
      select count(*) from votes v where v.poll_id = polls.id and v.status <> 'counted'
    ) where id = ${pollId}`.execute(db);
}

/** Turns the poll's challenge for everyone on or off; false when it already was so. */
export async function setChallengeEveryone(db: Db, pollId: number, on: boolean): Promise<boolean> {
  // better-sqlite3 binds no booleans: SQLite keeps them as 0 and 1.
  const value = isPostgres(db) ? on : Number(on);
  const result = await db
    .updateTable('polls')
    .set({ challenge_everyone: value })
    .where('id', '=', pollId)
    .where('challenge_everyone', '<>', value)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
