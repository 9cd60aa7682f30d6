/**
 * Staff review of votes in SQL: the integrity log, and the writes of a discount, a restore, a
 * release and the challenge switch. Every write here runs inside the review service's
 * transaction, after `lockTallies`. What the report reads is in review-figures.repository.ts.
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

/**
 * The partial index votes_set_aside's own condition, word for word: SQLite uses a partial index
 * only for a query that states its condition with the same literal (status = 'held' does not
 * imply it to SQLite's planner), so every query of held or discounted votes states it too.
 */
const notCounted = (column = 'status') => sql<boolean>`${sql.ref(column)} <> 'counted'`;

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
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any query of the votes table
function heldOf<Q extends { where: (...args: any[]) => Q }>(
  query: Q,
  column: (name: string) => string,
  pick: HeldPick,
): Q {
  let picked = query.where(notCounted(column('status'))).where(column('status'), '=', 'held');
  if (pick.bucket !== undefined) picked = picked.where(column('bucket'), '=', pick.bucket);
  if (pick.pageAtLeastMs !== undefined) picked = picked.where(column('page_ms'), '>=', pick.pageAtLeastMs);
  if (pick.before !== undefined) picked = picked.where(column('created_at'), '<=', pick.before);
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
    query = query
      .where(notCounted('v.status'))
      .where('v.status', '=', 'discounted')
      .where('v.discount_id', '=', votes.discountId);
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

/** Votes a change of status moves, per option and the profile copy they keep (weighting). */
export interface MovedVotes {
  option: number;
  profile: string | null;
  votes: number;
}

const movedSelect = (db: Db) =>
  db.selectFrom('votes').select((eb) => ['option_index', 'voter_profile', eb.fn.countAll<number>().as('n')]);

async function movedOf(query: ReturnType<typeof movedSelect>): Promise<MovedVotes[]> {
  const rows = await query.groupBy(['option_index', 'voter_profile']).execute();
  return rows.map((row) => ({ option: row.option_index, profile: row.voter_profile, votes: row.n }));
}

/** The counted votes of a range a discount is about to set aside. */
export function movedByDiscount(db: Db, pollId: number, range: VoteRange): Promise<MovedVotes[]> {
  return movedOf(inRange(movedSelect(db), pollId, range).where('status', '=', 'counted'));
}

/** The votes a discount holds, about to be restored (through the votes_set_aside index). */
export function movedByRestore(db: Db, pollId: number, discountId: number): Promise<MovedVotes[]> {
  return movedOf(
    movedSelect(db)
      .where('poll_id', '=', pollId)
      .where(notCounted())
      .where('status', '=', 'discounted')
      .where('discount_id', '=', discountId),
  );
}

/** The held votes a release is about to count (HeldPick). */
export function movedByRelease(db: Db, pollId: number, pick: HeldPick): Promise<MovedVotes[]> {
  return movedOf(heldOf(movedSelect(db).where('poll_id', '=', pollId), (name) => name, pick));
}

/**
 * Moves votes into the count (`counted` true: a restore, a release) or out of it (a discount):
 * the option tallies and the set-aside count change by exactly the votes moved, read in the same
 * transaction as the change, under its tally locks. So they cost what the action moves, not a
 * recount of the poll's every vote (issue 37 item 10: 1,000,000 votes).
 */
export async function moveTallies(db: Db, pollId: number, moved: MovedVotes[], counted: boolean): Promise<void> {
  const sign = counted ? 1 : -1;
  const perOption = new Map<number, number>();
  for (const { option, votes } of moved) perOption.set(option, (perOption.get(option) ?? 0) + votes);
  let total = 0;
  for (const [option, votes] of perOption) {
    total += votes;
    await db
      .updateTable('poll_options')
      .set({ vote_count: sql`vote_count + ${sign * votes}` })
      .where('poll_id', '=', pollId)
      .where('position', '=', option)
      .execute();
  }
  if (total === 0) return;
  await db
    .updateTable('polls')
    .set({ set_aside_votes: sql`set_aside_votes - ${sign * total}` })
    .where('id', '=', pollId)
    .execute();
}

/**
 * Moves the profile tallies (the weighted line's) by the votes moved, as their copies say; or,
 * when a browser was forgotten since its counted vote (`polls.profile_tallies_stale`), counts
 * them again from the copies (what a forgotten vote's tally was cannot be read from it), and
 * marks them fresh.
 */
export async function moveProfileTallies(
  db: Db,
  pollId: number,
  moved: MovedVotes[],
  counted: boolean,
  recount: (db: Db, pollId: number) => Promise<void>,
): Promise<void> {
  const poll = await db.selectFrom('polls').select('profile_tallies_stale').where('id', '=', pollId).executeTakeFirst();
  if (poll && Boolean(poll.profile_tallies_stale)) {
    await recount(db, pollId);
    await db
      .updateTable('polls')
      .set({ profile_tallies_stale: sql`false` })
      .where('id', '=', pollId)
      .execute();
    return;
  }
  const sign = counted ? 1 : -1;
  const perProfile = new Map<string, { profile: string; option: number; votes: number }>();
  for (const { option, profile, votes } of moved) {
    if (profile === null) continue;
    const key = `${profile}\u0000${option}`;
    const entry = perProfile.get(key) ?? { profile, option, votes: 0 };
    entry.votes += votes;
    perProfile.set(key, entry);
  }
  for (const { profile, option, votes } of perProfile.values()) {
    await db
      .insertInto('poll_profile_tallies')
      .values({ poll_id: pollId, voter_profile: profile, option_index: option, vote_count: sign * votes })
      .onConflict((conflict) =>
        conflict
          .columns(['poll_id', 'voter_profile', 'option_index'])
          .doUpdateSet({ vote_count: sql`poll_profile_tallies.vote_count + ${sign * votes}` }),
      )
      .execute();
  }
  // As a recount leaves them: no profile tally of no votes.
  if (!counted && perProfile.size > 0) {
    await db.deleteFrom('poll_profile_tallies').where('poll_id', '=', pollId).where('vote_count', '<=', 0).execute();
  }
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
