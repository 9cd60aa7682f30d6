import { describe, expect, it } from 'vitest';
import { WEIGHTING_CATEGORIES, WEIGHTING_MARGINS, WEIGHTING_RULES } from '../../shared/weighting.js';
import { WEIGHTING_TARGETS, weightingOpenData } from './targets.js';

describe('the NCES targets', () => {
  it('give every category of every margin a share, adding up to 1', () => {
    for (const margin of WEIGHTING_MARGINS) {
      const shares = WEIGHTING_TARGETS.shares[margin];
      expect(shares).toHaveLength(WEIGHTING_CATEGORIES[margin].length);
      expect(shares.every((share) => share > 0)).toBe(true);
      expect(shares.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    }
  });

  it('keep the published percentages: the South has 39.2% of teachers, primary schools 47.6%', () => {
    expect(WEIGHTING_TARGETS.shares.region[2]).toBeCloseTo(0.392, 12);
    expect(WEIGHTING_TARGETS.shares.grade[0]).toBeCloseTo(0.476 / 0.999, 12);
  });
});

describe('weightingOpenData', () => {
  const data = weightingOpenData();

  it('names a source for every margin: survey, table, school year and an NCES address', () => {
    for (const margin of WEIGHTING_MARGINS) {
      const { source, mapping, categories } = data.margins[margin];
      expect(source.schoolYear).toMatch(/^\d{4}-\d{2}$/);
      expect(source.url).toMatch(/^https:\/\/nces\.ed\.gov\//);
      expect(source.table.length).toBeGreaterThan(20);
      expect(mapping.length).toBeGreaterThan(20);
      expect(Object.keys(categories)).toEqual([...WEIGHTING_CATEGORIES[margin]]);
    }
  });

  it('states the scope, every rule and threshold, and survives JSON', () => {
    expect(data.population).toBe('US K-12 teachers');
    expect(data.scope).toMatch(/Classroom teacher/);
    expect(data.rules).toEqual(WEIGHTING_RULES);
    expect(data.method.convergence).toContain('0.01 percentage point');
    expect(data.method.cap).toContain('5 times the mean');
    expect(data.profileMapping.years['21-plus']).toBe('15-plus');
    expect(data.profileMapping.years['11-20']).toBe('4-plus');
    expect(data.rules.fourYearBands.minVotesPerBand).toBe(20);
    expect(JSON.parse(JSON.stringify(data))).toEqual(data);
  });
});
