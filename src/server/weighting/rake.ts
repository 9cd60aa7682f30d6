/**
 * Raking (iterative proportional fitting) on cell counts: every vote in a cell gets the cell's
 * weight, so one pass costs O(cells × margins) whatever the number of votes. Each cycle scales
 * the weights so that each margin in turn matches its target shares; capped weights are
 * clipped after every cycle and raked again, until the margins and the cap both hold.
 */

export interface RakeMargin {
  /** For each cell, the index of its category in this margin; -1 for a cell the margin leaves alone (partial). */
  categoryOf: readonly number[];
  /** Each category's target share of the population; they add up to 1. */
  targets: readonly number[];
  /**
   * A margin of some cells only (the others at -1): its targets are shares of those cells'
   * weighted total, which raking on it leaves as it was (years teaching within "4 or more").
   */
  partial?: boolean;
}

export interface RakeOptions {
  /** Largest gap allowed between a weighted share and its target, as a share (0.0001 = 0.01 point). */
  tolerance: number;
  maxCycles: number;
  /** Largest weight allowed, as a multiple of the mean weight; none when absent. */
  cap?: number;
}

export interface Raked {
  /** One weight per cell, for each of its votes; their mean over the votes is 1. */
  weights: number[];
  converged: boolean;
  cycles: number;
}

/** A weight counts as capped within this relative slack: clipping and raking approach the cap geometrically. */
export const CAP_SLACK = 1e-3;

export function rake(counts: readonly number[], margins: readonly RakeMargin[], options: RakeOptions): Raked {
  const n = counts.reduce((sum, c) => sum + c, 0);
  const cells = counts.map((count) => ({ count, weight: 1 }));
  const weighted = () => cells.reduce((sum, cell) => sum + cell.count * cell.weight, 0);
  const totalsOf = (margin: RakeMargin) => {
    const totals = margin.targets.map(() => 0);
    cells.forEach((cell, i) => {
      const category = margin.categoryOf[i] ?? 0;
      if (category >= 0) totals[category] = (totals[category] ?? 0) + cell.count * cell.weight;
    });
    return totals;
  };
  const result = (converged: boolean, cycles: number): Raked => {
    const mean = weighted() / n;
    return { weights: cells.map((cell) => cell.weight / mean), converged, cycles };
  };

  for (let cycle = 1; cycle <= options.maxCycles; cycle += 1) {
    for (const margin of margins) {
      const totals = totalsOf(margin);
      const base = margin.partial ? totals.reduce((a, b) => a + b, 0) : n;
      cells.forEach((cell, i) => {
        const category = margin.categoryOf[i] ?? 0;
        const total = totals[category] ?? 0;
        if (category >= 0 && total > 0) cell.weight *= ((margin.targets[category] ?? 0) * base) / total;
      });
    }
    let clipped = false;
    if (options.cap !== undefined) {
      const cap = (options.cap * weighted()) / n;
      for (const cell of cells) {
        if (cell.weight > cap * (1 + CAP_SLACK)) {
          cell.weight = cap;
          clipped = true;
        }
      }
    }
    if (!clipped && margins.every((margin) => fits(totalsOf(margin), margin.targets, options.tolerance))) {
      return result(true, cycle);
    }
  }
  return result(false, options.maxCycles);
}

function fits(totals: readonly number[], targets: readonly number[], tolerance: number): boolean {
  const sum = totals.reduce((a, b) => a + b, 0);
  return totals.every((total, k) => Math.abs(total / sum - (targets[k] ?? 0)) <= tolerance);
}
