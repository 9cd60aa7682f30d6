/**
 * What a staff review action does to a poll's tallies, in SQL: their locks, the group tallies
 * (the breakdowns) a discount takes from and a restore or release gives to, and the option,
 * set-aside and profile tallies moved by exactly the votes an action moves. Runs inside the
 * review service's transaction; which votes change status is in review.repository.ts.
 */
import { sql } from 'kysely';
import { isPostgres, type Db } from '../db/connection.js';
import { inRange, type VoteRange } from './review-figures.repository.js';
import { heldOf, notCounted, type GroupChange, type HeldPick } from './review.repository.js';

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
