import { describe, expect, it } from 'vitest';
import { weightedLine } from './weighted-line.js';
import { WITHHELD_REASON_TEXT } from './weighting.js';

const line = (percentages: number[], votesInScope = 512, effectiveSample = 310) => ({
  population: 'US K-12 teachers',
  percentages,
  votesInScope,
  effectiveSample,
  designEffect: votesInScope / effectiveSample,
});

describe('the weighted line in words', () => {
  it('names every option with its adjusted share, then the teachers in scope and the effective sample', () => {
    expect(weightedLine(line([58, 42]), ['Yes', 'No'])).toEqual({
      adjusted: true,
      text: 'Adjusted to the mix of US K-12 teachers: 58% Yes, 42% No (512 teachers; effective sample 310).',
    });
    expect(weightedLine(line([50, 30, 20], 1234, 1001), ['Agree', 'Disagree', 'Not sure'])?.text).toBe(
      'Adjusted to the mix of US K-12 teachers: 50% Agree, 30% Disagree, 20% Not sure (1,234 teachers; effective sample 1,001).',
    );
  });

  it('tells options apart by semicolons when their own words hold commas', () => {
    expect(weightedLine(line([60, 40]), ['Yes, with longer days', 'No'])?.text).toBe(
      'Adjusted to the mix of US K-12 teachers: 60% Yes, with longer days; 40% No (512 teachers; effective sample 310).',
    );
  });

  it('says why when withheld, and nothing while voting is open or without a line', () => {
    expect(weightedLine({ withheld: 'small-category', votesInScope: 120 }, ['Yes', 'No'])).toEqual({
      adjusted: false,
      text: WITHHELD_REASON_TEXT['small-category'],
    });
    expect(weightedLine({ withheld: 'voting-open', votesInScope: 0 }, ['Yes', 'No'])).toBeNull();
    expect(weightedLine(undefined, ['Yes', 'No'])).toBeNull();
  });

  it('gives each option its credibility interval when the line has one (a poll’s own line)', () => {
    const interval = { low: [54, 38], high: [62, 46], designEffects: [1.6, 1.6], replicates: 500, seed: 7 };
    expect(weightedLine({ ...line([58, 42]), interval }, ['Yes', 'No'])?.text).toBe(
      'Adjusted to the mix of US K-12 teachers: 58% Yes (54–62%), 42% No (38–46%). 512 teachers; effective sample 310; ranges are 95% credibility intervals.',
    );
    expect(weightedLine({ ...line([60, 40]), interval }, ['Yes, with longer days', 'No'])?.text).toContain(
      ': 60% Yes, with longer days (54–62%); 40% No (38–46%). ',
    );
  });

  it('never gives a margin of error', () => {
    const interval = { low: [54, 38], high: [62, 46], designEffects: [1.6, 1.6], replicates: 500, seed: 7 };
    expect(weightedLine(line([58, 42]), ['Yes', 'No'])?.text).not.toMatch(/±|margin/);
    expect(weightedLine({ ...line([58, 42]), interval }, ['Yes', 'No'])?.text).not.toMatch(/±|margin/);
  });
});
