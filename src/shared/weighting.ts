/**
 * The weighted line: results adjusted to the mix of US K-12 teachers (issue 26). What is shared
 * by the server, the pages and the API lives here: the result's shape, the rules that withhold
 * it, their plain words, and how a voter's profile maps onto the categories NCES publishes.
 * The targets themselves and the raking are server-only (src/server/weighting).
 */
import type { Profile } from './profile.js';

export type WeightingWithheldReason =
  | 'voting-open'
  | 'too-few-votes'
  | 'small-category'
  | 'not-converged'
  | 'small-effective-sample'
  | 'secondary-suppression';

export interface WeightedResults {
  /** Who the line describes, e.g. 'US K-12 teachers' (from the targets file). */
  population: string;
  /** Per option, whole percentages adding up to 100 (largest remainder, as the raw results). */
  percentages: number[];
  votesInScope: number;
  /** Kish's effective sample, (Σw)²/Σw², rounded to a whole number. */
  effectiveSample: number;
  /** Votes in scope / effective sample, to 2 decimals. */
  designEffect: number;
  /** The poll's own line only (a breakdown group's has none): how far it could move with who voted. */
  interval?: CredibilityInterval;
  /** Votes weighted more than 3× the mean weight, and the share of the line they carry (lines kept before issue 38 lack it). */
  heavyWeights?: HeavyWeights;
  /**
   * How years teaching was raked: on NCES's 4 bands, or on 2 (3 years or less, 4 or more) when
   * too few votes carry answers that place them in the 4 (WEIGHTING_RULES.fourYearBands; lines
   * kept before issue 38 lack it, and were raked on 2).
   */
  yearsBands?: 2 | 4;
}

/** How much of a line rests on few votes: those weighted more than 3× the mean (/methods). */
export interface HeavyWeights {
  votes: number;
  /** Their share of all the weight, in percent to one decimal. */
  share: number;
}

/**
 * The 95% credibility interval of each option's adjusted percentage (src/server/weighting/
 * interval.ts, /methods): the spread of the line over bootstrap resamples of the votes in
 * scope, each raked again from scratch. It covers who happened to vote and weighting them, not
 * who chose not to vote. Never called a margin of error (DESIGN.md).
 */
export interface CredibilityInterval {
  /** Per option, the interval's lower end in whole percentages (never above the option's percentage). */
  low: number[];
  /** Per option, the upper end (never below the option's percentage). */
  high: number[];
  /**
   * Per option, the design effect the interval implies: the variance of the option's share over
   * the resamples, divided by p(1 − p)/n, a simple random sample's of the same size; to 2
   * decimals, null for a share of 0 or 100%.
   */
  designEffects: (number | null)[];
  /** How many resamples were raked. */
  replicates: number;
  /** The bootstrap's seed (the poll's id): the same votes and seed give the same interval. */
  seed: number;
}

export type Weighted = WeightedResults | { withheld: WeightingWithheldReason; votesInScope: number };

/**
 * Every threshold of the weighted line, published as they are in /data/weighting.json.
 * tolerancePoints is in percentage points; weightCap is a multiple of the mean weight.
 * A breakdown group uses `group`'s two thresholds in place of the poll's; the rest apply to both.
 */
export const WEIGHTING_RULES = {
  minVotes: 100,
  minPerCategory: 5,
  minEffectiveSample: 50,
  minEffectiveShare: 1 / 3,
  tolerancePoints: 0.01,
  maxCycles: 100,
  weightCap: 5,
  /** A vote weighted more than this many times the mean is flagged: the line says how much rests on such votes. */
  flagWeightAbove: 3,
  /** The credibility interval: its level and the number of bootstrap resamples (interval.ts). */
  interval: { level: 0.95, replicates: 500 },
  group: { minVotes: 30, minEffectiveSample: 20 },
  /**
   * Years teaching is raked on NCES's four bands when each of the four holds at least this many
   * votes in scope whose answer places them in it (the line's or the group's own votes); on two
   * bands (3 years or less, 4 or more) otherwise. Answers given before issue 38 in 6–10 or 11–20
   * years place a vote in "4 or more" alone: raked on four, those votes are raked on the two.
   */
  fourYearBands: { minVotesPerBand: 20 },
} as const;

/** Plain-words sentence for each withheld reason, for pages and the API. */
export const WITHHELD_REASON_TEXT: Record<WeightingWithheldReason, string> = {
  'voting-open': 'The adjusted result is worked out once voting has closed.',
  'too-few-votes': 'Too few votes from US K-12 classroom teachers with a full profile to adjust the result.',
  'small-category':
    'The votes come from too narrow a mix of teachers (grade level, region or years teaching) to adjust the result.',
  'not-converged': 'The votes could not be adjusted to the mix of US K-12 teachers within our limits.',
  'small-effective-sample':
    'Adjusting these votes would lean too hard on a few of them (the effective sample would be too small).',
  'secondary-suppression': 'Withheld so that smaller groups cannot be worked out by subtraction.',
};

/** The target categories, in merge order (a small category merges with an adjacent one). */
export const WEIGHTING_CATEGORIES = {
  /** NCES's school levels in NCES's order, so a small 'combined' merges into 'high'. */
  grade: ['elementary', 'middle', 'high', 'combined'],
  /** The Census Bureau's regions in its own order: each is next to the ones it borders. */
  region: ['northeast', 'midwest', 'south', 'west'],
  /** NCES's bands of years of teaching experience, in its order. */
  years: ['up-to-3', '4-9', '10-14', '15-plus'],
} as const;

export type WeightingMargin = keyof typeof WEIGHTING_CATEGORIES;
export const WEIGHTING_MARGINS = Object.keys(WEIGHTING_CATEGORIES) as WeightingMargin[];

/**
 * The years category of a vote whose answer says only "4 years or more": one of the bands asked
 * before issue 38 that straddles NCES's cuts (6–10, 11–20). It is raked on the two-band split.
 */
export const YEARS_FOUR_OR_MORE = '4-plus';

/** Ids of the TARGET categories of one vote (after mapping our bands); years may be YEARS_FOUR_OR_MORE. */
export interface WeightingCell {
  grade: string;
  region: string;
  years: string;
}

/**
 * How our profile answers map onto the target categories; an answer missing here is out of
 * scope. Early years and college have no NCES K-12 counterpart. Years teaching is asked, since
 * issue 38, counting this school year in NCES's own bands, so each maps to its band. The bands
 * asked before, in completed years (NCES counts the current year: our 0–2 is its 3 or less, our
 * 3–5 its 4–6, within 4–9, our 21+ its 22 or more, within 15 or more), map where they fall in
 * one band; 6–10 and 11–20 straddle NCES's cuts at 10 and 15 and say only "4 or more".
 */
export const WEIGHTING_MAPPING = {
  grade: { elementary: 'elementary', middle: 'middle', high: 'high', several: 'combined' },
  region: { northeast: 'northeast', midwest: 'midwest', south: 'south', west: 'west' },
  years: {
    '1-3': 'up-to-3',
    '4-9': '4-9',
    '10-14': '10-14',
    '15-plus': '15-plus',
    '0-2': 'up-to-3',
    '3-5': '4-9',
    '6-10': YEARS_FOUR_OR_MORE,
    '11-20': YEARS_FOUR_OR_MORE,
    '21-plus': '15-plus',
  },
} as const satisfies Record<WeightingMargin, Record<string, string>>;

function mapped(table: Record<string, string>, answer: string | null): string | undefined {
  return answer === null ? undefined : table[answer];
}

/** The raking cell of a profile, or null when the vote is out of scope (not a classroom teacher, a grade band NCES has no counterpart for, outside the US, or any answer missing). */
export function weightingCell(profile: Profile): WeightingCell | null {
  if (profile.role !== 'classroom-teacher') return null;
  const grade = mapped(WEIGHTING_MAPPING.grade, profile.gradeBand);
  const region = mapped(WEIGHTING_MAPPING.region, profile.region);
  const years = mapped(WEIGHTING_MAPPING.years, profile.experience);
  return grade && region && years ? { grade, region, years } : null;
}
