/**
 * Row types of every table, as Kysely sees them: one file per domain under tables/, gathered
 * here into the one `Database`. SQL lives in the repositories; these types keep it honest.
 * Column names are snake_case in SQL and mapped to camelCase at the edges.
 */
import type {
  IntegrityActionsTable,
  IntegrityBucketsTable,
  IntegrityKeysTable,
  ProofOfWorkRedeemedTable,
} from './tables/integrity.js';
import type { DigestWeeksTable, EmailLinksTable, EmailOutboxTable, SubscribersTable } from './tables/mail.js';
import type {
  PollNotesTable,
  PollOptionsTable,
  PollSeriesTable,
  PollSuggestionsTable,
  PollsTable,
} from './tables/polls.js';
import type { PushRemindersTable, PushSubscriptionsTable } from './tables/push.js';
import type { CountersTable, RateLimitsTable, SettingsTable } from './tables/settings.js';
import type {
  AdminSessionsTable,
  AuditLogTable,
  StaffLinksTable,
  StaffPasskeysTable,
  StaffTable,
  WebauthnChallengesTable,
} from './tables/staff.js';
import type { PollSearchTable, PollTopicsTable, TopicsTable } from './tables/topics.js';
import type { ReissuedVoterIdsTable, VotesTable } from './tables/votes.js';
import type {
  PollBreakdownsTable,
  PollGroupTalliesTable,
  PollProfileTalliesTable,
  PollWeightingTable,
  ProfileAnswersTable,
} from './tables/weighting.js';

export type * from './tables/integrity.js';
export type * from './tables/mail.js';
export type * from './tables/polls.js';
export type * from './tables/push.js';
export type * from './tables/settings.js';
export type * from './tables/staff.js';
export type * from './tables/topics.js';
export type * from './tables/votes.js';
export type * from './tables/weighting.js';
export type { NullableTimestamp, Timestamp } from './tables/time.js';
export { toIsoString } from './tables/time.js';

export interface Database {
  polls: PollsTable;
  poll_options: PollOptionsTable;
  poll_series: PollSeriesTable;
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
  topics: TopicsTable;
  poll_topics: PollTopicsTable;
  poll_search: PollSearchTable;
  poll_notes: PollNotesTable;
  digest_weeks: DigestWeeksTable;
}
