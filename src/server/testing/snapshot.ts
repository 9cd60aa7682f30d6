import { sql } from 'kysely';
import { isPostgres, type Db } from '../db/connection.js';
import type { Database } from '../db/tables.js';

/**
 * Every table a refusal must leave as it was, with the columns that order its rows. All of
 * Database but rate_limits: a refused request may count against its sender's limit, and that
 * count is bookkeeping, not the data a refusal must leave be. A table added to Database and
 * not here fails the typecheck; one a migration creates without a type fails at run time.
 */
const TABLES: Record<Exclude<keyof Database, 'rate_limits'>, string> = {
  polls: 'id',
  poll_options: 'poll_id, position',
  poll_series: 'id',
  votes: 'id',
  subscribers: 'id',
  poll_suggestions: 'id',
  counters: 'name',
  settings: 'name',
  admin_sessions: 'id',
  staff: 'id',
  staff_passkeys: 'id',
  staff_links: 'id',
  webauthn_challenges: 'challenge',
  audit_log: 'id',
  email_outbox: 'id',
  email_links: 'token_hash',
  profile_answers: 'voter_id, dimension',
  poll_group_tallies: 'poll_id, dimension, group_value, option_index',
  poll_profile_tallies: 'poll_id, voter_profile, option_index',
  poll_weighting: 'poll_id, scope',
  poll_breakdowns: 'poll_id',
  integrity_keys: 'day',
  integrity_buckets: 'poll_id, bucket',
  integrity_actions: 'id',
  reissued_voter_ids: 'id_hash',
  proof_of_work_redeemed: 'challenge_signature',
  push_subscriptions: 'id',
  push_reminders: 'id',
  topics: 'id',
  poll_topics: 'poll_id, topic_id',
  poll_search: 'question, description, note',
  poll_notes: 'poll_id',
  digest_weeks: 'week',
};

/**
 * Rows a refusal may add like a count: the day's address key (http/address-limits.ts), made by
 * the first limit of the day that counts.
 */
const BOOKKEEPING: Partial<Record<keyof typeof TABLES, string>> = { settings: "name not like 'address_key:%'" };

/** Tables of the database that are neither read by the snapshot nor left out on purpose. */
const LEFT_OUT = new Set([
  'rate_limits',
  'kysely_migration',
  'kysely_migration_lock',
  // SQLite's FTS5 keeps poll_search in these shadow tables: poll_search itself is read.
  'poll_search_data',
  'poll_search_idx',
  'poll_search_content',
  'poll_search_docsize',
  'poll_search_config',
]);

/** The tables the database holds (the current schema's, on PostgreSQL). */
async function tablesOf(db: Db): Promise<string[]> {
  const { rows } = isPostgres(db)
    ? await sql<{ name: string }>`select table_name as name from information_schema.tables
        where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(db)
    : await sql<{ name: string }>`select name from sqlite_master
        where type = 'table' and name not like 'sqlite!_%' escape '!'`.execute(db);
  return rows.map((row) => row.name);
}

/**
 * Every row of every table but rate_limits, read with plain SQL. Take one before a request and
 * one after to show that the request changed nothing. Throws when the database holds a table
 * the snapshot does not know, so no table can be left out of "changes nothing" unseen.
 */
export async function snapshotDatabase(db: Db): Promise<Record<string, unknown[]>> {
  const unread = (await tablesOf(db)).filter((table) => !(table in TABLES) && !LEFT_OUT.has(table));
  if (unread.length > 0) {
    throw new Error(
      `The database has tables the snapshot does not read: ${unread.join(', ')}. ` +
        'Give each a row type in its domain file under src/server/db/tables/, named in Database (src/server/db/tables.ts), and its order in TABLES (src/server/testing/snapshot.ts).',
    );
  }
  const snapshot: Record<string, unknown[]> = {};
  for (const [table, order] of Object.entries(TABLES)) {
    const where = BOOKKEEPING[table as keyof typeof TABLES];
    const { rows } =
      await sql`select * from ${sql.table(table)} ${sql.raw(where ? `where ${where}` : '')} order by ${sql.raw(order)}`.execute(
        db,
      );
    snapshot[table] = rows;
  }
  return snapshot;
}
