/**
 * Votes in scope for the weighting tests, counted by cell as weigh() takes them: n votes spread
 * over the cells in proportion to a mix per margin (the NCES targets unless told otherwise),
 * whole votes by largest remainder so that they add up to exactly n.
 */
import { WEIGHTING_CATEGORIES, type WeightingCell, type WeightingMargin } from '../../shared/weighting.js';
import { WEIGHTING_TARGETS } from '../weighting/targets.js';
import type { CellCount } from '../weighting/weigh.js';

export type Mix = Partial<Record<WeightingMargin, readonly number[]>>;

/** Every cell with its share of the population under a mix. */
export function cellShares(mix: Mix = {}): { cell: WeightingCell; share: number }[] {
  const shares = (margin: WeightingMargin) => {
    const given = mix[margin] ?? WEIGHTING_TARGETS.shares[margin];
    const sum = given.reduce((a, b) => a + b, 0);
    return given.map((share) => share / sum);
  };
  const [grade, region, years] = [shares('grade'), shares('region'), shares('years')];
  return WEIGHTING_CATEGORIES.grade.flatMap((g, i) =>
    WEIGHTING_CATEGORIES.region.flatMap((r, j) =>
      WEIGHTING_CATEGORIES.years.map((y, k) => ({
        cell: { grade: g, region: r, years: y },
        share: (grade[i] ?? 0) * (region[j] ?? 0) * (years[k] ?? 0),
      })),
    ),
  );
}

export function proportionalCells(
  n: number,
  mix: Mix = {},
  optionOf: (cell: WeightingCell) => number = () => 0,
): CellCount[] {
  const cells = cellShares(mix).map(({ cell, share }) => ({ cell, exact: n * share, votes: Math.floor(n * share) }));
  let missing = n - cells.reduce((sum, c) => sum + c.votes, 0);
  const byRemainder = [...cells].sort((a, b) => (b.exact % 1) - (a.exact % 1));
  for (const c of byRemainder) {
    if (missing <= 0) break;
    c.votes += 1;
    missing -= 1;
  }
  return cells.filter((c) => c.votes > 0).map((c) => ({ ...c.cell, optionIndex: optionOf(c.cell), votes: c.votes }));
}
