import { sql } from 'kysely';
import type { Db } from '../db/connection.js';

const TABLES: Record<string, string> = {
  polls: 'id',
  poll_options: 'poll_id, position',
  votes: 'id',
  subscribers: 'id',
  poll_suggestions: 'id',
  counters: 'name',
  settings: 'name',
  admin_sessions: 'token_hash',
  email_outbox: 'id',
  email_links: 'token_hash',
  profile_answers: 'voter_id, dimension',
  poll_group_tallies: 'poll_id, dimension, group_value, option_index',
};

/**
 * Every row of every table but rate_limits, read with plain SQL. (A refused request may count
 * against its sender's limit: that count is bookkeeping, not the data a refusal must leave be.) Take one before a request and one after to
 * show that the request changed nothing.
 */
export async function snapshotDatabase(db: Db): Promise<Record<string, unknown[]>> {
  const snapshot: Record<string, unknown[]> = {};
  for (const [table, order] of Object.entries(TABLES)) {
    const { rows } = await sql`select * from ${sql.table(table)} order by ${sql.raw(order)}`.execute(db);
    snapshot[table] = rows;
  }
  return snapshot;
}
