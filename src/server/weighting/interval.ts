/**
 * The credibility interval of a poll's weighted line (issue 38): a bootstrap that redoes the
 * whole raking on each resample, so its spread holds both who happened to vote and weighting
 * them. Computed once at the close with the line, and kept with it (weighted.service.ts).
 *
 * How to redo it, step by step (the same votes and seed give the same figures):
 * 1. The votes in scope, in cells of (grade level, region, years, option), are laid out one
 *    after another, cells sorted by the categories' order in WEIGHTING_CATEGORIES ("4 years or
 *    more" after NCES's four bands) then by option. Years are raked on four bands or on two as
 *    the line is (weigh.ts: rowsForRaking), decided once on all the votes, never per resample;
 *    on two, the cells are those of the two bands.
 * 2. The generator is xoshiro128** seeded by SplitMix64 from the poll's id (xoshiro.ts).
 * 3. Each of WEIGHTING_RULES.interval.replicates resamples draws n votes with replacement, the
 *    k-th draw taking vote floor(x × n / 2^32) for the generator's next output x.
 * 4. Each resample is raked as the line is (small categories merged, weights capped), gates
 *    aside; a margin left with one category is not raked on, and a resample that does not
 *    converge keeps its last weights.
 * 5. Each option's interval is the 2.5th and 97.5th percentiles of its share over the
 *    resamples (linear between order statistics: R's quantile type 7), rounded to whole
 *    percentages and widened where needed to hold the line's own percentage.
 * 6. The design effect it implies: the variance of the share over the resamples (divided by
 *    the number of resamples less one) over p(1 − p)/n, p the line's share, n the votes in scope.
 *
 * Cost: O(replicates × (n + cells × raking cycles)); one pass over the votes per resample.
 */
import {
  WEIGHTING_CATEGORIES,
  WEIGHTING_MARGINS,
  WEIGHTING_RULES,
  type CredibilityInterval,
  type Weighted,
  type WeightingMargin,
} from '../../shared/weighting.js';
import { rakeRows, rowsForRaking, weigh, weighExact, type CellCount } from './weigh.js';
import { Xoshiro128ss } from './xoshiro.js';

/** A category's place in its list; "4 years or more" (YEARS_FOUR_OR_MORE) after NCES's four bands. */
const placeOf = (margin: WeightingMargin, id: string) => {
  const categories = WEIGHTING_CATEGORIES[margin] as readonly string[];
  const k = categories.indexOf(id);
  return k < 0 ? categories.length : k;
};

const orderOf = (row: CellCount) => [
  ...WEIGHTING_MARGINS.map((margin) => placeOf(margin, row[margin])),
  row.optionIndex,
];

function canonicalOrder(a: CellCount, b: CellCount): number {
  const [x, y] = [orderOf(a), orderOf(b)];
  for (let i = 0; i < x.length; i += 1) if (x[i] !== y[i]) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
}

/** Each resample's weighted share per option (steps 1 to 4). */
export function bootstrapShares(
  cells: readonly CellCount[],
  optionCount: number,
  seed: number,
  replicates: number = WEIGHTING_RULES.interval.replicates,
): number[][] {
  const { rows: inScope, yearsBands } = rowsForRaking(cells, optionCount);
  const rows = inScope.sort(canonicalOrder);
  const n = rows.reduce((sum, row) => sum + row.votes, 0);
  const cellOfVote = new Uint32Array(n);
  let at = 0;
  rows.forEach((row, i) => {
    cellOfVote.fill(i, at, at + row.votes);
    at += row.votes;
  });
  const generator = new Xoshiro128ss(seed);
  const counts = new Uint32Array(rows.length);
  const shares: number[][] = [];
  for (let replicate = 0; replicate < replicates; replicate += 1) {
    counts.fill(0);
    generator.tally(n, cellOfVote, counts);
    const resample = rows.map((row, i) => ({ ...row, votes: counts[i] ?? 0 })).filter((row) => row.votes > 0);
    const raked = rakeRows(resample, optionCount, 'resample', yearsBands);
    if (raked !== 'small-category') shares.push(raked.shares);
  }
  return shares;
}

/** R's quantile type 7 of sorted values. */
function quantile(sorted: readonly number[], p: number): number {
  const h = (sorted.length - 1) * p;
  const below = Math.floor(h);
  const low = sorted[below] ?? 0;
  return low + (h - below) * ((sorted[Math.min(below + 1, sorted.length - 1)] ?? low) - low);
}

/** Steps 5 and 6 before rounding: each option's interval as shares, and its design effect; null when the line is withheld. */
export function exactInterval(
  cells: readonly CellCount[],
  optionCount: number,
  seed: number,
  replicates: number = WEIGHTING_RULES.interval.replicates,
): { shares: number[]; low: number[]; high: number[]; designEffects: (number | null)[] } | null {
  const line = weighExact(cells, optionCount, 'poll');
  if ('withheld' in line) return null;
  const resamples = bootstrapShares(cells, optionCount, seed, replicates);
  const tail = (1 - WEIGHTING_RULES.interval.level) / 2;
  const low: number[] = [];
  const high: number[] = [];
  const designEffects: (number | null)[] = [];
  line.shares.forEach((p, option) => {
    const values = resamples.map((shares) => shares[option] ?? 0).sort((a, b) => a - b);
    low.push(quantile(values, tail));
    high.push(quantile(values, 1 - tail));
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    const variance = values.reduce((sum, x) => sum + (x - mean) ** 2, 0) / (values.length - 1);
    const simple = (p * (1 - p)) / line.votesInScope;
    designEffects.push(simple > 0 ? variance / simple : null);
  });
  return { shares: line.shares, low, high, designEffects };
}

/** A poll's weighted line (weigh.ts) with its credibility interval; withheld, no interval. */
export function weighWithInterval(cells: readonly CellCount[], optionCount: number, seed: number): Weighted {
  const line = weigh(cells, optionCount, 'poll');
  const exact = 'withheld' in line ? null : exactInterval(cells, optionCount, seed);
  if ('withheld' in line || !exact) return line;
  const interval: CredibilityInterval = {
    low: exact.low.map((share, i) => Math.min(Math.round(share * 100), line.percentages[i] ?? 0)),
    high: exact.high.map((share, i) => Math.max(Math.round(share * 100), line.percentages[i] ?? 0)),
    designEffects: exact.designEffects.map((d) => (d === null ? null : Math.round(d * 100) / 100)),
    replicates: WEIGHTING_RULES.interval.replicates,
    seed,
  };
  return { ...line, interval };
}
