/** Votes and the voter ids behind them. */
import type { ColumnType, Generated } from 'kysely';
import type { Timestamp } from './time.js';

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

/**
 * Bare voter ids from before signing that were re-issued signed, by their SHA-256: the bare
 * form is then refused (voters/voter-ids.service.ts).
 */
export interface ReissuedVoterIdsTable {
  id_hash: string;
  reissued_at: Timestamp;
}
