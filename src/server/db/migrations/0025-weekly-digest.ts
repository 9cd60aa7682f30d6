import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../connection.js';
import { columnTypes } from './column-types.js';
import { allowOutboxKinds } from './0016-staff-hardening.js';

/**
 * The weekly digest (issue 39, item 4).
 *
 * - subscribers.wants_daily / wants_weekly: what each subscriber chose. Everyone before this
 *   chose the daily e-mail, the only one there was.
 * - digest_weeks: one row per ISO week ("2026-W48") whose digest was queued, written in the
 *   same transaction as its e-mails: the first instance to write it queues the week, any other
 *   finds it there and queues nothing.
 * - email_outbox.week: a weekly e-mail's week (kind 'weekly'); its dedupe key
 *   `weekly:<week>:<subscriber>` keeps it to one per subscriber and week whatever happens.
 */
const KINDS = ['welcome', 'daily', 'confirm', 'staff-invite', 'staff-alert', 'weekly'];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) await digest(db);
  else await db.transaction().execute(digest);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function digest(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await allowOutboxKinds(db, KINDS);
  await db.schema.alterTable('email_outbox').addColumn('week', 'text').execute();
  await db.schema
    .alterTable('subscribers')
    .addColumn('wants_daily', 'boolean', (c) => c.notNull().defaultTo(true))
    .execute();
  await db.schema
    .alterTable('subscribers')
    .addColumn('wants_weekly', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await db.schema
    .createTable('digest_weeks')
    .addColumn('week', 'text', (c) => c.primaryKey())
    .addColumn('queued_at', t.timestamp, (c) => c.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('digest_weeks').execute();
  await sql`delete from email_outbox where kind = 'weekly'`.execute(db);
  await db.schema.alterTable('subscribers').dropColumn('wants_weekly').execute();
  await db.schema.alterTable('subscribers').dropColumn('wants_daily').execute();
  await db.schema.alterTable('email_outbox').dropColumn('week').execute();
  await allowOutboxKinds(db, KINDS.slice(0, -1));
}
