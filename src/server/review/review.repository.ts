/**
 * Staff review of votes in SQL: the integrity log, the status changes of a discount, a restore
 * and a release, the networks a release looks at, and the challenge switch. Every write here
 * runs inside the review service's transaction, after `lockTallies`; what those changes do to
 * the tallies is in review-tallies.repository.ts, what the report reads in
 * review-figures.repository.ts.
 */
import { sql } from 'kysely';
import { isPostgres, type Db } from '../db/connection.js';
import { toIsoString, type IntegrityActionKind } from '../db/tables.js';
import { inRange, type VoteRange } from './review-figures.repository.js';

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
 * The partial index votes_set_aside's own condition, word for word: SQLite uses a partial index
 * only for a query that states its condition with the same literal (status = 'held' does not
 * imply it to SQLite's planner), so every query of held or discounted votes states it too.
 */
export const notCounted = (column = 'status') => sql<boolean>`${sql.ref(column)} <> 'counted'`;

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

/** The statement that counts a discount's votes again, for restoreVotes and its query plan's test. */
export function restoreVotesQuery(db: Db, pollId: number, discountId: number) {
  return db
    .updateTable('votes')
    .set({ status: 'counted', discount_id: null })
    .where('poll_id', '=', pollId)
    .where(notCounted())
    .where('status', '=', 'discounted')
    .where('discount_id', '=', discountId);
}

/** Counts the votes a discount still holds again; gives how many. */
export async function restoreVotes(db: Db, pollId: number, discountId: number): Promise<number> {
  const result = await restoreVotesQuery(db, pollId, discountId).executeTakeFirst();
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
  /** One browser's held vote (a proof of work sent after it). */
  voterId?: string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any query of the votes table
export function heldOf<Q extends { where: (...args: any[]) => Q }>(
  query: Q,
  column: (name: string) => string,
  pick: HeldPick,
): Q {
  let picked = query.where(notCounted(column('status'))).where(column('status'), '=', 'held');
  if (pick.bucket !== undefined) picked = picked.where(column('bucket'), '=', pick.bucket);
  if (pick.pageAtLeastMs !== undefined) picked = picked.where(column('page_ms'), '>=', pick.pageAtLeastMs);
  if (pick.before !== undefined) picked = picked.where(column('created_at'), '<=', pick.before);
  if (pick.voterId !== undefined) picked = picked.where(column('voter_id'), '=', pick.voterId);
  return picked;
}

/** The statement that counts a poll's held votes (HeldPick), for releaseVotes and its query plan's test. */
export function releaseVotesQuery(db: Db, pollId: number, pick: HeldPick) {
  return heldOf(db.updateTable('votes').set({ status: 'counted' }).where('poll_id', '=', pollId), (name) => name, pick);
}

/** Counts a poll's held votes (HeldPick); gives how many. */
export async function releaseVotes(db: Db, pollId: number, pick: HeldPick): Promise<number> {
  const result = await releaseVotesQuery(db, pollId, pick).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** A poll's held votes per option (HeldPick), by option index. */
export async function heldPerOption(db: Db, pollId: number, pick: HeldPick): Promise<number[]> {
  const query = db
    .selectFrom('votes')
    .select((eb) => ['option_index', eb.fn.countAll<number>().as('n')])
    .where('poll_id', '=', pollId);
  const rows = await heldOf(query, (name) => name, pick)
    .groupBy('option_index')
    .execute();
  const options = Math.max(0, ...rows.map((row) => row.option_index + 1));
  const perOption = Array.from({ length: options }, () => 0);
  for (const row of rows) perOption[row.option_index] = row.n;
  return perOption;
}

/** Everyone else's counted votes per option: the poll's tallies less one network's counted votes. */
export async function countedOutside(db: Db, pollId: number, bucket: string): Promise<number[]> {
  const tallies = await db
    .selectFrom('poll_options')
    .select(['position', 'vote_count'])
    .where('poll_id', '=', pollId)
    .orderBy('position')
    .execute();
  const own = await db
    .selectFrom('votes')
    .select((eb) => ['option_index', eb.fn.countAll<number>().as('n')])
    .where('poll_id', '=', pollId)
    .where('bucket', '=', bucket)
    .where('status', '=', 'counted')
    .groupBy('option_index')
    .execute();
  const rest = tallies.map((row) => row.vote_count);
  for (const row of own) rest[row.option_index] = Math.max(0, (rest[row.option_index] ?? 0) - row.n);
  return rest;
}

/** The networks a poll challenged (its surge, a network of its own name, left out by the caller). */
export async function challengedBuckets(db: Db, pollId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('integrity_buckets')
    .select('bucket')
    .where('poll_id', '=', pollId)
    .where('state', '=', 'challenge')
    .orderBy('bucket')
    .execute();
  return rows.map((row) => row.bucket);
}

/** The poll that went live on a day, if any. */
export async function pollOfDay(db: Db, day: string): Promise<number | undefined> {
  const row = await db.selectFrom('polls').select('id').where('live_date', '=', day).executeTakeFirst();
  return row?.id;
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
