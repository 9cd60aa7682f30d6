/** Subscribers and the e-mail outbox with its links. */
import type { Generated } from 'kysely';
import type { NullableTimestamp, Timestamp } from './time.js';

export interface SubscribersTable {
  id: Generated<number>;
  email: string;
  /** The poll the visitor subscribed from, kept as part of the consent record. */
  source_poll_id: number | null;
  created_at: Timestamp;
  unsubscribed_at: NullableTimestamp;
  /** The consent wording the subscriber agreed to, and when. */
  consent_text: string | null;
  /** When the consent was given: the latest request to subscribe. */
  consented_at: NullableTimestamp;
  /** Double opt-in: set when the link in the confirmation e-mail was followed. */
  confirmed_at: NullableTimestamp;
  /** When the last confirmation e-mail was queued: at most one a day per address. */
  confirmation_sent_at: NullableTimestamp;
  /** The daily e-mail, the weekly digest, or both (migration 0025). */
  wants_daily: Generated<boolean | number>;
  wants_weekly: Generated<boolean | number>;
}

/** welcome: the single opt-in greeting before 0004 (kept in old rows only). */
export type EmailKind = 'confirm' | 'daily' | 'weekly' | 'welcome' | 'staff-invite' | 'staff-alert' | 'staff-integrity';
export type EmailStatus = 'queued' | 'sending' | 'sent' | 'failed' | 'cancelled';

/** Every e-mail, before and after it is sent (the outbox pattern). */
export interface EmailOutboxTable {
  id: Generated<number>;
  kind: EmailKind;
  /** Null for a staff invite, which names its staff link instead, and a staff alert, which names its person. */
  subscriber_id: number | null;
  staff_link_id: Generated<number | null>;
  staff_id: Generated<number | null>;
  /** For a daily e-mail: today's poll and the one whose results it reports. */
  poll_id: number | null;
  previous_poll_id: number | null;
  /** A weekly digest's ISO week ("2026-W48"). */
  week: Generated<string | null>;
  dedupe_key: string;
  status: EmailStatus;
  attempts: Generated<number>;
  next_attempt_at: Timestamp;
  /** The instance sending it, until when; an expired lease is anyone's to take. */
  lease_owner: string | null;
  lease_expires_at: NullableTimestamp;
  last_error: string | null;
  created_at: Timestamp;
  sent_at: NullableTimestamp;
}

export type EmailLinkPurpose = 'confirm' | 'unsubscribe';

/**
 * The links in subscribers' e-mails, by the SHA-256 of their token: the token itself is only
 * in the e-mail. Each e-mail has links of its own (subscriptions/subscriber-mail.ts).
 */
export interface EmailLinksTable {
  token_hash: string;
  subscriber_id: number;
  purpose: EmailLinkPurpose;
  created_at: Timestamp;
}

/** The weeks whose digest was queued: one row each, written with its e-mails. */
export interface DigestWeeksTable {
  week: string;
  queued_at: Timestamp;
}
