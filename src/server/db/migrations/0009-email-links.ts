import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../connection.js';
import { hashSecretToken, newSecretToken } from '../secret-tokens.js';
import { columnTypes } from './column-types.js';

/**
 * The links in subscribers' e-mails are stored by their hash, as staff sessions are (0002).
 * Until now each subscriber row held its confirmation and unsubscribe tokens in plain text,
 * and the worker copied them into each e-mail; a copy of the database could confirm or
 * unsubscribe anyone. Now each e-mail gets tokens of its own when it is sent, and email_links
 * keeps their hashes only (subscriptions/subscriber-mail.ts says why).
 *
 * The tokens of e-mails sent before move here as their hashes, dated now: every link already
 * in an inbox works as before. The two plain columns go.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // PostgreSQL runs each migration in a transaction; SQLite's is opened here.
  if (isPostgres(db)) await hashLinks(db);
  else await db.transaction().execute(hashLinks);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function hashLinks(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('email_links')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('subscriber_id', 'integer', (c) => c.notNull().references('subscribers.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addCheckConstraint('email_links_purpose_check', sql`purpose in ('confirm', 'unsubscribe')`)
    .execute();
  await db.schema
    .createIndex('email_links_subscriber')
    .on('email_links')
    .columns(['subscriber_id', 'purpose'])
    .execute();
  await db.schema.createIndex('email_links_created').on('email_links').column('created_at').execute();

  const now = new Date().toISOString();
  const subscribers = await db.selectFrom('subscribers').select(['id', 'unsubscribe_token', 'confirm_token']).execute();
  const links = subscribers.flatMap(
    (row: { id: number; unsubscribe_token: string | null; confirm_token: string | null }) =>
      (
        [
          ['unsubscribe', row.unsubscribe_token],
          ['confirm', row.confirm_token],
        ] as const
      )
        .filter(([, token]) => token !== null)
        .map(([purpose, token]) => ({
          token_hash: hashSecretToken(token ?? ''),
          subscriber_id: row.id,
          purpose,
          created_at: now,
        })),
  );
  // A few hundred rows a statement keeps under either database's limit of parameters.
  for (let i = 0; i < links.length; i += 200) {
    await db
      .insertInto('email_links')
      .values(links.slice(i, i + 200))
      .execute();
  }

  await db.schema.dropIndex('subscribers_unsubscribe_token').execute();
  await db.schema.dropIndex('subscribers_confirm_token').execute();
  await db.schema.alterTable('subscribers').dropColumn('unsubscribe_token').execute();
  await db.schema.alterTable('subscribers').dropColumn('confirm_token').execute();
}

/**
 * Back to plain tokens in the subscriber row. The plain tokens are gone, so each subscriber
 * gets new ones: links in e-mails sent before stop working.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('subscribers').addColumn('unsubscribe_token', 'text').execute();
  await db.schema.alterTable('subscribers').addColumn('confirm_token', 'text').execute();
  const subscribers = await db.selectFrom('subscribers').select(['id', 'confirmed_at']).execute();
  for (const row of subscribers as { id: number; confirmed_at: unknown }[]) {
    await db
      .updateTable('subscribers')
      .set({ unsubscribe_token: newSecretToken(), confirm_token: row.confirmed_at === null ? newSecretToken() : null })
      .where('id', '=', row.id)
      .execute();
  }
  await db.schema
    .createIndex('subscribers_unsubscribe_token')
    .on('subscribers')
    .column('unsubscribe_token')
    .unique()
    .execute();
  await db.schema.createIndex('subscribers_confirm_token').on('subscribers').column('confirm_token').unique().execute();
  await db.schema.dropTable('email_links').execute();
}
