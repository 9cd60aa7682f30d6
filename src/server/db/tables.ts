/**
 * Row types of every table, as Kysely sees them. SQL lives in the repositories; these types
 * keep it honest. Column names are snake_case in SQL and mapped to camelCase at the edges.
 */
import type { ColumnType, Generated } from 'kysely';

/**
 * A point in time. It is written as an ISO string; PostgreSQL (timestamptz) reads back a Date,
 * SQLite (text) the string. Use `toIsoString` to read it.
 */
export type Timestamp = ColumnType<Date | string, string, string>;
export type NullableTimestamp = ColumnType<Date | string | null, string | null, string | null>;

/** scheduled: not live yet. active: today's poll (at most one). past: was live, now archived. */
export type PollStatus = 'scheduled' | 'active' | 'past';

export type SuggestionStatus = 'pending' | 'approved' | 'rejected';

export interface PollsTable {
  id: Generated<number>;
  poll_number: number;
  question: string;
  description: string | null;
  /** YYYY-MM-DD in the site time zone. */
  live_date: string;
  status: PollStatus;
  /** When the poll last became the active poll; null while it has never been live. */
  went_live_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** The runs of a question asked again share this: the id of its first run. */
  series_id: number | null;
  /** The earlier run staff linked this poll to ("Asked before as poll #"). */
  asked_before_id: number | null;
  /** Votes held or discounted (vote_status other than counted): kept by triggers and staff actions. */
  set_aside_votes: Generated<number>;
  /** Staff asked every vote on this poll for a proof of work (integrity/). */
  challenge_everyone: Generated<boolean | number>;
}

/** The options of a poll with their running vote counts: results cost O(options), not O(votes). */
export interface PollOptionsTable {
  poll_id: number;
  position: number;
  label: string;
  vote_count: Generated<number>;
}

export interface VotesTable {
  id: Generated<number>;
  poll_id: number;
  /** The anonymous id from the voter cookie. */
  voter_id: string;
  option_index: number;
  /** Attached when the voter gives an e-mail (update-vote); unique per poll. */
  voter_email: string | null;
  /** The site-time-zone date of the vote, for streaks. */
  voted_on: string;
  created_at: Timestamp;
  /** Only counted votes are in tallies, results, breakdowns and exports. */
  status: ColumnType<VoteStatus, VoteStatus | undefined, VoteStatus>;
  /** The keyed hash of the client's address block under the day's key (integrity/buckets.ts); emptied after 30 days. */
  bucket: string | null;
  /** Milliseconds from the signed ballot's page to the vote; null without a valid ballot. Emptied after 30 days. */
  page_ms: number | null;
  /** Age of the voter cookie when it voted, in seconds; null when issued with the vote. Emptied after 30 days. */
  cookie_age_s: number | null;
  /** The staff action that discounted this vote. */
  discount_id: number | null;
  /** The voter's profile when the vote was cast (src/server/weighting/profile-copy.ts); null without one. */
  voter_profile: string | null;
}

/** counted: in every figure. held: awaiting staff (no proof of work where one was asked). discounted: set aside by staff. */
export type VoteStatus = 'counted' | 'held' | 'discounted';

/** A site day's key for vote buckets: deleted after 14 days, which makes that day's buckets unlinkable. */
export interface IntegrityKeysTable {
  day: string;
  key: string;
}

export type BucketState = 'watch' | 'challenge';

/** A bucket's state on a poll, as the detector (integrity/detector.ts) last judged it, for every instance. */
export interface IntegrityBucketsTable {
  poll_id: number;
  bucket: string;
  state: BucketState;
  first_flagged_at: Timestamp;
  challenged_since: NullableTimestamp;
  /** The challenge lasts until the bucket has been quiet this long past its last suspicious minute. */
  challenged_until: NullableTimestamp;
  updated_at: Timestamp;
  /** What the detector saw, comma-separated (volume, skew, fast, no-ballot, regular). */
  reasons: Generated<string>;
}

export type IntegrityActionKind = 'discount' | 'restore' | 'release' | 'challenge-on' | 'challenge-off';

/** The append-only log of staff review. */
export interface IntegrityActionsTable {
  id: Generated<number>;
  poll_id: number;
  kind: IntegrityActionKind;
  bucket: string | null;
  from_at: NullableTimestamp;
  to_at: NullableTimestamp;
  reason: string;
  votes: number;
  actor: string;
  /** For a restore: the discount it undoes. */
  undoes_id: number | null;
  /** JSON [{dimension, group, option, votes}]: the group tallies the action took away (−) or gave back (+). */
  group_changes: Generated<string>;
  created_at: Timestamp;
}

/** A proof of work already counted (integrity/proof-of-work.ts), by its challenge's signature, until that expires. */
export interface ProofOfWorkRedeemedTable {
  challenge_signature: string;
  expires_at: Timestamp;
}

/** One answer of a browser's profile: a group id from the dimension's list (src/shared/profile.ts). */
export interface ProfileAnswersTable {
  voter_id: string;
  dimension: string;
  group_value: string;
  updated_at: Timestamp;
}

/** A poll's votes per group and option, as voters described themselves when they voted. */
export interface PollGroupTalliesTable {
  poll_id: number;
  dimension: string;
  group_value: string;
  option_index: number;
  vote_count: number;
}

/** A poll's counted votes per voter profile (as cast) and option: what its weighted line is raked from. */
export interface PollProfileTalliesTable {
  poll_id: number;
  voter_profile: string;
  option_index: number;
  vote_count: number;
}

/** A closed poll's weighted line ('poll') and its breakdown groups' ('dimension:group'), once computed. */
export interface PollWeightingTable {
  poll_id: number;
  scope: string;
  /** The targets and rules it was computed under. */
  basis: string;
  /** The poll's counted votes when it was computed. */
  counted_votes: number;
  /** The Weighted, as JSON. */
  weighted: string;
  computed_at: Timestamp;
}

/** A poll's breakdown as published after a close (migration 0019): read as it is, never recomputed. */
export interface PollBreakdownsTable {
  poll_id: number;
  /** The site date of the close it shows. */
  closed_on: string;
  total_votes: number;
  set_aside_votes: number;
  /** The published BreakdownDimension[], as JSON. */
  dimensions: string;
  published_at: Timestamp;
}

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
}

/** welcome: the single opt-in greeting before 0004 (kept in old rows only). */
export type EmailKind = 'confirm' | 'daily' | 'welcome' | 'staff-invite' | 'staff-alert';
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

export interface PollSuggestionsTable {
  id: Generated<number>;
  question: string;
  /** JSON array of the option texts. */
  options: string;
  status: Generated<SuggestionStatus>;
  suggested_by: string | null;
  email: string | null;
  created_at: Timestamp;
  reviewed_at: NullableTimestamp;
}

/** Named counters that only go up, such as the next poll number. */
export interface CountersTable {
  name: string;
  value: number;
}

/** Values the site makes for itself once: the generated admin password's hash, hashing keys. */
export interface SettingsTable {
  name: string;
  value: string;
}

export interface AdminSessionsTable {
  id: Generated<number>;
  /** SHA-256 of the session token; the token itself lives only in the staff member's cookie. */
  token_hash: string;
  staff_id: number;
  /** "Firefox on Windows": what the person sees in their list of sessions. */
  browser: string;
  created_at: Timestamp;
  /** When the person last proved who they are (signed in or re-confirmed). */
  signed_in_at: Timestamp;
  last_seen_at: Timestamp;
  expires_at: Timestamp;
}

export type StaffRoleColumn = 'owner' | 'editor' | 'moderator';

export interface StaffTable {
  id: Generated<number>;
  /** Lower case; one account per address. */
  email: string;
  display_name: string;
  role: StaffRoleColumn;
  /** scrypt (admin/password.ts); null for a person who signs in with passkeys only. */
  password_hash: string | null;
  created_at: Timestamp;
  disabled_at: NullableTimestamp;
}

export interface StaffPasskeysTable {
  /** The credential id, base64url. */
  id: string;
  staff_id: number;
  name: string;
  /** COSE public key, base64url. */
  public_key: string;
  counter: ColumnType<number | string, number, number>;
  /** JSON array of transports. */
  transports: string;
  created_at: Timestamp;
  last_used_at: NullableTimestamp;
}

export interface StaffLinksTable {
  id: Generated<number>;
  token_hash: string;
  mail_token_hash: Generated<string | null>;
  kind: 'invite' | 'sign-in';
  email: string | null;
  role: StaffRoleColumn | null;
  staff_id: number | null;
  created_by: number | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
  accepted_staff_id: number | null;
}

export interface WebauthnChallengesTable {
  challenge: string;
  purpose: 'sign-in' | 'register' | 'invite';
  staff_id: number | null;
  link_id: number | null;
  /** A sign-in challenge's network (keyed hash): each keeps only its newest few. */
  network: Generated<string | null>;
  expires_at: Timestamp;
}

export interface AuditLogTable {
  id: Generated<number>;
  at: Timestamp;
  actor_id: number | null;
  actor_name: string;
  actor_role: string;
  action: string;
  target: string;
  summary: string;
  prev_hash: string;
  hash: string;
}

/** Actions counted per key (an address hash, a voter) in a fixed window, for every instance. */
export interface RateLimitsTable {
  key: string;
  window_started_at: Timestamp;
  hits: number;
}

/**
 * Bare voter ids from before signing that were re-issued signed, by their SHA-256: the bare
 * form is then refused (voters/voter-ids.service.ts).
 */
export interface ReissuedVoterIdsTable {
  id_hash: string;
  reissued_at: Timestamp;
}

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

export interface Database {
  polls: PollsTable;
  poll_options: PollOptionsTable;
  votes: VotesTable;
  subscribers: SubscribersTable;
  poll_suggestions: PollSuggestionsTable;
  counters: CountersTable;
  settings: SettingsTable;
  admin_sessions: AdminSessionsTable;
  staff: StaffTable;
  staff_passkeys: StaffPasskeysTable;
  staff_links: StaffLinksTable;
  webauthn_challenges: WebauthnChallengesTable;
  audit_log: AuditLogTable;
  email_outbox: EmailOutboxTable;
  email_links: EmailLinksTable;
  rate_limits: RateLimitsTable;
  profile_answers: ProfileAnswersTable;
  poll_group_tallies: PollGroupTalliesTable;
  poll_profile_tallies: PollProfileTalliesTable;
  poll_weighting: PollWeightingTable;
  poll_breakdowns: PollBreakdownsTable;
  integrity_keys: IntegrityKeysTable;
  integrity_buckets: IntegrityBucketsTable;
  integrity_actions: IntegrityActionsTable;
  reissued_voter_ids: ReissuedVoterIdsTable;
  proof_of_work_redeemed: ProofOfWorkRedeemedTable;
  push_subscriptions: PushSubscriptionsTable;
  push_reminders: PushRemindersTable;
}

export function toIsoString(value: Date | string): string {
  return typeof value === 'string' ? new Date(value).toISOString() : value.toISOString();
}
