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
  };
}

/** What weigh() shows, before rounding: each option's weighted share (adding up to 1) and the effective sample. */
export function weighExact(
  cells: readonly CellCount[],
  optionCount: number,
  level: 'poll' | 'group',
): Withheld | { shares: number[]; votesInScope: number; effectiveSample: number; heavyWeights: HeavyWeights } {
  const rules = level === 'poll' ? WEIGHTING_RULES : { ...WEIGHTING_RULES, ...WEIGHTING_RULES.group };
  const rows = rowsInScope(cells, optionCount);
  const votesInScope = rows.reduce((sum, row) => sum + row.votes, 0);
  const withheld = (reason: Withheld['withheld']): Withheld => ({ withheld: reason, votesInScope });
  if (votesInScope < rules.minVotes) return withheld('too-few-votes');

  const raked = rakeRows(rows, optionCount, level);
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
      WEIGHTING_MARGINS.every((margin) => categoryIndex(margin, cell[margin]) >= 0),
  );
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
): 'small-category' | { shares: number[]; effectiveSample: number; converged: boolean; heavyWeights: HeavyWeights } {
  const rules = level === 'group' ? { ...WEIGHTING_RULES, ...WEIGHTING_RULES.group } : WEIGHTING_RULES;
  const counts = rows.map((row) => row.votes);
  const margins: RakeMargin[] = [];
  for (const margin of WEIGHTING_MARGINS) {
    const categoryOf = rows.map((row) => categoryIndex(margin, row[margin]));
    const votes = WEIGHTING_CATEGORIES[margin].map((_, k) =>
      rows.reduce((sum, row, i) => sum + (categoryOf[i] === k ? row.votes : 0), 0),
    );
    const groups = mergeSmallCategories(votes, rules.minPerCategory);
    // A poll whose votes all sit in one grade level, region or band cannot describe the
    // population's mix. A breakdown group often is one grade level, region or band: that
    // margin then has nothing to adjust and is left out.
    if (groups.length < 2) {
      if (level === 'poll') return 'small-category';
      continue;
    }
    const groupOf = WEIGHTING_CATEGORIES[margin].map((_, k) => groups.findIndex((group) => group.includes(k)));
    margins.push({
      categoryOf: categoryOf.map((k) => groupOf[k] ?? 0),
      targets: groups.map((group) => group.reduce((sum, k) => sum + (WEIGHTING_TARGETS.shares[margin][k] ?? 0), 0)),
    });
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
