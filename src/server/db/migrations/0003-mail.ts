import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../connection.js';
import { columnTypes } from './column-types.js';

/**
 * E-mail that really arrives: every message is first a row here, written in the same
 * transaction as what causes it, and sent from here with retries. Subscribers get an opaque
 * unsubscribe token and a record of the consent they gave.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);

  await db.schema.alterTable('subscribers').addColumn('unsubscribe_token', 'text').execute();
  await db.schema.alterTable('subscribers').addColumn('consent_text', 'text').execute();
  await db.schema.alterTable('subscribers').addColumn('consented_at', t.timestamp).execute();
  // Subscribers from before this migration get a token too.
  const randomToken = isPostgres(db)
    ? sql`md5(random()::text || clock_timestamp()::text || id::text)`
    : sql`lower(hex(randomblob(16)))`;
  await sql`update subscribers set unsubscribe_token = ${randomToken} where unsubscribe_token is null`.execute(db);
  await db.schema
    .createIndex('subscribers_unsubscribe_token')
    .on('subscribers')
    .column('unsubscribe_token')
    .unique()
    .execute();

  await db.schema
    .createTable('email_outbox')
    .addColumn('id', t.id, (c) => t.idConstraints(c))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('subscriber_id', 'integer', (c) => c.notNull().references('subscribers.id').onDelete('cascade'))
    .addColumn('poll_id', 'integer', (c) => c.references('polls.id').onDelete('set null'))
    .addColumn('previous_poll_id', 'integer', (c) => c.references('polls.id').onDelete('set null'))
    // What makes two rows the same message: one daily e-mail per subscriber and day, and so on.
    .addColumn('dedupe_key', 'text', (c) => c.notNull().unique())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', t.timestamp, (c) => c.notNull())
    .addColumn('lease_owner', 'text')
    .addColumn('lease_expires_at', t.timestamp)
    .addColumn('last_error', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('sent_at', t.timestamp)
    .addCheckConstraint('email_outbox_kind_check', sql`kind in ('welcome', 'daily')`)
    .addCheckConstraint(
      'email_outbox_status_check',
      sql`status in ('queued', 'sending', 'sent', 'failed', 'cancelled')`,
    )
    .execute();
  await db.schema.createIndex('email_outbox_due').on('email_outbox').columns(['status', 'next_attempt_at']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('email_outbox').execute();
  await db.schema.dropIndex('subscribers_unsubscribe_token').execute();
  for (const column of ['consented_at', 'consent_text', 'unsubscribe_token']) {
    await db.schema.alterTable('subscribers').dropColumn(column).execute();
  }
}
