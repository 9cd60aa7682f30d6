/** Polls, their options and the community's suggestions for new ones. */
import type { Generated } from 'kysely';
import type { NullableTimestamp, Timestamp } from './time.js';

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
  /** Its integrity data was purged after 30 days (migration 0026). */
  integrity_purged: Generated<boolean | number>;
  /**
   * A browser forgotten since voting kept its counted vote's profile tally but not the vote's
   * copy: the next staff action counts the profile tallies again (migration 0028).
   */
  profile_tallies_stale: Generated<boolean | number>;
}

/** The options of a poll with their running vote counts: results cost O(options), not O(votes). */
export interface PollOptionsTable {
  poll_id: number;
  position: number;
  label: string;
  vote_count: Generated<number>;
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
  /** The topic the visitor picked (issue 39), if any. */
  topic_id: number | null;
}

/** A series of runs named by staff (migration 0020): its id is the series_id its runs share. */
export interface PollSeriesTable {
  id: number;
  name: string;
  slug: string;
  updated_at: Timestamp;
}

/** A poll's staff note, "What we learned" (Markdown as typed; rendered when read). */
export interface PollNotesTable {
  poll_id: number;
  body: string;
  updated_at: Timestamp;
  /** The staff id of the last edit; null when the site wrote it (demo data). */
  updated_by: number | null;
}
