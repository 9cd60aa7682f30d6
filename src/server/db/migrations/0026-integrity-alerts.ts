import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../connection.js';
import { allowOutboxKinds } from './0016-staff-hardening.js';

/**
 * Staff are told of trouble on a poll (issue 37, item 5): the outbox's 'staff-integrity' e-mail,
 * to each owner and editor (email_outbox.staff_id) about one poll (email_outbox.poll_id), with the
 * dedupe key `staff-integrity:<poll>:<staff>:<hour>`, so at most one per person, poll and hour.
 */
const KINDS = ['welcome', 'daily', 'confirm', 'staff-invite', 'staff-alert', 'weekly', 'staff-integrity'];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) await allowOutboxKinds(db, KINDS);
  else await db.transaction().execute((trx) => allowOutboxKinds(trx, KINDS));
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from email_outbox where kind = 'staff-integrity'`.execute(db);
  await allowOutboxKinds(db, KINDS.slice(0, -1));
}
