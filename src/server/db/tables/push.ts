/** Push reminders: browsers' subscriptions and the reminders sent to them. */
import type { Generated } from 'kysely';
import type { NullableTimestamp, Timestamp } from './time.js';

/** A browser's push subscription and its reminder settings (push/). */
export interface PushSubscriptionsTable {
  id: Generated<number>;
  voter_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  /** HH:MM in time_zone. */
  time_of_day: string;
  time_zone: string;
  /** ISO weekdays as digits: "12345". */
  days: string;
  /** YYYY-MM-DD in time_zone: no reminder before it. */
  paused_until: string | null;
  next_due_at: NullableTimestamp;
  created_at: Timestamp;
  last_seen_at: Timestamp;
}

export type PushReminderStatus = 'queued' | 'sending' | 'sent' | 'skipped' | 'expired' | 'failed';

/** One reminder per subscription and site day, sent like the outbox (push/reminder-sender.ts). */
export interface PushRemindersTable {
  id: Generated<number>;
  subscription_id: number;
  site_date: string;
  poll_id: number;
  status: PushReminderStatus;
  attempts: Generated<number>;
  next_attempt_at: Timestamp;
  lease_owner: string | null;
  lease_expires_at: NullableTimestamp;
  last_status: number | null;
  created_at: Timestamp;
  sent_at: NullableTimestamp;
}
