/**
 * SQL of the outbox. Messages are enqueued inside the transaction of what causes them, and
 * claimed with a lease: a claimed row is one instance's to send until the lease runs out, so
 * several instances never send the same row (PostgreSQL: FOR UPDATE SKIP LOCKED).
 */
import { sql } from 'kysely';
import type { Db } from '../db/connection.js';
import { claimLeased } from '../db/leases.js';
import { columnTypes } from '../db/migrations/column-types.js';
import { toIsoString, type EmailKind, type EmailStatus } from '../db/tables.js';

/** The e-mail asking a new (or returning) subscriber to confirm: one per request that sends one. */
export async function enqueueConfirmation(db: Db, subscriberId: number, now: Date): Promise<void> {
  const at = now.toISOString();
  await db
    .insertInto('email_outbox')
    .values({
      kind: 'confirm',
      subscriber_id: subscriberId,
      poll_id: null,
      previous_poll_id: null,
      dedupe_key: `confirm:${subscriberId}:${at}`,
      status: 'queued',
      next_attempt_at: at,
      created_at: at,
    })
    .onConflict((conflict) => conflict.column('dedupe_key').doNothing())
    .execute();
}

/**
 * The day's e-mail to every confirmed subscriber, in one statement: at most one per subscriber
 * and day, however often a poll goes live that day. Those who chose the weekly digest alone are
 * not sent it.
 */
export async function enqueueDaily(
  db: Db,
  { pollId, previousPollId, day, now }: { pollId: number; previousPollId: number | null; day: string; now: Date },
): Promise<void> {
  await enqueueForSubscribers(db, {
    kind: 'daily',
    pollId,
    previousPollId,
    week: null,
    dedupePrefix: `daily:${day}:`,
    wants: 'wants_daily',
    now,
  });
}

/**
 * One e-mail of `kind` to every confirmed subscriber who wants it, in one statement (INSERT ...
 * SELECT): each one's dedupe key is `dedupePrefix` and its id, so a second call queues nothing.
 */
export async function enqueueForSubscribers(
  db: Db,
  {
    kind,
    pollId,
    previousPollId,
    week,
    dedupePrefix,
    wants,
    now,
  }: {
    kind: EmailKind;
    pollId: number | null;
    previousPollId: number | null;
    week: string | null;
    dedupePrefix: string;
    wants: 'wants_daily' | 'wants_weekly';
    now: Date;
  },
): Promise<void> {
  const t = columnTypes(db);
  const at = now.toISOString();
  await db
    .insertInto('email_outbox')
    .columns([
      'kind',
      'subscriber_id',
      'poll_id',
      'previous_poll_id',
      'week',
      'dedupe_key',
      'status',
      'attempts',
      'next_attempt_at',
      'created_at',
    ])
    .expression(
      db
        .selectFrom('subscribers')
        // PostgreSQL needs the type of each parameter in INSERT ... SELECT.
        .select((eb) => [
          eb.cast<EmailKind>(eb.val(kind), 'text').as('kind'),
          'id',
          eb.cast<number | null>(eb.val(pollId), 'integer').as('poll_id'),
          eb.cast<number | null>(eb.val(previousPollId), 'integer').as('previous_poll_id'),
          eb.cast<string | null>(eb.val(week), 'text').as('week'),
          sql<string>`cast(${dedupePrefix} as text) || cast(id as text)`.as('dedupe_key'),
          eb.cast<EmailStatus>(eb.val('queued'), 'text').as('status'),
          eb.cast<number>(eb.val(0), 'integer').as('attempts'),
          eb.cast<string>(eb.val(at), t.timestamp).as('next_attempt_at'),
          eb.cast<string>(eb.val(at), t.timestamp).as('created_at'),
        ])
        .where('unsubscribed_at', 'is', null)
        .where('confirmed_at', 'is not', null)
        .where(sql<boolean>`${sql.ref(wants)}`),
    )
    .onConflict((conflict) => conflict.column('dedupe_key').doNothing())
    .execute();
}

export interface ClaimedMail {
  id: number;
  kind: EmailKind;
  /** Null for a staff invite or alert. */
  subscriberId: number | null;
  /** A staff invite's link. */
  staffLinkId: number | null;
  /** A staff alert's person. */
  staffId: number | null;
  pollId: number | null;
  previousPollId: number | null;
  /** A weekly digest's ISO week. */
  week: string | null;
  /** Including this one. */
  attempts: number;
  /** When it was queued: a daily e-mail is about that day. */
  createdAt: string;
}

/** Takes up to `limit` due messages (or ones whose sender's lease ran out) for `owner`. */
export async function claimDue(
  db: Db,
  owner: string,
  now: Date,
  leaseUntil: Date,
  limit: number,
): Promise<ClaimedMail[]> {
  const ids = await claimLeased(db, 'email_outbox', owner, now, leaseUntil, limit);
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('email_outbox')
    .select([
      'id',
      'kind',
      'subscriber_id',
      'staff_link_id',
      'staff_id',
      'poll_id',
      'previous_poll_id',
      'week',
      'attempts',
      'created_at',
    ])
    .where('id', 'in', ids)
    .execute();
  return rows
    .map((row) => ({
      id: row.id,
      kind: row.kind,
      subscriberId: row.subscriber_id,
      staffLinkId: row.staff_link_id,
      staffId: row.staff_id,
      pollId: row.poll_id,
      previousPollId: row.previous_poll_id,
      week: row.week,
      attempts: row.attempts,
      createdAt: toIsoString(row.created_at),
    }))
    .sort((a, b) => a.id - b.id);
}

/** Records the outcome of a send, if `owner` still holds the message. */
export async function settle(
  db: Db,
  id: number,
  owner: string,
  outcome:
    | { status: 'sent'; at: Date }
    | { status: 'queued'; retryAt: Date; error: string }
    | { status: 'failed' | 'cancelled'; error: string },
): Promise<void> {
  await db
    .updateTable('email_outbox')
    .set({
      status: outcome.status,
      lease_owner: null,
      lease_expires_at: null,
      ...(outcome.status === 'sent'
        ? { sent_at: outcome.at.toISOString(), last_error: null }
        : { last_error: outcome.error }),
      ...(outcome.status === 'queued' ? { next_attempt_at: outcome.retryAt.toISOString() } : {}),
    })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .execute();
}

export async function outboxCounts(db: Db): Promise<Record<EmailStatus, number>> {
  const rows = await db
    .selectFrom('email_outbox')
    .select((eb) => ['status', eb.fn.countAll<number>().as('n')])
    .groupBy('status')
    .execute();
  const counts: Record<EmailStatus, number> = { queued: 0, sending: 0, sent: 0, failed: 0, cancelled: 0 };
  for (const row of rows) counts[row.status] = row.n;
  return counts;
}

/** Mail waiting to go (queued, or being sent): how many, and when the oldest was queued (null: none). */
export async function waitingMail(db: Db): Promise<{ count: number; oldestCreatedAt: string | null }> {
  const row = await db
    .selectFrom('email_outbox')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min<Date | string | null>('created_at').as('oldest')])
    .where('status', 'in', ['queued', 'sending'])
    .executeTakeFirst();
  const oldest = row?.oldest ?? null;
  return { count: row?.n ?? 0, oldestCreatedAt: oldest === null ? null : toIsoString(oldest) };
}

/** Forgets messages sent before `before`: the outbox keeps what is due and a month of what went out. */
export async function deleteSentBefore(db: Db, before: Date): Promise<number> {
  const result = await db
    .deleteFrom('email_outbox')
    .where('status', '=', 'sent')
    .where('sent_at', '<', before.toISOString())
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Queues a staff invite's e-mail, in the invite's own transaction. */
export async function enqueueStaffInvite(db: Db, staffLinkId: number, now: Date): Promise<void> {
  const at = now.toISOString();
  await db
    .insertInto('email_outbox')
    .values({
      kind: 'staff-invite',
      subscriber_id: null,
      staff_link_id: staffLinkId,
      dedupe_key: `staff-invite:${staffLinkId}`,
      status: 'queued',
      next_attempt_at: at,
      created_at: at,
    })
    .execute();
}

/**
 * Queues the e-mail telling a member of staff their account is under attack: at most one a day
 * (UTC), however long the attack goes on.
 */
export async function enqueueStaffAlert(db: Db, staffId: number, now: Date): Promise<void> {
  const at = now.toISOString();
  await db
    .insertInto('email_outbox')
    .values({
      kind: 'staff-alert',
      subscriber_id: null,
      staff_id: staffId,
      dedupe_key: `staff-alert:${staffId}:${at.slice(0, 10)}`,
      status: 'queued',
      next_attempt_at: at,
      created_at: at,
    })
    .onConflict((conflict) => conflict.column('dedupe_key').doNothing())
    .execute();
}

/**
 * Queues the e-mail telling the site's owners and editors that a poll is under challenge or in
 * a surge (issue 37, item 5): one per person, poll and hour (UTC), however many networks are
 * challenged in it. Gives how many were queued.
 */
export async function enqueueIntegrityAlerts(db: Db, pollId: number, now: Date): Promise<number> {
  const at = now.toISOString();
  const hour = at.slice(0, 13);
  const staff = await db
    .selectFrom('staff')
    .select('id')
    .where('role', 'in', ['owner', 'editor'])
    .where('disabled_at', 'is', null)
    .execute();
  if (staff.length === 0) return 0;
  const result = await db
    .insertInto('email_outbox')
    .values(
      staff.map((person) => ({
        kind: 'staff-integrity' as const,
        subscriber_id: null,
        staff_id: person.id,
        poll_id: pollId,
        dedupe_key: `staff-integrity:${pollId}:${person.id}:${hour}`,
        status: 'queued' as const,
        next_attempt_at: at,
        created_at: at,
      })),
    )
    .onConflict((conflict) => conflict.column('dedupe_key').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}
