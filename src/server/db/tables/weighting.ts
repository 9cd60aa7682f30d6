/** Voter profiles and what is computed from them: group and profile tallies, weighted lines, published breakdowns. */
import type { Timestamp } from './time.js';

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
