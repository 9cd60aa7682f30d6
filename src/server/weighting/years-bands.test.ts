/**
 * Years teaching on NCES's bands (issue 38, item 4): answers asked since in NCES's four bands,
 * answers from before mapped where they fall in one band, and the line raked on the four bands
 * when enough votes say which, on two (3 or less, 4 or more) otherwise.
 */
import { describe, expect, it } from 'vitest';
import { EXPERIENCE_ANSWERS, EXPERIENCE_BANDS, type Profile } from '../../shared/profile.js';
import {
  WEIGHTING_CATEGORIES,
  WEIGHTING_RULES,
  YEARS_FOUR_OR_MORE,
  weightingCell,
  type Weighted,
} from '../../shared/weighting.js';
import { proportionalCells } from '../testing/weighting-samples.js';
import fourBands from './fixtures/four-bands.json' with { type: 'json' };
import { exactInterval } from './interval.js';
import { weigh, weighExact, type CellCount } from './weigh.js';
import { WEIGHTING_TARGETS } from './targets.js';

const shown = (weighted: Weighted) => {
  if ('withheld' in weighted) throw new Error(`withheld: ${weighted.withheld}`);
  return weighted;
};
const teacher = (experience: Profile['experience']): Profile => ({
  role: 'classroom-teacher',
  gradeBand: 'high',
  region: 'south',
  experience,
});
const yearsOf = (experience: Profile['experience']) => weightingCell(teacher(experience))?.years;
const MIN = WEIGHTING_RULES.fourYearBands.minVotesPerBand;

/** Every cell of a mix spread on these years categories: `votes[k]` votes in years category k, in proportion over grade and region. */
function cellsWithYears(votesByYears: Record<string, number>, optionOf: (cell: CellCount) => number = () => 0) {
  return Object.entries(votesByYears).flatMap(([years, n]) =>
    proportionalCells(n, { years: [1] }).map((cell) => {
      const row = { ...cell, years };
      return { ...row, optionIndex: optionOf(row) };
    }),
  );
}

describe('years teaching, mapped onto NCES’s bands', () => {
  it('maps each band asked now onto its NCES band, in NCES’s order', () => {
    expect(EXPERIENCE_BANDS.map((band) => yearsOf(band.id))).toEqual([...WEIGHTING_CATEGORIES.years]);
  });

  it('maps the bands asked before where they fall in one NCES band, and the others to "4 or more"', () => {
    expect(['0-2', '3-5', '6-10', '11-20', '21-plus'].map((id) => yearsOf(id as Profile['experience']))).toEqual([
      'up-to-3',
      '4-9',
      YEARS_FOUR_OR_MORE,
      YEARS_FOUR_OR_MORE,
      '15-plus',
    ]);
    // Every answer a profile can hold places a classroom teacher's vote.
    for (const band of EXPERIENCE_ANSWERS) expect(yearsOf(band.id)).toBeDefined();
  });
});

describe('raking years on four bands or two', () => {
  it('agrees with R survey’s rake() on the four bands when every vote says its band (fixtures/make-four-bands-fixture.R)', () => {
    const line = weighExact(fourBands.cells, 2, 'poll');
    if ('withheld' in line) throw new Error('withheld');
    expect(line.yearsBands).toBe(4);
    line.shares.forEach((share, i) => expect(Math.abs(share - (fourBands.shares[i] ?? 0))).toBeLessThan(0.0005));
  });

  it(`rakes on four bands once each holds ${MIN} votes, on two below`, () => {
    const enough = { 'up-to-3': MIN * 4, '4-9': MIN * 4, '10-14': MIN, '15-plus': MIN * 4 };
    expect(shown(weigh(cellsWithYears(enough), 2, 'poll')).yearsBands).toBe(4);
    const short = { ...enough, '10-14': MIN - 1 };
    expect(shown(weigh(cellsWithYears(short), 2, 'poll')).yearsBands).toBe(2);
    // Answers from before that say only "4 or more" never count towards a band.
    const old = { 'up-to-3': MIN * 4, [YEARS_FOUR_OR_MORE]: MIN * 20 };
    expect(shown(weigh(cellsWithYears(old), 2, 'poll')).yearsBands).toBe(2);
  });

  it('old answers alone: the line is the one raked on 3 or less / 4 or more, whatever band 3–5 or 21+ fall in', () => {
    // The same votes, once as answered before (some mapped to 4–9 and 15+), once as "4 or more".
    const answered = cellsWithYears({ 'up-to-3': 60, '4-9': 15, [YEARS_FOUR_OR_MORE]: 100, '15-plus': 20 }, (c) =>
      c.years === 'up-to-3' ? 0 : c.grade === 'high' ? 0 : 1,
    );
    const coarse = answered.map((cell) => ({
      ...cell,
      years: cell.years === 'up-to-3' ? cell.years : YEARS_FOUR_OR_MORE,
    }));
    const line = shown(weigh(answered, 2, 'poll'));
    expect(line.yearsBands).toBe(2);
    expect(line).toEqual(shown(weigh(coarse, 2, 'poll')));
    // The interval too: the bootstrap lays out the same votes in the same order.
    expect(exactInterval(answered, 2, 7, 50)).toEqual(exactInterval(coarse, 2, 7, 50));
  });

  it('mixed answers on four bands: every vote on the NCES split of 3 or less, those that say which on 4–9, 10–14, 15+', () => {
    // The option a vote takes is its years category, so each option's weighted share is that category's.
    const order = [...WEIGHTING_CATEGORIES.years, YEARS_FOUR_OR_MORE] as string[];
    const cells = cellsWithYears(
      { 'up-to-3': 90, '4-9': 80, '10-14': 30, '15-plus': 60, [YEARS_FOUR_OR_MORE]: 70 },
      (c) => order.indexOf(c.years),
    );
    const line = weighExact(cells, order.length, 'poll');
    if ('withheld' in line) throw new Error('withheld');
    expect(line.yearsBands).toBe(4);
    const [upTo3 = 0, ...fourPlus] = WEIGHTING_TARGETS.shares.years;
    const [s0 = 0, s1 = 0, s2 = 0, s3 = 0, sCoarse = 0] = line.shares;
    expect(s0).toBeCloseTo(upTo3, 3);
    expect(s1 + s2 + s3 + sCoarse).toBeCloseTo(1 - upTo3, 3);
    const said = s1 + s2 + s3;
    const saidTargets = fourPlus.reduce((a, b) => a + b, 0);
    [s1, s2, s3].forEach((share, k) => expect(share / said).toBeCloseTo((fourPlus[k] ?? 0) / saidTargets, 3));
    // The votes that say only "4 or more" stay in scope, and keep their place against 3 or less.
    expect(line.votesInScope).toBe(330);
    expect(sCoarse).toBeGreaterThan(0);
  });
});
