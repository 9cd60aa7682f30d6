import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../connection.js';
import { columnTypes } from './column-types.js';

/**
 * A cheaper row for every vote (issue 35 item 4). On a fast disk a vote's row, not the app,
 * is what kept votes under the minimal bare insert: `bench/bench-vote-rows.ts` measured the
 * votes table's row at 2.29× the minimal one (docs/performance.md, "Why votes stay under the
 * minimal insert"). Two of its costs buy nothing:
 *
 * - The one-e-mail-per-poll key was a unique constraint on (poll_id, voter_email), so every
 *   vote, nearly all without an e-mail, wrote an entry for NULL. It is now a partial unique
 *   index, `where voter_email is not null`, of the same name: a vote without an e-mail skips
 *   it. Both databases treat NULLs as distinct in a unique key, so it refuses exactly what the
 *   constraint refused, and `on conflict do nothing` (votes.repository.ts) and the
 *   isUniqueViolation path of attaching an e-mail see it as they saw the constraint (SQLite and
 *   PostgreSQL both apply a conflict clause without a target to every unique index, partial
 *   ones too).
 * - SQLite's AUTOINCREMENT writes sqlite_sequence on every insert. Without it a new vote's id is
 *   still one more than the largest id in the table, so ids still rise in the order votes are
 *   cast (the export's cursor, `recentPollVotes`). What AUTOINCREMENT added is that an id is
 *   never handed out again after the vote holding the largest one is deleted. That is harmless
 *   for votes: no table stores a vote's id (discount_id names an integrity action, not a vote),
 *   and outside the database a vote id is only ever a poll's export cursor or an exported row,
 *   and both are counted votes of that one poll. Votes are deleted in two ways only: with their
 *   poll (staff deleting a poll with its votes: its cursor and export are gone with it, 404),
 *   and by the integrity retention (purgeIntegrityBefore), which deletes only held and
 *   discounted votes, of a poll that went live more than 30 days before. A reused id can only
 *   be the newest vote's, so it goes to a vote cast after every vote still kept, on whichever
 *   poll is open then: larger than every id of every poll's kept votes, so no cursor (`id >
 *   after`, per poll) misses or repeats a kept vote. The one case left is contrived: a page's
 *   last vote, exported while counted, then discounted and purged while still the site's newest
 *   vote, its poll still open 30 days on, and the page resumed after a new vote on that poll took
 *   the id: that one vote would be skipped. Staff page through an export in minutes, so this
 *   needs no guard. PostgreSQL's serial sequence never reused an id and is unchanged.
 *
 * The third index, votes_poll_order (poll_id, id), stays: exports page a poll's counted votes
 * by id and the surge judgement reads a poll's newest votes by id; no other index is in id
 * order within a poll (SQLite's (poll_id) index would be the same index, as an index ends with
 * the rowid). votes_poll_bucket stays for the detector and review.
 *
 * PostgreSQL swaps the constraint for the partial index in place. SQLite cannot drop a table
 * constraint, so it rebuilds votes in one transaction as 0008 did (SQLite's "Making Other Kinds
 * Of Table Schema Changes"): every row keeps its id, the tallies are untouched (the copy fires no
 * trigger, and dropping a table fires none of its delete triggers), and the other indexes and
 * every trigger are created again from their stored SQL, as the latest migrations left them.
 * Once; 0008's rebuild of the same table took about a second per million votes. Down restores the constraint and AUTOINCREMENT, with
 * sqlite_sequence at the largest id.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    // The migrator runs each migration in a transaction on PostgreSQL.
    await sql`alter table votes drop constraint votes_one_per_email`.execute(db);
    await sql`create unique index votes_one_per_email on votes (poll_id, voter_email)
      where voter_email is not null`.execute(db);
    return;
  }
  await rebuildSqliteVotes(db, { autoIncrement: false });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop index votes_one_per_email`.execute(db);
    await sql`alter table votes add constraint votes_one_per_email unique (poll_id, voter_email)`.execute(db);
    return;
  }
  await rebuildSqliteVotes(db, { autoIncrement: true });
}

/**
 * The votes table as 0026 leaves it, rebuilt: with AUTOINCREMENT and the e-mail key as a table
 * constraint (down), or without AUTOINCREMENT and the e-mail key as a partial unique index (up).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function rebuildSqliteVotes(db: Kysely<any>, { autoIncrement }: { autoIncrement: boolean }): Promise<void> {
  const t = columnTypes(db);
  const columns = `id, poll_id, voter_id, option_index, voter_email, voted_on, created_at, status, bucket, page_ms,
    cookie_age_s, discount_id, voter_profile`;
  await db.transaction().execute(async (trx) => {
    // What hangs on the table but for the e-mail key (a partial index going up, an automatic
    // index of the table's constraint coming down: either way it is made below).
    const { rows: dependents } = await sql<{ sql: string }>`select sql from sqlite_master
      where tbl_name = 'votes' and type in ('index', 'trigger') and sql is not null and name <> 'votes_one_per_email'
      order by type, name`.execute(trx);
    const { rows: sequence } = await sql<{ seq: number }>`select seq from sqlite_sequence
      where name = 'votes'`.execute(trx);

    let table = trx.schema
      .createTable('votes_rebuilt')
      .addColumn('id', t.id, (c) => (autoIncrement ? c.primaryKey().autoIncrement() : c.primaryKey()))
      .addColumn('poll_id', 'integer', (c) => c.notNull())
      .addColumn('voter_id', 'text', (c) => c.notNull())
      .addColumn('option_index', 'integer', (c) => c.notNull())
      .addColumn('voter_email', 'text')
      .addColumn('voted_on', t.date, (c) => c.notNull())
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull().defaultTo('counted'))
      .addColumn('bucket', 'text')
      .addColumn('page_ms', 'integer')
      .addColumn('cookie_age_s', 'integer')
      .addColumn('discount_id', 'integer')
      .addColumn('voter_profile', 'text')
      .addForeignKeyConstraint(
        'votes_option_fk',
        ['poll_id', 'option_index'],
        'poll_options',
        ['poll_id', 'position'],
        (c) => c.onDelete('cascade'),
      )
      .addUniqueConstraint('votes_one_per_voter', ['voter_id', 'poll_id']);
    if (autoIncrement) table = table.addUniqueConstraint('votes_one_per_email', ['poll_id', 'voter_email']);
    await table.execute();
    await sql`insert into votes_rebuilt (${sql.raw(columns)}) select ${sql.raw(columns)} from votes order by id`.execute(
      trx,
    );
    // No table refers to votes, and dropping a table fires none of its triggers.
    await sql`drop table votes`.execute(trx);
    await sql`alter table votes_rebuilt rename to votes`.execute(trx);
    for (const { sql: definition } of dependents) await sql.raw(definition).execute(trx);
    if (!autoIncrement) {
      await sql`create unique index votes_one_per_email on votes (poll_id, voter_email)
        where voter_email is not null`.execute(trx);
    }
    await sql`delete from sqlite_sequence where name = 'votes'`.execute(trx);
    if (autoIncrement) {
      // From here on no id is handed out again, as before 0027.
      const highest = sequence[0]?.seq ?? 0;
      await sql`insert into sqlite_sequence (name, seq)
        select 'votes', max(${highest}, coalesce((select max(id) from votes), 0))`.execute(trx);
    }
  });
}
