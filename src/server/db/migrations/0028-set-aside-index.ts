import { sql, type Kysely } from 'kysely';

/**
 * Staff actions at scale (issue 37, item 10): a restore finds the votes its discount set aside,
 * and a release the held votes, through a partial index of the votes not counted (a poll's few
 * held and discounted ones), not by reading the poll's every vote. Old rows keep their meaning:
 * only an index is added.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index votes_set_aside on votes (poll_id, status, discount_id) where status <> 'counted'`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('votes_set_aside').execute();
}
