import { describe, expect, it } from 'vitest';
import { EMPTY_PROFILE, EXPERIENCE_ANSWERS, GRADE_BANDS, REGIONS, type Profile } from './profile.js';
import {
  WEIGHTING_CATEGORIES,
  WEIGHTING_MAPPING,
  WEIGHTING_MARGINS,
  WITHHELD_REASON_TEXT,
  YEARS_FOUR_OR_MORE,
  weightingCell,
  type WeightingWithheldReason,
} from './weighting.js';

const teacher: Profile = { role: 'classroom-teacher', gradeBand: 'high', region: 'south', experience: '6-10' };

describe('weightingCell', () => {
  it('places a US K-12 classroom teacher with a full profile in the NCES categories', () => {
    expect(weightingCell(teacher)).toEqual({ grade: 'high', region: 'south', years: '4-plus' });
    expect(weightingCell({ ...teacher, gradeBand: 'several', experience: '0-2' })).toEqual({
      grade: 'combined',
      region: 'south',
      years: 'up-to-3',
    });
  });

  it.each([
    ['a school leader', { role: 'school-leader' }],
    ['support staff', { role: 'support-staff' }],
    ['no role given', { role: null }],
    ['a Pre-K teacher', { gradeBand: 'early-years' }],
    ['a college teacher', { gradeBand: 'post-secondary' }],
    ['a teacher outside the US', { region: 'outside-us' }],
    ['no region given', { region: null }],
    ['no years given', { experience: null }],
    ['no grade given', { gradeBand: null }],
  ] as const)('leaves out %s', (_, change) => {
    expect(weightingCell({ ...teacher, ...change })).toBeNull();
  });

  it('is null for an empty profile', () => {
    expect(weightingCell(EMPTY_PROFILE)).toBeNull();
  });

  it('maps every answer of our lists or leaves it out on purpose, onto categories the targets have', () => {
    // Years: the bands asked now and those asked before issue 38, which a stored profile can still hold.
    const lists = { grade: GRADE_BANDS, region: REGIONS, years: EXPERIENCE_ANSWERS };
    const outOfScope = ['early-years', 'post-secondary', 'outside-us'];
    for (const margin of WEIGHTING_MARGINS) {
      const mapping: Record<string, string> = WEIGHTING_MAPPING[margin];
      const ids: string[] = lists[margin].map((group) => group.id);
      expect(ids.filter((id) => !(id in mapping))).toEqual(ids.filter((id) => outOfScope.includes(id)));
      expect(Object.keys(mapping).every((id) => ids.includes(id))).toBe(true);
      // Every category, and for years the old answers that say only "4 or more" too.
      const categories: string[] = [
        ...WEIGHTING_CATEGORIES[margin],
        ...(margin === 'years' ? [YEARS_FOUR_OR_MORE] : []),
      ];
      expect([...new Set(Object.values(mapping))].sort()).toEqual(categories.sort());
    }
  });
});

it('has words for every withheld reason', () => {
  const reasons: WeightingWithheldReason[] = [
    'voting-open',
    'too-few-votes',
    'small-category',
    'not-converged',
    'small-effective-sample',
    'secondary-suppression',
  ];
  for (const reason of reasons) expect(WITHHELD_REASON_TEXT[reason]).toMatch(/^[A-Z].+\.$/);
});
