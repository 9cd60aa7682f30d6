import { describe, expect, it } from 'vitest';
import { WEIGHTING_RULES, type Weighted } from '../../shared/weighting.js';
import { proportionalCells } from '../testing/weighting-samples.js';
import { mergeSmallCategories, weigh, type CellCount } from './weigh.js';

const shown = (weighted: Weighted) => {
  if ('withheld' in weighted) throw new Error(`withheld: ${weighted.withheld}`);
  return weighted;
};
/** A sample short of elementary teachers and of the South by the same share s: the lower s, the smaller the effective sample. */
// Years in the two bands every answer before issue 38 could say (3 or less, 4 or more), as
// these thresholds were tuned on: the votes are spread over the cells exactly as then.
const skewed = (n: number, s: number) =>
  proportionalCells(n, { grade: [s, 0.3, 0.4, 0.1], region: [0.3, 0.3, s, 0.3], years: [0.124, 0.876] });

describe('weigh', () => {
  it('leaves a sample that already has the mix of US teachers as it is', () => {
    const cells = proportionalCells(1000, {}, (cell) => (cell.region === 'south' ? 0 : 1));
    const result = shown(weigh(cells, 2, 'poll'));
    expect(result).toMatchObject({ population: 'US K-12 teachers', percentages: [39, 61], votesInScope: 1000 });
    expect(result.effectiveSample).toBeGreaterThan(990);
    expect(result.designEffect).toBeLessThan(1.01);
  });

  it(`flags votes weighted over ${WEIGHTING_RULES.flagWeightAbove}× the mean, with the share of the line they carry (issue 38, item 5)`, () => {
    const even = shown(
      weigh(
        proportionalCells(1000, {}, () => 0),
        2,
        'poll',
      ),
    );
    expect(even.heavyWeights).toEqual({ votes: 0, share: 0 });
    // Elementary teachers are 10% of the votes and far more of US teachers: each weighs over 3 times the mean.
    const skewed = shown(
      weigh(
        proportionalCells(1000, { grade: [0.1, 0.3, 0.5, 0.1] }, () => 0),
        2,
        'poll',
      ),
    );
    const heavy = skewed.heavyWeights ?? { votes: 0, share: 0 };
    expect(heavy.votes).toBeGreaterThanOrEqual(90);
    expect(heavy.votes).toBeLessThanOrEqual(110);
    // A few votes carry far more of the line than their number.
    expect(heavy.share).toBeGreaterThan((heavy.votes / skewed.votesInScope) * 100 * WEIGHTING_RULES.flagWeightAbove);
  });

  it('moves an answer held by an over-represented group back to that group’s share of teachers', () => {
    // High-school teachers are 55% of the votes and all say yes; NCES puts them at 27.7% of teachers.
    const cells = proportionalCells(1000, { grade: [0.2, 0.2, 0.55, 0.05] }, (cell) => (cell.grade === 'high' ? 0 : 1));
    const result = shown(weigh(cells, 2, 'poll'));
    expect(result.percentages).toEqual([28, 72]);
    expect(result.percentages.reduce((a, b) => a + b, 0)).toBe(100);
    expect(Number.isInteger(result.effectiveSample)).toBe(true);
    expect(result.designEffect).toBe(Math.round((1000 / result.effectiveSample) * 100) / 100);
  });

  it('counts only rows it can place: unknown categories, options and vote counts are out of scope, never an error', () => {
    const cells: CellCount[] = [
      ...proportionalCells(100),
      { grade: 'kindergarten', region: 'south', years: '4-plus', optionIndex: 0, votes: 50 },
      { grade: 'high', region: 'south', years: '4-plus', optionIndex: 7, votes: 50 },
      { grade: 'high', region: 'south', years: '4-plus', optionIndex: 0, votes: -50 },
      { grade: 'high', region: 'south', years: '4-plus', optionIndex: 0, votes: Number.NaN },
    ];
    expect(shown(weigh(cells, 2, 'poll')).votesInScope).toBe(100);
  });

  describe('withholds the line, saying why', () => {
    it(`under ${WEIGHTING_RULES.minVotes} votes in scope for a poll, ${WEIGHTING_RULES.group.minVotes} for a group`, () => {
      expect(weigh(proportionalCells(99), 2, 'poll')).toEqual({ withheld: 'too-few-votes', votesInScope: 99 });
      expect(shown(weigh(proportionalCells(100), 2, 'poll')).votesInScope).toBe(100);
      expect(weigh(proportionalCells(29), 2, 'group')).toEqual({ withheld: 'too-few-votes', votesInScope: 29 });
      expect(shown(weigh(proportionalCells(30), 2, 'group')).votesInScope).toBe(30);
      expect(weigh([], 2, 'poll')).toEqual({ withheld: 'too-few-votes', votesInScope: 0 });
    });

    it('when a poll’s votes leave a margin with one category, even after merging', () => {
      const onlySouth = proportionalCells(300, { region: [0, 0, 1, 0] });
      expect(weigh(onlySouth, 2, 'poll')).toEqual({ withheld: 'small-category', votesInScope: 300 });
      // Two regions with votes are two categories after merging: Northeast and Midwest join the South.
      expect(shown(weigh(proportionalCells(300, { region: [0, 0, 0.75, 0.25] }), 2, 'poll')).votesInScope).toBe(300);
      // A breakdown group is often one region: that margin is simply not raked on.
      expect(shown(weigh(onlySouth, 2, 'group')).votesInScope).toBe(300);
    });

    it('when the targets cannot be reached with no weight over 5 times the mean', () => {
      // 6 votes in 300 (2%) would each have to weigh 6.2 to stand for NCES's 12.4%; 9 votes (3%), 4.1.
      expect(weigh(proportionalCells(300, { years: [0.02, 0.98] }), 2, 'poll')).toEqual({
        withheld: 'not-converged',
        votesInScope: 300,
      });
      expect(shown(weigh(proportionalCells(300, { years: [0.03, 0.97] }), 2, 'poll')).votesInScope).toBe(300);
    });

    it(`when the effective sample is under ${WEIGHTING_RULES.minEffectiveSample} (poll)`, () => {
      expect(weigh(skewed(100, 0.1775), 2, 'poll')).toEqual({ withheld: 'small-effective-sample', votesInScope: 100 });
      const justOver = shown(weigh(skewed(100, 0.18), 2, 'poll'));
      expect(justOver.effectiveSample).toBeGreaterThanOrEqual(50);
      expect(justOver.effectiveSample).toBeLessThan(55);
    });

    it('when the effective sample is under a third of the votes in scope (poll)', () => {
      expect(weigh(skewed(600, 0.1125), 2, 'poll')).toEqual({ withheld: 'small-effective-sample', votesInScope: 600 });
      const justOver = shown(weigh(skewed(600, 0.115), 2, 'poll'));
      expect(justOver.effectiveSample).toBeGreaterThanOrEqual(200);
      expect(justOver.effectiveSample).toBeLessThan(205);
    });

    it(`when a group’s effective sample is under ${WEIGHTING_RULES.group.minEffectiveSample}, or under a third of its votes`, () => {
      expect(weigh(skewed(30, 0.1475), 2, 'group')).toEqual({ withheld: 'small-effective-sample', votesInScope: 30 });
      const over20 = shown(weigh(skewed(30, 0.1463), 2, 'group'));
      expect(over20.effectiveSample).toBeGreaterThanOrEqual(20);
      expect(over20.effectiveSample).toBeLessThan(24);
      expect(weigh(skewed(90, 0.1188), 2, 'group')).toEqual({ withheld: 'small-effective-sample', votesInScope: 90 });
      const overAThird = shown(weigh(skewed(90, 0.12), 2, 'group'));
      expect(overAThird.effectiveSample).toBeGreaterThanOrEqual(30);
      expect(overAThird.effectiveSample).toBeLessThan(33);
    });
  });
});

describe('mergeSmallCategories', () => {
  it(`merges a category under ${WEIGHTING_RULES.minPerCategory} votes into its smaller neighbour, and keeps one at ${WEIGHTING_RULES.minPerCategory}`, () => {
    expect(mergeSmallCategories([4, 50, 50, 50], 5)).toEqual([[0, 1], [2], [3]]);
    expect(mergeSmallCategories([5, 50, 50, 50], 5)).toEqual([[0], [1], [2], [3]]);
    expect(mergeSmallCategories([50, 3, 2, 50], 5)).toEqual([[0], [1, 2], [3]]);
    expect(mergeSmallCategories([50, 40, 3, 20], 5)).toEqual([[0], [1], [2, 3]]);
  });

  it('prefers the earlier neighbour on a tie, and merges until every group has enough or one is left', () => {
    expect(mergeSmallCategories([10, 3, 10], 5)).toEqual([[0, 1], [2]]);
    expect(mergeSmallCategories([0, 0, 200, 0], 5)).toEqual([[0, 1, 2, 3]]);
    expect(mergeSmallCategories([2, 2], 5)).toEqual([[0, 1]]);
  });
});
