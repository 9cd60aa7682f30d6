import { describe, expect, it } from 'vitest';
import apiclus1 from './fixtures/apiclus1.json' with { type: 'json' };
import threeMarginsCapped from './fixtures/three-margins-capped.json' with { type: 'json' };
import threeMargins from './fixtures/three-margins.json' with { type: 'json' };
import { rake, type RakeMargin } from './rake.js';

interface Fixture {
  name: string;
  cap: number | null;
  margins: { name: string; categories: string[]; targets: number[] }[];
  cells: { categories: number[]; count: number; weight: number }[];
}

function raked(fixture: Fixture, tolerance: number) {
  const margins: RakeMargin[] = fixture.margins.map((margin, m) => ({
    categoryOf: fixture.cells.map((cell) => cell.categories[m]!),
    targets: margin.targets,
  }));
  const counts = fixture.cells.map((cell) => cell.count);
  return rake(counts, margins, { tolerance, maxCycles: 10_000, ...(fixture.cap ? { cap: fixture.cap } : {}) });
}

describe('rake, against R survey::rake (fixtures/make-fixtures.R)', () => {
  it.each([apiclus1, threeMargins, threeMarginsCapped] as Fixture[])(
    'gives $name the weights survey gives',
    (fixture) => {
      const result = raked(fixture, 1e-12);
      expect(result.converged).toBe(true);
      result.weights.forEach((weight, i) => {
        const expected = fixture.cells[i]!.weight;
        expect(Math.abs(weight - expected) / expected).toBeLessThan(1e-6);
      });
    },
  );

  it('binds the cap where the fixture needs it: no weight above 5 times the mean (give or take the slack)', () => {
    const result = raked(threeMarginsCapped, 1e-12);
    expect(Math.max(...result.weights)).toBeGreaterThan(4.99);
    expect(Math.max(...result.weights)).toBeLessThanOrEqual(5 * 1.001);
    const uncapped = raked({ ...(threeMarginsCapped as Fixture), cap: null }, 1e-12);
    expect(Math.max(...uncapped.weights)).toBeGreaterThan(6);
  });

  it('matches every target within the tolerance asked, and no closer than it must', () => {
    const fixture = threeMargins as Fixture;
    const result = raked(fixture, 0.0001);
    expect(result.converged).toBe(true);
    fixture.margins.forEach((margin, m) => {
      const totals = margin.targets.map(() => 0);
      fixture.cells.forEach((cell, i) => (totals[cell.categories[m]!]! += cell.count * result.weights[i]!));
      const n = fixture.cells.reduce((sum, cell) => sum + cell.count, 0);
      totals.forEach((total, k) => expect(Math.abs(total / n - margin.targets[k]!)).toBeLessThanOrEqual(0.0001));
    });
  });

  it('says it did not converge when the cycles run out, or when the cap makes the targets unreachable', () => {
    expect(raked(threeMargins as Fixture, 1e-15).converged).toBe(true);
    const short = rake([10, 30], [{ categoryOf: [0, 1], targets: [0.5, 0.5] }], { tolerance: 1e-4, maxCycles: 0 });
    expect(short.converged).toBe(false);
    // 1 vote in 100 cannot weigh 50% when no weight may pass 5 times the mean.
    const unreachable = rake([1, 99], [{ categoryOf: [0, 1], targets: [0.5, 0.5] }], {
      tolerance: 1e-4,
      maxCycles: 100,
      cap: 5,
    });
    expect(unreachable.converged).toBe(false);
  });

  it('leaves a category without votes alone instead of dividing by zero', () => {
    const result = rake([10, 0, 30], [{ categoryOf: [0, 1, 2], targets: [0.5, 0.25, 0.25] }], {
      tolerance: 1e-4,
      maxCycles: 100,
    });
    expect(result.weights.every(Number.isFinite)).toBe(true);
    expect(result.converged).toBe(false);
  });
});
