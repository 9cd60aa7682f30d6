/**
 * The weighted line of a poll or of a breakdown group, from its in-scope votes counted by cell:
 * rakes them to the NCES targets and applies every rule of WEIGHTING_RULES, saying which one
 * withheld the line when one does. Pure, and O(cells): never O(votes).
 */
import { wholePercentages } from '../../shared/results.js';
import {
  WEIGHTING_CATEGORIES,
  WEIGHTING_MARGINS,
  WEIGHTING_RULES,
  YEARS_FOUR_OR_MORE,
  type HeavyWeights,
  type Weighted,
  type WeightingCell,
  type WeightingMargin,
} from '../../shared/weighting.js';
import { rake, type RakeMargin } from './rake.js';
import { WEIGHTING_TARGETS } from './targets.js';

type Withheld = Extract<Weighted, { withheld: unknown }>;

export interface CellCount extends WeightingCell {
  optionIndex: number;
  votes: number;
}

/** Rakes the in-scope votes to the targets and applies every gate; 'group' uses the breakdown-group gates (n ≥ 30, effective sample ≥ 20). Pure, O(cells). */
export function weigh(cells: readonly CellCount[], optionCount: number, level: 'poll' | 'group'): Weighted {
  const exact = weighExact(cells, optionCount, level);
  if ('withheld' in exact) return exact;
  return {
    population: WEIGHTING_TARGETS.population,
    percentages: wholePercentages(exact.shares),
    votesInScope: exact.votesInScope,
    effectiveSample: Math.round(exact.effectiveSample),
    designEffect: Math.round((exact.votesInScope / exact.effectiveSample) * 100) / 100,
    heavyWeights: exact.heavyWeights,
    yearsBands: exact.yearsBands,
  };
}

/** What weigh() shows, before rounding: each option's weighted share (adding up to 1) and the effective sample. */
export function weighExact(
  cells: readonly CellCount[],
  optionCount: number,
  level: 'poll' | 'group',
):
  | Withheld
  | { shares: number[]; votesInScope: number; effectiveSample: number; heavyWeights: HeavyWeights; yearsBands: 2 | 4 } {
  const rules = level === 'poll' ? WEIGHTING_RULES : { ...WEIGHTING_RULES, ...WEIGHTING_RULES.group };
  const { rows, yearsBands } = rowsForRaking(cells, optionCount);
  const votesInScope = rows.reduce((sum, row) => sum + row.votes, 0);
  const withheld = (reason: Withheld['withheld']): Withheld => ({ withheld: reason, votesInScope });
  if (votesInScope < rules.minVotes) return withheld('too-few-votes');

  const raked = rakeRows(rows, optionCount, level, yearsBands);
  if (raked === 'small-category' || !raked.converged)
    return withheld(raked === 'small-category' ? raked : 'not-converged');
  if (raked.effectiveSample < Math.max(rules.minEffectiveSample, votesInScope * rules.minEffectiveShare)) {
    return withheld('small-effective-sample');
  }
  return {
    shares: raked.shares,
    votesInScope,
    effectiveSample: raked.effectiveSample,
    heavyWeights: raked.heavyWeights,
    yearsBands,
  };
}

/** The cells raking can place: rows naming an unknown category or option count nowhere, so a bad row is never a 500. */
export function rowsInScope(cells: readonly CellCount[], optionCount: number): CellCount[] {
  return cells.filter(
    (cell) =>
      cell.votes > 0 &&
      Number.isInteger(cell.optionIndex) &&
      cell.optionIndex >= 0 &&
      cell.optionIndex < optionCount &&
      WEIGHTING_MARGINS.every(
        (margin) =>
          categoryIndex(margin, cell[margin]) >= 0 || (margin === 'years' && cell.years === YEARS_FOUR_OR_MORE),
      ),
  );
}

/**
 * Whether years teaching is raked on NCES's four bands: when each of them holds at least
 * WEIGHTING_RULES.fourYearBands.minVotesPerBand of these votes; else on two (/methods).
 */
export function yearsBandsOf(rows: readonly CellCount[]): 2 | 4 {
  const enough = WEIGHTING_CATEGORIES.years.every(
    (band) =>
      rows.reduce((sum, row) => sum + (row.years === band ? row.votes : 0), 0) >=
      WEIGHTING_RULES.fourYearBands.minVotesPerBand,
  );
  return enough ? 4 : 2;
}

/**
 * The rows in scope and how years teaching is raked on them; on two bands, each row's years
 * become 3 or less or 4 or more (YEARS_FOUR_OR_MORE) and rows alike are added up, so that the
 * rows are exactly those of a poll whose answers only ever said the two.
 */
export function rowsForRaking(
  cells: readonly CellCount[],
  optionCount: number,
): { rows: CellCount[]; yearsBands: 2 | 4 } {
  const inScope = rowsInScope(cells, optionCount);
  const yearsBands = yearsBandsOf(inScope);
  if (yearsBands === 4) return { rows: inScope, yearsBands };
  const rows = new Map<string, CellCount>();
  for (const row of inScope) {
    const years = row.years === WEIGHTING_CATEGORIES.years[0] ? row.years : YEARS_FOUR_OR_MORE;
    const key = `${row.grade}\u0000${row.region}\u0000${years}\u0000${row.optionIndex}`;
    const kept = rows.get(key);
    if (kept) kept.votes += row.votes;
    else rows.set(key, { ...row, years });
  }
  return { rows: [...rows.values()], yearsBands };
}

/**
 * Rakes rows in scope (small categories merged, weights capped) without applying the gates:
 * each option's weighted share, the effective sample and whether raking converged. A poll whose
 * votes leave a margin with one category is 'small-category'; a group, or a bootstrap resample
 * ('resample', interval.ts), leaves that margin out.
 */
export function rakeRows(
  rows: readonly CellCount[],
  optionCount: number,
  level: 'poll' | 'group' | 'resample',
  yearsBands: 2 | 4 = 2,
): 'small-category' | { shares: number[]; effectiveSample: number; converged: boolean; heavyWeights: HeavyWeights } {
  const rules = level === 'group' ? { ...WEIGHTING_RULES, ...WEIGHTING_RULES.group } : WEIGHTING_RULES;
  const counts = rows.map((row) => row.votes);
  const margins: RakeMargin[] = [];
  /** Adds a margin, its small categories merged; false when a whole margin is left with one category. */
  const addMargin = (categoryOf: readonly number[], targets: readonly number[], partial: boolean): boolean => {
    const votes = targets.map((_, k) => rows.reduce((sum, row, i) => sum + (categoryOf[i] === k ? row.votes : 0), 0));
    const groups = mergeSmallCategories(votes, rules.minPerCategory);
    if (groups.length < 2) return partial;
    const groupOf = targets.map((_, k) => groups.findIndex((group) => group.includes(k)));
    const sum = partial ? targets.reduce((a, b) => a + b, 0) : 1;
    margins.push({
      categoryOf: categoryOf.map((k) => (k < 0 ? -1 : (groupOf[k] ?? 0))),
      targets: groups.map((group) => group.reduce((total, k) => total + (targets[k] ?? 0), 0) / sum),
      ...(partial ? { partial } : {}),
    });
    return true;
  };
  for (const margin of WEIGHTING_MARGINS) {
    const shares = WEIGHTING_TARGETS.shares[margin];
    // Years: first 3 or less against 4 or more, which every answer places a vote in; on four
    // bands, then 4–9, 10–14 and 15 or more among the votes whose answer places them there.
    const firstTargets = margin === 'years' ? [shares[0] ?? 0, shares.slice(1).reduce((a, b) => a + b, 0)] : shares;
    const categoryOf = rows.map((row) =>
      margin === 'years' ? Math.min(categoryIndex(margin, row[margin]), 1) : categoryIndex(margin, row[margin]),
    );
    // A poll whose votes all sit in one grade level, region or band cannot describe the
    // population's mix. A breakdown group often is one grade level, region or band: that
    // margin then has nothing to adjust and is left out.
    if (!addMargin(margin === 'years' ? categoryOf.map((k) => (k < 0 ? 1 : k)) : categoryOf, firstTargets, false)) {
      if (level === 'poll') return 'small-category';
    }
    if (margin === 'years' && yearsBands === 4) {
      addMargin(
        rows.map((row) => categoryIndex(margin, row[margin]) - 1),
        shares.slice(1),
        true,
      );
    }
  }

  const raked = rake(counts, margins, {
    tolerance: rules.tolerancePoints / 100,
    maxCycles: rules.maxCycles,
    cap: rules.weightCap,
  });
  const sumW = counts.reduce((sum, votes, i) => sum + votes * (raked.weights[i] ?? 0), 0);
  const sumW2 = counts.reduce((sum, votes, i) => sum + votes * (raked.weights[i] ?? 0) ** 2, 0);
  const byOption = Array.from({ length: optionCount }, () => 0);
  rows.forEach(
    (row, i) => (byOption[row.optionIndex] = (byOption[row.optionIndex] ?? 0) + row.votes * (raked.weights[i] ?? 0)),
  );
  // Issue 38, item 5: how much of the line rests on votes weighted more than 3× the mean.
  const votes = counts.reduce((sum, n) => sum + n, 0);
  const heavyAbove = (rules.flagWeightAbove * sumW) / votes;
  let heavyVotes = 0;
  let heavyWeight = 0;
  counts.forEach((n, i) => {
    const weight = raked.weights[i] ?? 0;
    if (weight > heavyAbove) {
      heavyVotes += n;
      heavyWeight += n * weight;
    }
  });
  return {
    shares: byOption.map((total) => total / sumW),
    effectiveSample: sumW ** 2 / sumW2,
    converged: raked.converged,
    heavyWeights: { votes: heavyVotes, share: Math.round((heavyWeight / sumW) * 1000) / 10 },
  };
}

function categoryIndex(margin: WeightingMargin, id: string): number {
  return (WEIGHTING_CATEGORIES[margin] as readonly string[]).indexOf(id);
}

/**
 * Merges each category under `min` votes with a neighbour in list order, smallest first, into
 * the neighbour with fewer votes (the earlier one on a tie), until every group has `min` or
 * only one group is left. Returns the groups as lists of category indices.
 */
export function mergeSmallCategories(votes: readonly number[], min: number): number[][] {
  const groups = votes.map((count, k) => ({ members: [k], votes: count }));
  while (groups.length > 1) {
    let smallest = 0;
    groups.forEach((group, g) => {
      if (group.votes < (groups[smallest]?.votes ?? 0)) smallest = g;
    });
    const small = groups[smallest];
    if (!small || small.votes >= min) break;
    const before = groups[smallest - 1];
    const after = groups[smallest + 1];
    const into = !after || (before && before.votes <= after.votes) ? smallest - 1 : smallest + 1;
    const target = groups[into];
    if (!target) break;
    const merged = {
      members: [
        ...(into < smallest ? target.members : []),
        ...small.members,
        ...(into > smallest ? target.members : []),
      ],
      votes: target.votes + small.votes,
    };
    groups.splice(Math.min(into, smallest), 2, merged);
  }
  return groups.map((group) => group.members);
}
