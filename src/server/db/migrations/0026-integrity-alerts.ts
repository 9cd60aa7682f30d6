import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../connection.js';
import { allowOutboxKinds } from './0016-staff-hardening.js';

/**
 * Staff are told of trouble on a poll (issue 37, item 5): the outbox's 'staff-integrity' e-mail,
 * to each owner and editor (email_outbox.staff_id) about one poll (email_outbox.poll_id), with the
 * dedupe key `staff-integrity:<poll>:<staff>:<hour>`, so at most one per person, poll and hour.
 *
 * And the purge of a poll's integrity data after 30 days (issue 37, item 9) is done once per
 * poll: polls.integrity_purged says it was, and the partial index polls_integrity_unpurged finds
 * the polls still to purge without reading every old poll each hour.
 */
const KINDS = ['welcome', 'daily', 'confirm', 'staff-invite', 'staff-alert', 'weekly', 'staff-integrity'];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) await change(db);
  else await db.transaction().execute(change);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function change(db: Kysely<any>): Promise<void> {
  await allowOutboxKinds(db, KINDS);
  await db.schema
    .alterTable('polls')
    .addColumn('integrity_purged', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await sql`create index polls_integrity_unpurged on polls (live_date) where not integrity_purged`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('polls_integrity_unpurged').execute();
  await db.schema.alterTable('polls').dropColumn('integrity_purged').execute();
  await sql`delete from email_outbox where kind = 'staff-integrity'`.execute(db);
  await allowOutboxKinds(db, KINDS.slice(0, -1));
}
