/** The only place SQL about poll_group_tallies lives (the votes trigger adds to them too). */
import { sql } from 'kysely';
import type { Db } from '../db/connection.js';

export interface GroupTally {
  dimension: string;
  groupValue: string;
  optionIndex: number;
  votes: number;
}

/** A poll's votes per group and option: at most options × groups rows, whatever its votes. */
export async function groupTallies(db: Db, pollId: number): Promise<GroupTally[]> {
  const rows = await db
    .selectFrom('poll_group_tallies')
    .select(['dimension', 'group_value', 'option_index', 'vote_count'])
    .where('poll_id', '=', pollId)
    .where('vote_count', '>', 0)
    .execute();
  return rows.map((row) => ({
    dimension: row.dimension,
    groupValue: row.group_value,
    optionIndex: row.option_index,
    votes: row.vote_count,
  }));
}

/** Moves one vote (on `optionIndex` of `pollId`) from each group it leaves to the one it joins. */
export async function moveVoteBetweenGroups(
  db: Db,
  vote: { pollId: number; optionIndex: number },
  moves: { dimension: string; from: string | null; to: string | null }[],
): Promise<void> {
  for (const { dimension, from, to } of moves) {
    if (from !== null) {
      await db
        .updateTable('poll_group_tallies')
        .set({ vote_count: sql`vote_count - 1` })
        .where('poll_id', '=', vote.pollId)
        .where('dimension', '=', dimension)
        .where('group_value', '=', from)
        .where('option_index', '=', vote.optionIndex)
        .execute();
    }
    if (to !== null) {
      await db
        .insertInto('poll_group_tallies')
        .values({ poll_id: vote.pollId, dimension, group_value: to, option_index: vote.optionIndex, vote_count: 1 })
        .onConflict((conflict) =>
          conflict
            .columns(['poll_id', 'dimension', 'group_value', 'option_index'])
            .doUpdateSet({ vote_count: sql`poll_group_tallies.vote_count + 1` }),
        )
        .execute();
    }
  }
}

/** The group tallies of several polls at once (the open data): options × groups rows per poll. */
export async function groupTalliesOfPolls(db: Db, pollIds: number[]): Promise<Map<number, GroupTally[]>> {
  const byPoll = new Map<number, GroupTally[]>(pollIds.map((id) => [id, []]));
  if (pollIds.length === 0) return byPoll;
  const rows = await db
    .selectFrom('poll_group_tallies')
    .select(['poll_id', 'dimension', 'group_value', 'option_index', 'vote_count'])
    .where('poll_id', 'in', pollIds)
    .where('vote_count', '>', 0)
    .execute();
  for (const row of rows) {
    byPoll.get(row.poll_id)?.push({
      dimension: row.dimension,
      groupValue: row.group_value,
      optionIndex: row.option_index,
      votes: row.vote_count,
    });
  }
  return byPoll;
}
