import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../connection.js';
import { columnTypes } from './column-types.js';

/**
 * "Teachers like me": the optional anonymous profile, results by group, and questions asked
 * again.
 *
 * - profile_answers holds a browser's answers, one row per dimension answered (role, grade
 *   band, region, experience), each an id from a fixed list in src/shared/profile.ts.
 * - poll_group_tallies counts each poll's votes per group and option, as the voters described
 *   themselves when they voted: a breakdown reads at most options × groups rows, whatever the
 *   number of votes, and a past poll's breakdown never changes when someone edits a profile.
 *   A trigger adds each new vote to the tallies of its voter's groups, in the vote's own
 *   statement. Votes are never updated or deleted one by one (a deleted poll takes its votes
 *   and tallies with it), so an insert trigger is all it takes.
 *   Both are read and written by their primary key alone, so on SQLite they are WITHOUT ROWID
 *   tables: one B-tree each instead of a table and its key's index, which is one page less
 *   for every vote to write.
 *   There is no copy of the profile on the vote row: nothing stored ties a profile to the time
 *   of a single vote or to the e-mail on it.
 * - polls.series_id links the runs of a question asked again (the id of its first run), and
 *   polls.asked_before_id the run a poll was linked to, as staff entered it.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  const keyOnly = isPostgres(db) ? sql`` : sql`without rowid`;

  await db.schema
    .createTable('profile_answers')
    .addColumn('voter_id', 'text', (c) => c.notNull())
    .addColumn('dimension', 'text', (c) => c.notNull())
    .addColumn('group_value', 'text', (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('profile_answers_pk', ['voter_id', 'dimension'])
    .modifyEnd(keyOnly)
    .execute();

  await db.schema
    .createTable('poll_group_tallies')
    .addColumn('poll_id', 'integer', (c) => c.notNull().references('polls.id').onDelete('cascade'))
    .addColumn('dimension', 'text', (c) => c.notNull())
    .addColumn('group_value', 'text', (c) => c.notNull())
    .addColumn('option_index', 'integer', (c) => c.notNull())
    .addColumn('vote_count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('poll_group_tallies_pk', ['poll_id', 'dimension', 'group_value', 'option_index'])
    .modifyEnd(keyOnly)
    .execute();

  await db.schema
    .alterTable('polls')
    .addColumn('series_id', 'integer', (c) => c.references('polls.id').onDelete('set null'))
    .execute();
  await db.schema
    .alterTable('polls')
    .addColumn('asked_before_id', 'integer', (c) => c.references('polls.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('polls_series').on('polls').column('series_id').execute();

  const countVote = sql`insert into poll_group_tallies (poll_id, dimension, group_value, option_index, vote_count)
    select new.poll_id, dimension, group_value, new.option_index, 1 from profile_answers where voter_id = new.voter_id
    on conflict (poll_id, dimension, group_value, option_index)
    do update set vote_count = poll_group_tallies.vote_count + 1;`;
  if (isPostgres(db)) {
    await sql`create function votes_count_groups() returns trigger language plpgsql as $$
      begin ${countVote} return null; end $$`.execute(db);
    await sql`create trigger votes_count_groups after insert on votes
      for each row execute function votes_count_groups()`.execute(db);
  } else {
    await sql`create trigger votes_count_groups after insert on votes begin ${countVote} end`.execute(db);
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger votes_count_groups${isPostgres(db) ? sql` on votes` : sql``}`.execute(db);
  if (isPostgres(db)) await sql`drop function votes_count_groups()`.execute(db);
  await db.schema.dropIndex('polls_series').execute();
  await db.schema.alterTable('polls').dropColumn('asked_before_id').execute();
  await db.schema.alterTable('polls').dropColumn('series_id').execute();
  await db.schema.dropTable('poll_group_tallies').execute();
  await db.schema.dropTable('profile_answers').execute();
}
