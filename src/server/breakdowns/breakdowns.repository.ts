/** The only place SQL about poll_group_tallies (the votes trigger adds to them too) and poll_breakdowns lives. */
import { sql } from 'kysely';
import type { Db } from '../db/connection.js';
import { toIsoString } from '../db/tables.js';

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

/** A breakdown as it was published after a close (poll_breakdowns, migration 0019). */
export interface PublishedRow {
  pollId: number;
  /** The site date of the close it shows. */
  closedOn: string;
  totalVotes: number;
  setAsideVotes: number;
  /** BreakdownDimension[] as JSON. */
  dimensions: string;
  publishedAt: string;
}

const publishedColumns = [
  'poll_id',
  'closed_on',
  'total_votes',
  'set_aside_votes',
  'dimensions',
  'published_at',
] as const;

function toPublishedRow(row: {
  poll_id: number;
  closed_on: string;
  total_votes: number;
  set_aside_votes: number;
  dimensions: string;
  published_at: Date | string;
}): PublishedRow {
  return {
    pollId: row.poll_id,
    closedOn: row.closed_on,
    totalVotes: row.total_votes,
    setAsideVotes: row.set_aside_votes,
    dimensions: row.dimensions,
    publishedAt: toIsoString(row.published_at),
  };
}

/** The breakdowns published of these polls: one read by key each. */
export async function publishedBreakdowns(db: Db, pollIds: readonly number[]): Promise<Map<number, PublishedRow>> {
  if (pollIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('poll_breakdowns')
    .select(publishedColumns)
    .where('poll_id', 'in', pollIds)
    .execute();
  return new Map(rows.map((row) => [row.poll_id, toPublishedRow(row)]));
}

/**
 * Publishes a breakdown unless one of the same close or a later one is already published:
 * of several instances publishing at once, the first write wins and the others change nothing
 * (the primary key, on either database). Gives the breakdown published, whoever wrote it.
 */
export async function publishOnce(db: Db, row: PublishedRow): Promise<PublishedRow> {
  await db
    .insertInto('poll_breakdowns')
    .values({
      poll_id: row.pollId,
      closed_on: row.closedOn,
      total_votes: row.totalVotes,
      set_aside_votes: row.setAsideVotes,
      dimensions: row.dimensions,
      published_at: row.publishedAt,
    })
    .onConflict((conflict) =>
      conflict
        .column('poll_id')
        .doUpdateSet((eb) => ({
          closed_on: eb.ref('excluded.closed_on'),
          total_votes: eb.ref('excluded.total_votes'),
          set_aside_votes: eb.ref('excluded.set_aside_votes'),
          dimensions: eb.ref('excluded.dimensions'),
          published_at: eb.ref('excluded.published_at'),
        }))
        // A poll left active for another day is published again at its next close only.
        .where('poll_breakdowns.closed_on', '<', (eb) => eb.ref('excluded.closed_on')),
    )
    .execute();
  const published = (await publishedBreakdowns(db, [row.pollId])).get(row.pollId);
  if (!published) throw new Error(`the breakdown of poll ${row.pollId} was not kept`);
  return published;
}
