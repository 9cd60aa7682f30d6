import type { Kysely } from 'kysely';
import { columnTypes } from './column-types.js';

/**
 * The proofs of work already redeemed (src/server/integrity/proof-of-work.ts), so that each
 * is counted once whichever instance receives it: keyed by the signature of the challenge it
 * solves, a primary key, so that of two instances inserting the same one at once only one
 * succeeds. A row is needed only until its challenge expires (minutes); housekeeping deletes
 * it after that, when the expiry alone refuses the proof.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('proof_of_work_redeemed')
    .addColumn('challenge_signature', 'text', (c) => c.primaryKey())
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('proof_of_work_redeemed_expires')
    .on('proof_of_work_redeemed')
    .column('expires_at')
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('proof_of_work_redeemed').execute();
}
