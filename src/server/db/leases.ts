/**
 * The lease both send queues take rows with (the e-mail outbox, the push reminders): a row due
 * now, or one whose sender's lease ran out, becomes one instance's to send until its lease
 * runs out, so several instances never send the same row (PostgreSQL: FOR UPDATE SKIP LOCKED;
 * SQLite has one writer).
 */
import { sql } from 'kysely';
import { isPostgres, type Db } from './connection.js';

/** The tables with a leased queue's columns: status, next_attempt_at, lease_owner, lease_expires_at, attempts. */
export type LeasedQueue = 'email_outbox' | 'push_reminders';

/** Marks up to `limit` due rows of `table` as `owner`'s until `leaseUntil`; the claimed rows' ids. */
export async function claimLeased(
  db: Db,
  table: LeasedQueue,
  owner: string,
  now: Date,
  leaseUntil: Date,
  limit: number,
): Promise<number[]> {
  const at = now.toISOString();
  // Typed as one of the two: both tables name these columns alike.
  const queue = table as 'email_outbox';
  let due = db
    .selectFrom(queue)
    .select('id')
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'queued'), eb('next_attempt_at', '<=', at)]),
        eb.and([eb('status', '=', 'sending'), eb('lease_expires_at', '<=', at)]),
      ]),
    )
    .orderBy('id')
    .limit(limit);
  if (isPostgres(db)) due = due.forUpdate().skipLocked();
  const claimed = await db
    .updateTable(queue)
    .set({
      status: 'sending',
      lease_owner: owner,
      lease_expires_at: leaseUntil.toISOString(),
      attempts: sql`attempts + 1`,
    })
    .where('id', 'in', due)
    .returning('id')
    .execute();
  return claimed.map((row) => row.id);
}
