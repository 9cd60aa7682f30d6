import { describe, expect, it } from 'vitest';
import { WEIGHTING_RULES } from '../../shared/weighting.js';
import { proportionalCells } from '../testing/weighting-samples.js';
import fixture from './fixtures/interval.json' with { type: 'json' };
import { exactInterval, weighWithInterval } from './interval.js';
import { weigh, type CellCount } from './weigh.js';

/** High-school teachers are 55% of the votes and mostly say yes; the rest split between No and Not sure. */
const skewed = (n: number) =>
  proportionalCells(n, { grade: [0.2, 0.2, 0.55, 0.05] }, (cell) =>
    cell.grade === 'high' ? 0 : cell.region === 'south' ? 1 : 2,
  );

describe('the credibility interval (bootstrap of the whole raking)', () => {
  it('agrees with R survey’s raked bootstrap replicates within 1 point (fixtures/make-interval-fixture.R)', () => {
    const cells = fixture.cells as CellCount[];
    const ours = exactInterval(cells, fixture.options.length, 38);
    expect(ours).not.toBeNull();
    fixture.options.forEach((_, k) => {
      // The same raking gives the same line.
      expect(ours!.shares[k]).toBeCloseTo(fixture.estimate[k]!, 3);
      const [low, high] = fixture.percentile[k]!;
      expect(Math.abs(ours!.low[k]! - low!)).toBeLessThanOrEqual(0.01);
      expect(Math.abs(ours!.high[k]! - high!)).toBeLessThanOrEqual(0.01);
      // And with survey's normal interval, estimate ± 1.96 standard errors.
      const [normalLow, normalHigh] = fixture.normal[k]!;
      expect(Math.abs(ours!.low[k]! - normalLow!)).toBeLessThanOrEqual(0.01);
      expect(Math.abs(ours!.high[k]! - normalHigh!)).toBeLessThanOrEqual(0.01);
      expect(ours!.designEffects[k]).toBeCloseTo(fixture.designEffect[k]!, 0);
    });
  });

  it('is the same every time for the same votes and seed, and the seed is the poll’s id', () => {
    const cells = skewed(800);
    const first = weighWithInterval(cells, 3, 1234);
    expect(weighWithInterval([...cells].reverse(), 3, 1234)).toEqual(first);
    expect(first).toMatchObject({ interval: { seed: 1234, replicates: WEIGHTING_RULES.interval.replicates } });
    expect(exactInterval(cells, 3, 1235)).not.toEqual(exactInterval(cells, 3, 1234));
  });

  it('holds the line’s own percentage, in whole percentages, with a design effect per option', () => {
    const line = weighWithInterval(fixture.cells, 3, 7);
    if ('withheld' in line || !line.interval) throw new Error('no interval');
    const { low, high, designEffects } = line.interval;
    line.percentages.forEach((percentage, k) => {
      expect(Number.isInteger(low[k])).toBe(true);
      expect(Number.isInteger(high[k])).toBe(true);
      expect(low[k]).toBeLessThanOrEqual(percentage);
      expect(high[k]).toBeGreaterThanOrEqual(percentage);
      expect(high[k]! - low[k]!).toBeGreaterThan(0);
      expect(designEffects[k]).toBeGreaterThan(0);
    });
    // Weighting spreads the line more than a simple random sample's: the design effect is over 1 on a skewed sample.
    expect(Math.min(...(designEffects as number[]))).toBeGreaterThan(1);
  });

  it('an option that is exactly one raked category (all high-school teachers) is pinned to its target', () => {
    const line = weighWithInterval(skewed(800), 3, 7);
    if ('withheld' in line || !line.interval) throw new Error('no interval');
    expect([line.percentages[0], line.interval.low[0], line.interval.high[0]]).toEqual([28, 28, 28]);
  });

  it('a share of 0 has an interval of 0–0% and no design effect', () => {
    const line = weighWithInterval(
      proportionalCells(500, {}, (cell) => (cell.grade === 'high' ? 0 : 1)),
      3,
      7,
    );
    if ('withheld' in line || !line.interval) throw new Error('no interval');
    expect([line.interval.low[2], line.interval.high[2], line.interval.designEffects[2]]).toEqual([0, 0, null]);
  });

  it('is withheld wherever the line is', () => {
    for (const cells of [
      proportionalCells(99),
      proportionalCells(300, { region: [0, 0, 1, 0] }),
      proportionalCells(300, { years: [0.02, 0.98] }),
    ]) {
      const line = weighWithInterval(cells, 2, 7);
      expect(line).toHaveProperty('withheld');
      expect(line).toEqual(weigh(cells, 2, 'poll'));
      expect(exactInterval(cells, 2, 7)).toBeNull();
    }
  });
});
