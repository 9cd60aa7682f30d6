import type { Kysely } from 'kysely';
import { columnTypes } from './column-types.js';

/**
 * Breakdowns published once (issue 34, items 13 and 14). poll_breakdowns holds, per poll, the
 * breakdown as it was first published after a close: its groups' counts already rounded and
 * suppressed, with their weighted lines, and the poll's own totals at that moment. Every reader
 * (the API, the pages, the open data) shows this row, so a staff change after the close (a
 * release, a discount) or a profile change cannot move a group's published figures.
 *
 * `closed_on` is the site date of the close it shows: a poll that stays active for another day
 * (nothing was scheduled) is published again at its next close. The primary key makes the first
 * publication of each close the only one, whichever instance writes first.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('poll_breakdowns')
    .addColumn('poll_id', 'integer', (c) => c.primaryKey().references('polls.id').onDelete('cascade'))
    .addColumn('closed_on', 'text', (c) => c.notNull())
    .addColumn('total_votes', 'integer', (c) => c.notNull())
    .addColumn('set_aside_votes', 'integer', (c) => c.notNull())
    /** The published BreakdownDimension[], as JSON. */
    .addColumn('dimensions', 'text', (c) => c.notNull())
    .addColumn('published_at', t.timestamp, (c) => c.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('poll_breakdowns').execute();
}
