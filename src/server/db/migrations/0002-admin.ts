import { sql, type Kysely } from 'kysely';
import { columnTypes } from './column-types.js';

/**
 * Staff sign-in and the daily schedule. Sessions are stored by the hash of their token, so a
 * copy of the database holds no usable session. Failed sign-ins are counted per keyed hash of
 * the address, never the address itself. And one poll at most is scheduled for a day, so the
 * day's transition knows which poll goes live.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);

  await db.schema
    .createTable('settings')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('admin_sessions')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('last_seen_at', t.timestamp, (c) => c.notNull())
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sign_in_failures')
    .addColumn('address_hash', 'text', (c) => c.primaryKey())
    .addColumn('window_started_at', t.timestamp, (c) => c.notNull())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .execute();

  await db.schema
    .createIndex('polls_one_scheduled_per_day')
    .on('polls')
    .column('live_date')
    .unique()
    .where(sql.ref('status'), '=', 'scheduled')
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('polls_one_scheduled_per_day').execute();
  for (const table of ['sign_in_failures', 'admin_sessions', 'settings']) await db.schema.dropTable(table).execute();
}
