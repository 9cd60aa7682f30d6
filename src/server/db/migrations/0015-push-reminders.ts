import type { Kysely } from 'kysely';
import { columnTypes } from './column-types.js';

/**
 * Push reminders (issue 28). push_subscriptions: one row per browser push subscription, owned
 * by a voter id, with the teacher's settings and `next_due_at`, the next instant their local
 * time reaches their reminder time on one of their days (worked out in JS, where the time
 * zones are), so the scheduler asks an index for what is due instead of every row's zone.
 * The endpoint is unique: a browser's subscription belongs to one voter.
 *
 * push_reminders: one row per subscription and site day, the unique key that makes "at most
 * one a day" hold across any number of instances; sent like the e-mail outbox, claimed with a
 * lease (SKIP LOCKED on PostgreSQL), so a sender that dies leaves its rows to be sent again.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('push_subscriptions')
    .addColumn('id', t.id, t.idConstraints)
    .addColumn('voter_id', 'text', (c) => c.notNull())
    .addColumn('endpoint', 'text', (c) => c.notNull().unique())
    .addColumn('p256dh', 'text', (c) => c.notNull())
    .addColumn('auth', 'text', (c) => c.notNull())
    .addColumn('time_of_day', 'text', (c) => c.notNull())
    .addColumn('time_zone', 'text', (c) => c.notNull())
    /** ISO weekdays as digits, "12345" for Monday to Friday. */
    .addColumn('days', 'text', (c) => c.notNull())
    .addColumn('paused_until', 'text')
    /** Null: no day left to remind on (cannot happen with at least one day, kept for safety). */
    .addColumn('next_due_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('last_seen_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('push_subscriptions_voter').on('push_subscriptions').column('voter_id').execute();
  await db.schema.createIndex('push_subscriptions_due').on('push_subscriptions').column('next_due_at').execute();
  await db.schema.createIndex('push_subscriptions_last_seen').on('push_subscriptions').column('last_seen_at').execute();

  await db.schema
    .createTable('push_reminders')
    .addColumn('id', t.id, t.idConstraints)
    .addColumn('subscription_id', 'integer', (c) => c.notNull().references('push_subscriptions.id').onDelete('cascade'))
    /** The site's date (the poll's day): the Topic and the notification's tag. */
    .addColumn('site_date', 'text', (c) => c.notNull())
    .addColumn('poll_id', 'integer', (c) => c.notNull().references('polls.id').onDelete('cascade'))
    /** queued, sending, sent, skipped (voted meanwhile), expired (voting closed first), failed (our bug), gone. */
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', t.timestamp, (c) => c.notNull())
    .addColumn('lease_owner', 'text')
    .addColumn('lease_expires_at', t.timestamp)
    .addColumn('last_status', 'integer')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('sent_at', t.timestamp)
    .addUniqueConstraint('push_reminders_once_a_day', ['subscription_id', 'site_date'])
    .execute();
  await db.schema
    .createIndex('push_reminders_due')
    .on('push_reminders')
    .columns(['status', 'next_attempt_at'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('push_reminders').execute();
  await db.schema.dropTable('push_subscriptions').execute();
}
