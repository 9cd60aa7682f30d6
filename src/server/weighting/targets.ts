/**
 * The US K-12 teacher workforce margins the weighted line is raked to, read from the committed,
 * dated file next to this one (its sources, school years and addresses are in the file), and
 * the open data that lets anyone redo our numbers (GET /data/weighting.json).
 */
import {
  WEIGHTING_CATEGORIES,
  WEIGHTING_MAPPING,
  WEIGHTING_MARGINS,
  WEIGHTING_RULES,
  WITHHELD_REASON_TEXT,
  type WeightingMargin,
} from '../../shared/weighting.js';
import file from './nces-targets.json' with { type: 'json' };
import { CAP_SLACK } from './rake.js';

interface TargetsFile {
  population: string;
  margins: Record<WeightingMargin, { categories: Partial<Record<string, { label: string; percent: number }>> }>;
}

/** Published percentages are rounded: a margin is accepted within this many points of 100. */
const ROUNDING_POINTS = 0.5;

function loadTargets(targets: TargetsFile) {
  const shares = {} as Record<WeightingMargin, number[]>;
  for (const margin of WEIGHTING_MARGINS) {
    const percents = WEIGHTING_CATEGORIES[margin].map((id) => targets.margins[margin].categories[id]?.percent);
    const sum = percents.reduce<number>((a, b) => a + (b ?? NaN), 0);
    if (!(Math.abs(sum - 100) <= ROUNDING_POINTS)) {
      throw new Error(`Weighting targets: the ${margin} margin is incomplete or adds up to ${sum}%, not 100%`);
    }
    // Rescaled to add up to exactly 1, as raking needs.
    shares[margin] = percents.map((percent) => (percent ?? 0) / sum);
  }
  return { population: targets.population, shares };
}

export const WEIGHTING_TARGETS = loadTargets(file);

/** The object served at GET /data/weighting.json: enough to redo our numbers by hand. */
export function weightingOpenData() {
  const { population, compiled, about, scope, notReached, margins } = file;
  const {
    minVotes,
    minPerCategory,
    minEffectiveSample,
    minEffectiveShare,
    tolerancePoints,
    maxCycles,
    weightCap,
    interval,
    group,
    fourYearBands,
  } = WEIGHTING_RULES;
  const years = Object.values(margins.years.categories);
  const upTo3 = years[0]?.percent ?? 0;
  return {
    population,
    compiled,
    about,
    scope,
    notReached,
    margins,
    profileMapping: WEIGHTING_MAPPING,
    method: {
      raking: `Iterative proportional fitting over the ${WEIGHTING_MARGINS.length} margins (${WEIGHTING_MARGINS.join(', ')}), on the votes in scope, every vote starting at weight 1.`,
      convergence: `Converged when, after a full cycle, every weighted share is within ${tolerancePoints} percentage point of its target and no weight is over the cap; at most ${maxCycles} cycles, else no weighted line.`,
      cap: `After each cycle, weights over ${weightCap} times the mean weight (by more than ${CAP_SLACK * 100}%) are cut to ${weightCap} times the mean, then raking goes on.`,
      smallCategories: `A category with fewer than ${minPerCategory} votes merges with its neighbour in the order the margin lists them (the one with fewer votes; the earlier on a tie), and so do their targets. If a poll's margin is left with one category, no weighted line; a breakdown group's margin left with one category is not raked on.`,
      yearsBands: `Years teaching is asked counting this school year, as NCES counts it, in NCES's own bands (1-3, 4-9, 10-14, 15 or more). A poll's line, or a breakdown group's, is raked on the four bands when each of them holds at least ${fourYearBands.minVotesPerBand} of its votes in scope; otherwise on two, 3 years or less against 4 or more (${upTo3}% and ${Math.round((100 - upTo3) * 10) / 10}%), as every line was before the four were asked. Answers given with the bands asked before (0-2, 3-5, 6-10, 11-20, 21+ completed years) count where they fall in one of NCES's bands; 6-10 and 11-20 straddle its cuts and say only "4 or more": raked on four bands, those votes are raked on 3 or less against 4 or more alone, and the other votes of 4 or more on 4-9, 10-14 and 15 or more among themselves. Each line says which in yearsBands (2 or 4).`,
      effectiveSample: `Kish: (sum of weights)^2 / (sum of squared weights). Design effect: votes in scope / effective sample.`,
      shownWhen: `A poll: at least ${minVotes} votes in scope, at least ${minPerCategory} in every category after merging, converged, effective sample at least the larger of ${minEffectiveSample} and ${Math.round(minEffectiveShare * 100)}% of the votes in scope, and voting closed. A breakdown group: the same with at least ${group.minVotes} votes and an effective sample of at least the larger of ${group.minEffectiveSample} and ${Math.round(minEffectiveShare * 100)}% of its votes.`,
      interval: `Each option of a poll's adjusted line carries a ${interval.level * 100}% credibility interval: the votes in scope are resampled with replacement ${interval.replicates} times (xoshiro128** seeded by SplitMix64 from the poll's id), each resample raked again from scratch as above, and the interval runs from the 2.5th to the 97.5th percentile of the option's share over the resamples (R's quantile type 7), rounded to whole percentages. Its design effect is the variance over the resamples divided by p(1 - p)/n. It covers the spread from who happened to vote and from weighting them, not who chose not to vote. src/server/weighting/interval.ts has every step.`,
      noMarginOfError:
        'No margin of sampling error is given: for an opt-in sample it would be misleading (AAPOR). The credibility interval is not one.',
    },
    rules: WEIGHTING_RULES,
    withheldReasons: WITHHELD_REASON_TEXT,
  };
}
