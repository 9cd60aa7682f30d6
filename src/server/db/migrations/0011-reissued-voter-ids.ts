import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../connection.js';
import { columnTypes } from './column-types.js';

/**
 * Voter cookies are signed from now on (voters/voter-cookie.ts). A browser whose cookie holds a
 * bare id from before, one the database knows, gets it back signed once: this table keeps the
 * SHA-256 of each id re-issued, and when, so the bare form is refused afterwards
 * (voters/voter-ids.service.ts). Read and written by its key alone: WITHOUT ROWID on SQLite.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('reissued_voter_ids')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('reissued_at', t.timestamp, (c) => c.notNull())
    .modifyEnd(isPostgres(db) ? sql`` : sql`without rowid`)
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('reissued_voter_ids').execute();
}
