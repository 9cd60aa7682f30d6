/** The only place SQL about push subscriptions and their reminders lives. */
import { sql, type Selectable } from 'kysely';
import type { Db } from '../db/connection.js';
import { claimLeased } from '../db/leases.js';
import { toIsoString, type PushReminderStatus, type PushSubscriptionsTable } from '../db/tables.js';
import type { ReminderSettings } from '../../shared/reminders.js';

export interface StoredSubscription {
  id: number;
  voterId: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  settings: ReminderSettings;
  nextDueAt: string | null;
}

type SubscriptionRow = Selectable<PushSubscriptionsTable>;

const toSubscription = (row: SubscriptionRow): StoredSubscription => ({
  id: row.id,
  voterId: row.voter_id,
  endpoint: row.endpoint,
  p256dh: row.p256dh,
  auth: row.auth,
  settings: {
    timeOfDay: row.time_of_day,
    timeZone: row.time_zone,
    days: (row.days.match(/[1-7]/g) ?? []).map(Number),
    pausedUntil: row.paused_until,
  },
  nextDueAt: row.next_due_at === null ? null : toIsoString(row.next_due_at),
});

const settingsColumns = (settings: ReminderSettings, nextDueAt: Date | null) => ({
  time_of_day: settings.timeOfDay,
  time_zone: settings.timeZone,
  days: settings.days.join(''),
  paused_until: settings.pausedUntil,
  next_due_at: nextDueAt?.toISOString() ?? null,
});

/**
 * Stores a browser's subscription for `voterId`. The endpoint is the browser's: subscribing
 * again with it (a new voter id after "forget this browser", new keys) takes the row over.
 */
export async function upsertSubscription(
  db: Db,
  s: { voterId: string; endpoint: string; p256dh: string; auth: string; settings: ReminderSettings },
  nextDueAt: Date | null,
  now: Date,
): Promise<void> {
  const at = now.toISOString();
  const columns = { voter_id: s.voterId, p256dh: s.p256dh, auth: s.auth, ...settingsColumns(s.settings, nextDueAt) };
  await db
    .insertInto('push_subscriptions')
    .values({ ...columns, endpoint: s.endpoint, created_at: at, last_seen_at: at })
    .onConflict((conflict) => conflict.column('endpoint').doUpdateSet({ ...columns, last_seen_at: at }))
    .execute();
}

/** Keeps a voter's `keep` most recently seen subscriptions and deletes the rest. */
export async function trimVoterSubscriptions(db: Db, voterId: string, keep: number): Promise<void> {
  const kept = db
    .selectFrom('push_subscriptions')
    .select('id')
    .where('voter_id', '=', voterId)
    .orderBy('last_seen_at', 'desc')
    .orderBy('id', 'desc')
    .limit(keep);
  await db.deleteFrom('push_subscriptions').where('voter_id', '=', voterId).where('id', 'not in', kept).execute();
}

export async function findVoterSubscriptions(db: Db, voterId: string): Promise<StoredSubscription[]> {
  const rows = await db
    .selectFrom('push_subscriptions')
    .selectAll()
    .where('voter_id', '=', voterId)
    .orderBy('last_seen_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map(toSubscription);
}

/** New settings for every subscription of the voter; how many there are. */
export async function updateVoterSettings(
  db: Db,
  voterId: string,
  settings: ReminderSettings,
  nextDueAt: Date | null,
  now: Date,
): Promise<number> {
  const result = await db
    .updateTable('push_subscriptions')
    .set({ ...settingsColumns(settings, nextDueAt), last_seen_at: now.toISOString() })
    .where('voter_id', '=', voterId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function touchVoterSubscriptions(db: Db, voterId: string, now: Date): Promise<void> {
  await db
    .updateTable('push_subscriptions')
    .set({ last_seen_at: now.toISOString() })
    .where('voter_id', '=', voterId)
    .execute();
}

export async function deleteVoterSubscriptions(db: Db, voterId: string): Promise<number> {
  const result = await db.deleteFrom('push_subscriptions').where('voter_id', '=', voterId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** A push service said the subscription is gone: delete it, unless the browser has since given it a new endpoint. */
export async function deleteSubscriptionWithEndpoint(db: Db, id: number, endpoint: string): Promise<boolean> {
  const result = await db
    .deleteFrom('push_subscriptions')
    .where('id', '=', id)
    .where('endpoint', '=', endpoint)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * Subscriptions of browsers not seen since `before`: neither a reminders call nor a vote. Votes
 * count as visits, so a teacher who votes every day never has to open the settings.
 */
export async function deleteUnseenSubscriptions(db: Db, before: Date): Promise<number> {
  const cutoff = before.toISOString();
  const result = await db
    .deleteFrom('push_subscriptions')
    .where('last_seen_at', '<', cutoff)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('votes')
            .select(sql`1`.as('one'))
            .whereRef('votes.voter_id', '=', 'push_subscriptions.voter_id')
            .where('votes.created_at', '>=', cutoff),
        ),
      ),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Subscriptions whose time has come (at most `limit`, the longest waiting first). */
export async function findDueSubscriptions(db: Db, now: Date, limit: number): Promise<StoredSubscription[]> {
  const rows = await db
    .selectFrom('push_subscriptions')
    .selectAll()
    .where('next_due_at', '<=', now.toISOString())
    .orderBy('next_due_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map(toSubscription);
}

/**
 * Queues today's reminder for each of `ids` whose voter has not voted on `pollId`. The unique
 * (subscription, day) row makes this once per day however many instances run it at once.
 */
export async function enqueueReminders(
  db: Db,
  ids: readonly number[],
  day: { siteDate: string; pollId: number },
  now: Date,
): Promise<number> {
  if (ids.length === 0) return 0;
  const at = now.toISOString();
  const result = await db
    .insertInto('push_reminders')
    .columns(['subscription_id', 'site_date', 'poll_id', 'status', 'attempts', 'next_attempt_at', 'created_at'])
    .expression((eb) =>
      eb
        .selectFrom('push_subscriptions as s')
        .select([
          's.id',
          sql.lit(day.siteDate).as('site_date'),
          sql.lit(day.pollId).as('poll_id'),
          sql.lit('queued').as('status'),
          sql.lit(0).as('attempts'),
          sql`${at}`.as('next_attempt_at'),
          sql`${at}`.as('created_at'),
        ])
        .where('s.id', 'in', ids)
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('votes')
                .select(sql`1`.as('one'))
                .whereRef('votes.voter_id', '=', 's.voter_id')
                .where('votes.poll_id', '=', day.pollId),
            ),
          ),
        ),
    )
    .onConflict((conflict) => conflict.columns(['subscription_id', 'site_date']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

/** Moves a subscription's next reminder on, unless another instance already did. */
export async function advanceNextDue(db: Db, id: number, from: string, to: Date | null): Promise<void> {
  await db
    .updateTable('push_subscriptions')
    .set({ next_due_at: to?.toISOString() ?? null })
    .where('id', '=', id)
    .where('next_due_at', '=', from)
    .execute();
}

export interface ClaimedReminder {
  id: number;
  subscriptionId: number;
  siteDate: string;
  pollId: number;
  attempts: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  question: string;
  /** The voter voted meanwhile (say, between a 429 and the retry): no reminder. */
  voted: boolean;
}

/** Takes up to `limit` due reminders (or ones whose sender's lease ran out) for `owner`. */
export async function claimReminders(
  db: Db,
  owner: string,
  now: Date,
  leaseUntil: Date,
  limit: number,
): Promise<ClaimedReminder[]> {
  const ids = await claimLeased(db, 'push_reminders', owner, now, leaseUntil, limit);
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('push_reminders as r')
    .innerJoin('push_subscriptions as s', 's.id', 'r.subscription_id')
    .innerJoin('polls as p', 'p.id', 'r.poll_id')
    .select([
      'r.id',
      'r.subscription_id',
      'r.site_date',
      'r.poll_id',
      'r.attempts',
      's.endpoint',
      's.p256dh',
      's.auth',
      'p.question',
    ])
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom('votes')
            .select(sql`1`.as('one'))
            .whereRef('votes.voter_id', '=', 's.voter_id')
            .whereRef('votes.poll_id', '=', 'r.poll_id'),
        )
        .as('voted'),
    )
    .where('r.id', 'in', ids)
    .orderBy('r.id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    subscriptionId: row.subscription_id,
    siteDate: row.site_date,
    pollId: row.poll_id,
    attempts: row.attempts,
    endpoint: row.endpoint,
    p256dh: row.p256dh,
    auth: row.auth,
    question: row.question,
    voted: Boolean(row.voted),
  }));
}

export type SettledReminder =
  | { status: 'sent'; at: Date; httpStatus: number }
  | { status: 'queued'; retryAt: Date; httpStatus: number | null }
  | { status: Exclude<PushReminderStatus, 'sent' | 'queued' | 'sending'>; httpStatus: number | null };

/** Records how a reminder's send ended, if `owner` still holds it. */
export async function settleReminder(db: Db, id: number, owner: string, outcome: SettledReminder): Promise<void> {
  await db
    .updateTable('push_reminders')
    .set({
      status: outcome.status,
      lease_owner: null,
      lease_expires_at: null,
      last_status: outcome.httpStatus,
      ...(outcome.status === 'sent' ? { sent_at: outcome.at.toISOString() } : {}),
      ...(outcome.status === 'queued' ? { next_attempt_at: outcome.retryAt.toISOString() } : {}),
    })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .execute();
}

/** Records many sends at once (a batch's successes: one statement instead of one each). */
export async function settleSent(
  db: Db,
  ids: readonly number[],
  owner: string,
  at: Date,
  httpStatus: number,
): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('push_reminders')
    .set({
      status: 'sent',
      lease_owner: null,
      lease_expires_at: null,
      last_status: httpStatus,
      sent_at: at.toISOString(),
    })
    .where('id', 'in', ids)
    .where('lease_owner', '=', owner)
    .execute();
}

/** Forgets reminders of days before `before` (YYYY-MM-DD). */
export async function deleteRemindersBefore(db: Db, before: string): Promise<number> {
  const result = await db.deleteFrom('push_reminders').where('site_date', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** How many reminders of `siteDate` are in each state (tests, the bench). */
export async function reminderCounts(db: Db, siteDate: string): Promise<Partial<Record<PushReminderStatus, number>>> {
  const rows = await db
    .selectFrom('push_reminders')
    .select(['status', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('site_date', '=', siteDate)
    .groupBy('status')
    .execute();
  return Object.fromEntries(rows.map((row) => [row.status, Number(row.n)]));
}
