import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../connection.js';

/**
 * Staff actions at scale (issue 37, item 10): a restore finds the votes its discount set aside,
 * and a release the held votes, through a partial index of the votes not counted (a poll's few
 * held and discounted ones), not by reading the poll's every vote. And a staff action moves the
 * profile tallies by the votes it moves, unless `polls.profile_tallies_stale` says a browser was
 * forgotten since its vote was counted (its tally stayed, its copy went), when it counts them
 * again. Old rows keep their meaning: every poll starts stale, so its first action recounts as
 * before.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) await change(db);
  else await db.transaction().execute(change);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function change(db: Kysely<any>): Promise<void> {
  await sql`create index votes_set_aside on votes (poll_id, status, discount_id) where status <> 'counted'`.execute(db);
  await db.schema
    .alterTable('polls')
    .addColumn('profile_tallies_stale', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await sql`update polls set profile_tallies_stale = true`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('polls').dropColumn('profile_tallies_stale').execute();
  await db.schema.dropIndex('votes_set_aside').execute();
}
