import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../connection.js';
import { columnTypes } from './column-types.js';

/**
 * Double opt-in, counted limits, and reading a poll's votes in order.
 *
 * - A subscription is confirmed from a link in the first e-mail before anything else is sent.
 *   Subscribers from before this migration joined under the old single opt-in and have had
 *   e-mail since: they count as confirmed on the day they subscribed.
 * - The first e-mail is now the confirmation ("confirm"); queued welcomes are not sent.
 * - rate_limits counts actions per key in a window, shared by every instance (sign-in
 *   attempts and new subscriptions per client address, e-mail tries per voter). It replaces
 *   sign_in_failures, which counted only failures, after the password check: a burst of
 *   concurrent guesses all got checked before the first failure was counted.
 * - votes_poll_order lets staff read every vote of a poll in order without sorting it in
 *   memory (the CSV of a million votes streams).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);

  await db.schema.alterTable('subscribers').addColumn('confirmed_at', t.timestamp).execute();
  await db.schema.alterTable('subscribers').addColumn('confirm_token', 'text').execute();
  await db.schema.alterTable('subscribers').addColumn('confirmation_sent_at', t.timestamp).execute();
  await sql`update subscribers set confirmed_at = coalesce(consented_at, created_at)`.execute(db);
  await db.schema.createIndex('subscribers_confirm_token').on('subscribers').column('confirm_token').unique().execute();

  await allowOutboxKinds(db, ['welcome', 'daily', 'confirm']);
  await sql`update email_outbox set status = 'cancelled', last_error = 'replaced by double opt-in'
    where kind = 'welcome' and status in ('queued', 'sending')`.execute(db);

  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('window_started_at', t.timestamp, (c) => c.notNull())
    .addColumn('hits', 'integer', (c) => c.notNull())
    .execute();

  await db.schema.dropTable('sign_in_failures').execute();

  await db.schema.createIndex('votes_poll_order').on('votes').columns(['poll_id', 'id']).execute();
}

/**
 * The outbox's kind check, widened. PostgreSQL swaps the constraint; SQLite cannot alter one,
 * so the table is rebuilt with the same columns (nothing references it) inside the migration's
 * transaction.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function allowOutboxKinds(db: Kysely<any>, kinds: string[]): Promise<void> {
  const allowed = sql.join(kinds.map((kind) => sql.lit(kind)));
  if (isPostgres(db)) {
    await sql`alter table email_outbox drop constraint email_outbox_kind_check`.execute(db);
    await sql`alter table email_outbox add constraint email_outbox_kind_check check (kind in (${allowed}))`.execute(db);
    return;
  }
  const { rows } = await sql<{
    sql: string;
  }>`select sql from sqlite_master where type = 'table' and name = 'email_outbox'`.execute(db);
  const create = rows[0]?.sql;
  const widened = create?.replace(
    /"email_outbox_kind_check" check \(kind in \([^)]*\)\)/,
    `"email_outbox_kind_check" check (kind in (${kinds.map((k) => `'${k}'`).join(', ')}))`,
  );
  if (!create || widened === create || !widened)
    throw new Error('email_outbox has an unexpected shape; cannot widen its kind check');
  await sql.raw(widened.replace(/^create table "email_outbox"/i, 'create table "email_outbox_new"')).execute(db);
  await sql`insert into email_outbox_new select * from email_outbox`.execute(db);
  await sql`drop table email_outbox`.execute(db);
  await sql`alter table email_outbox_new rename to email_outbox`.execute(db);
  await db.schema.createIndex('email_outbox_due').on('email_outbox').columns(['status', 'next_attempt_at']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('votes_poll_order').execute();
  await db.schema
    .createTable('sign_in_failures')
    .addColumn('address_hash', 'text', (c) => c.primaryKey())
    .addColumn('window_started_at', columnTypes(db).timestamp, (c) => c.notNull())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.dropTable('rate_limits').execute();
  await sql`delete from email_outbox where kind = 'confirm'`.execute(db);
  await allowOutboxKinds(db, ['welcome', 'daily']);
  await db.schema.dropIndex('subscribers_confirm_token').execute();
  for (const column of ['confirmation_sent_at', 'confirm_token', 'confirmed_at']) {
    await db.schema.alterTable('subscribers').dropColumn(column).execute();
  }
}
