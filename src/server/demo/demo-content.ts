/**
 * Demo data for `npm run demo`: what the sample polls and suggestions are, and how demo voters
 * answer the profile. The polls and suggestions themselves are data, in demo-content.json.
 */
import file from './demo-content.json' with { type: 'json' };
import type { Profile, ProfileDimension } from '../../shared/profile.js';

/** How a group of voters leans away from everyone else on a poll: its own weights. */
export interface DemoLean<D extends ProfileDimension = ProfileDimension> {
  dimension: D;
  group: NonNullable<Profile[D]>;
  weights: number[];
}

export interface DemoPoll {
  question: string;
  description: string | null;
  options: string[];
  /**
   * Relative popularity of each option (same length as options), e.g. [52, 31, 17];
   * used to spread demo votes realistically.
   */
  weights: number[];
  /** How many votes the poll gets in the demo, between 40 and 900. */
  votes: number;
  /** Groups that vote differently from the rest, so the breakdowns have something to show. */
  leans?: DemoLean[];
  /** The staff note, "What we learned" (Markdown). */
  note?: string;
}

/** How often demo voters give each answer of the profile (relative weights, in the order of the choices asked now). */
export const profileWeights: { [D in ProfileDimension]: number[] } = {
  role: [70, 10, 12, 8],
  gradeBand: [8, 32, 22, 26, 4, 8],
  region: [18, 22, 36, 20, 4],
  experience: [16, 26, 18, 40],
};

/** Share of demo voters who answer the profile at all, and of those, who answer each question. */
export const PROFILE_TAKE_UP = 0.7;
export const ANSWER_RATE = 0.9;

/** An earlier run of a question asked again: how long ago, how voters leaned, how many voted. */
export interface EarlierRun {
  daysAgo: number;
  weights: number[];
  votes: number;
}

export interface DemoSuggestion {
  question: string;
  options: string[];
  suggestedBy: string | null;
  email: string | null;
  status: 'pending' | 'approved' | 'rejected';
}

/** demo-content.json. */
interface DemoContent {
  /** Today's poll. */
  activePoll: DemoPoll;
  /**
   * Today's question was asked four times before (over the past year), with the same options: a
   * series of five runs, the demo's first tracker.
   */
  activePollEarlierRuns: EarlierRun[];
  /** Twelve past polls, newest first (index 0 ran yesterday). */
  pastPolls: DemoPoll[];
  /** Yesterday's question (pastPolls[0]) was asked three times before: the demo's second tracker. */
  latestPastPollEarlierRuns: EarlierRun[];
  /** Three scheduled polls, soonest first. */
  scheduledPolls: DemoPoll[];
  /** Four pending, two approved, two rejected suggestions. */
  suggestions: DemoSuggestion[];
}

// JSON gives plain strings where the types name a few (a suggestion's status, a lean's group):
// the file is ours, and seed.test.ts seeds the whole demo from it.
export const { activePoll, activePollEarlierRuns, pastPolls, latestPastPollEarlierRuns, scheduledPolls, suggestions } =
  file as DemoContent;
