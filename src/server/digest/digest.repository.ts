/** The only place SQL about the weekly digest lives: its week's polls, its queue, its time. */
import type { Db } from '../db/connection.js';
import { enqueueForSubscribers } from '../email/outbox.repository.js';
import type { LocalDate } from '../../shared/time.js';

/** The ids of the polls that went live from `monday` to `sunday` and are past or today's, by date. */
export async function pollIdsLiveBetween(db: Db, monday: LocalDate, sunday: LocalDate): Promise<number[]> {
  const rows = await db
    .selectFrom('polls')
    .select('id')
    .where('live_date', '>=', monday)
    .where('live_date', '<=', sunday)
    .where('status', 'in', ['past', 'active'])
    .orderBy('live_date')
    .orderBy('id')
    .execute();
  return rows.map((row) => row.id);
}

/**
 * Queues `week`'s digest for every confirmed subscriber who chose it, once: the week's row in
 * digest_weeks is written first, and only the transaction that writes it queues the e-mails (a
 * second instance, or a second tick, finds the row and queues nothing). Each e-mail's dedupe
 * key is one per subscriber and week besides. False when the week was queued before.
 */
export async function queueWeek(db: Db, week: string, now: Date): Promise<boolean> {
  const at = now.toISOString();
  const claimed = await db
    .insertInto('digest_weeks')
    .values({ week, queued_at: at })
    .onConflict((conflict) => conflict.column('week').doNothing())
    .returning('week')
    .executeTakeFirst();
  if (!claimed) return false;
  await enqueueForSubscribers(db, {
    kind: 'weekly',
    pollId: null,
    previousPollId: null,
    week,
    dedupePrefix: `weekly:${week}:`,
    wants: 'wants_weekly',
    now,
  });
  return true;
}

/** The weeks whose digest went out, newest first (the feed's entries). */
export async function queuedWeeks(db: Db, limit: number): Promise<string[]> {
  const rows = await db.selectFrom('digest_weeks').select('week').orderBy('week', 'desc').limit(limit).execute();
  return rows.map((row) => row.week);
}

const SEND_AT = 'digest_send_at';

/** When the digest leaves on Fridays ("HH:MM", site time), or null when the owner never set it. */
export async function digestSendAt(db: Db): Promise<string | null> {
  const row = await db.selectFrom('settings').select('value').where('name', '=', SEND_AT).executeTakeFirst();
  return row?.value ?? null;
}

export async function setDigestSendAt(db: Db, value: string): Promise<void> {
  await db
    .insertInto('settings')
    .values({ name: SEND_AT, value })
    .onConflict((conflict) => conflict.column('name').doUpdateSet({ value }))
    .execute();
}
