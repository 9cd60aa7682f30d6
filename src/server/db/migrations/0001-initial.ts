import { sql, type Kysely } from 'kysely';
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
    .addCheckConstraint(
      'poll_suggestions_status_check',
      sql`status in ('pending', 'approved', 'rejected')`,
    )
    .execute();
  await db.schema
    .createIndex('poll_suggestions_status_created')
    .on('poll_suggestions')
    .columns(['status', 'created_at'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['poll_suggestions', 'subscribers', 'votes', 'poll_options', 'polls', 'counters']) {
    await db.schema.dropTable(table).execute();
  }
}
