import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../connection.js';
import { columnTypes } from './column-types.js';

/**
 * The first schema. Every rule that must hold under concurrency, and across several server
 * instances, is a constraint here rather than a check in code: one vote per voter per poll,
 * one e-mail per poll, unique poll numbers, one active poll, unique subscriber e-mails.
 */
// Migrations build the schema the app's types describe, so they cannot use those types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);

  await db.schema
    .createTable('counters')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'integer', (c) => c.notNull())
    .execute();
  await sql`insert into counters (name, value) values ('poll_number', 0)`.execute(db);

  await db.schema
    .createTable('polls')
    .addColumn('id', t.id, (c) => t.idConstraints(c))
    .addColumn('poll_number', 'integer', (c) => c.notNull().unique())
    .addColumn('question', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('live_date', t.date, (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('went_live_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addCheckConstraint('polls_status_check', sql`status in ('scheduled', 'active', 'past')`)
    .execute();
  // At most one active poll, whatever happens concurrently.
  await db.schema
    .createIndex('polls_one_active')
    .on('polls')
    .column('status')
    .unique()
    .where(sql.ref('status'), '=', 'active')
    .execute();
  await db.schema.createIndex('polls_status_live_date').on('polls').columns(['status', 'live_date']).execute();

  await db.schema
    .createTable('poll_options')
    .addColumn('poll_id', 'integer', (c) => c.notNull().references('polls.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('vote_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('poll_options_pk', ['poll_id', 'position'])
    .addCheckConstraint('poll_options_vote_count_check', sql`vote_count >= 0`)
    .execute();

  await db.schema
    .createTable('votes')
    .addColumn('id', t.id, (c) => t.idConstraints(c))
    .addColumn('poll_id', 'integer', (c) => c.notNull())
    .addColumn('voter_id', 'text', (c) => c.notNull())
    .addColumn('option_index', 'integer', (c) => c.notNull())
    .addColumn('voter_email', 'text')
    .addColumn('voted_on', t.date, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addForeignKeyConstraint(
      'votes_option_fk',
      ['poll_id', 'option_index'],
      'poll_options',
      ['poll_id', 'position'],
      (c) => c.onDelete('cascade'),
    )
    .addUniqueConstraint('votes_one_per_voter', ['poll_id', 'voter_id'])
    .addUniqueConstraint('votes_one_per_email', ['poll_id', 'voter_email'])
    .execute();
  // Stats and streaks read one voter's votes by day.
  await db.schema.createIndex('votes_voter_day').on('votes').columns(['voter_id', 'voted_on']).execute();
  await createTallyTriggers(db);

  await db.schema
    .createTable('subscribers')
    .addColumn('id', t.id, (c) => t.idConstraints(c))
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('source_poll_id', 'integer', (c) => c.references('polls.id').onDelete('set null'))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('unsubscribed_at', t.timestamp)
    .execute();

  await db.schema
    .createTable('poll_suggestions')
    .addColumn('id', t.id, (c) => t.idConstraints(c))
    .addColumn('question', 'text', (c) => c.notNull())
    .addColumn('options', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('suggested_by', 'text')
    .addColumn('email', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('reviewed_at', t.timestamp)
    .addCheckConstraint('poll_suggestions_status_check', sql`status in ('pending', 'approved', 'rejected')`)
    .execute();
  await db.schema
    .createIndex('poll_suggestions_status_created')
    .on('poll_suggestions')
    .columns(['status', 'created_at'])
    .execute();
}

/**
 * The database keeps each option's vote_count equal to its number of votes, whatever writes
 * the votes: casting a vote is one INSERT, and the tally can never drift from the votes.
 */
async function createTallyTriggers<T>(db: Kysely<T>): Promise<void> {
  const add = sql`update poll_options set vote_count = vote_count + 1
    where poll_id = new.poll_id and position = new.option_index;`;
  const remove = sql`update poll_options set vote_count = vote_count - 1
    where poll_id = old.poll_id and position = old.option_index;`;
  if (isPostgres(db)) {
    await sql`create function votes_keep_tally() returns trigger language plpgsql as $$
      begin
        if tg_op in ('DELETE', 'UPDATE') then ${remove} end if;
        if tg_op in ('INSERT', 'UPDATE') then ${add} end if;
        return null;
      end $$`.execute(db);
    await sql`create trigger votes_keep_tally after insert or delete or update of poll_id, option_index
      on votes for each row execute function votes_keep_tally()`.execute(db);
    return;
  }
  await sql`create trigger votes_tally_insert after insert on votes begin ${add} end`.execute(db);
  await sql`create trigger votes_tally_delete after delete on votes begin ${remove} end`.execute(db);
  await sql`create trigger votes_tally_update after update of poll_id, option_index on votes
    begin ${remove} ${add} end`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['poll_suggestions', 'subscribers', 'votes', 'poll_options', 'polls', 'counters']) {
    await db.schema.dropTable(table).execute();
  }
  if (isPostgres(db)) await sql`drop function votes_keep_tally()`.execute(db);
}
