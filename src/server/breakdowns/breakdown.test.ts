import { describe, expect, it } from 'vitest';
import { MIN_GROUP_SIZE } from '../../shared/profile.js';
import type { PollRecord } from '../polls/poll.js';
import { shownGroup } from '../testing/breakdowns.js';
import { buildBreakdown } from './breakdown.js';
import type { GroupTally } from './breakdowns.repository.js';

function pollWith(votes: number[]): PollRecord {
  return {
    id: 4,
    pollNumber: 12,
    question: 'Cellphone bans?',
    description: null,
    liveDate: '2026-11-20',
    status: 'past',
    wentLiveAt: '2026-11-20T05:00:00.000Z',
    createdAt: '2026-11-19T15:00:00.000Z',
    options: votes.map((n, i) => ({ label: ['Yes', 'No', 'Unsure'][i] ?? `Option ${i}`, votes: n })),
    seriesId: null,
    askedBeforeId: null,
  };
}

const tally = (dimension: string, groupValue: string, counts: number[]): GroupTally[] =>
  counts.map((votes, optionIndex) => ({ dimension, groupValue, optionIndex, votes }));

describe('buildBreakdown', () => {
  it('lists a group of 10 votes and withholds one of 9', () => {
    expect(MIN_GROUP_SIZE).toBe(10);
    const breakdown = buildBreakdown(pollWith([30, 20, 0]), [
      ...tally('role', 'classroom-teacher', [7, 3, 0]),
      ...tally('role', 'school-leader', [2, 7, 0]),
    ]);
    const role = breakdown.dimensions.find((d) => d.dimension === 'role');
    expect(role?.groups).toEqual([
      shownGroup('classroom-teacher', 'Classroom teacher', { Yes: [7, 70], No: [3, 30], Unsure: [0, 0] }),
    ]);
    expect(role?.withheldVotes).toBe(9);
    expect(role?.notSaidVotes).toBe(50 - 19);
  });

  it('keeps the order of the list, whatever order the tallies come in, and adds each group to 100', () => {
    const breakdown = buildBreakdown(pollWith([20, 20, 20]), [
      ...tally('region', 'west', [4, 4, 4]),
      ...tally('region', 'northeast', [5, 5, 5]),
      ...tally('region', 'south', [11, 0, 0]),
    ]);
    const region = breakdown.dimensions.find((d) => d.dimension === 'region');
    expect(region?.groups.map((g) => g.value)).toEqual(['northeast', 'south', 'west']);
    for (const group of region?.groups ?? []) {
      expect(group.results.reduce((sum, r) => sum + r.percentage, 0)).toBe(100);
    }
    // 4/12 each: largest remainder gives the extra point to the option listed first.
    expect(region?.groups.at(-1)?.results.map((r) => r.percentage)).toEqual([34, 33, 33]);
  });

  it('has every dimension, in order, even with no answers at all: every vote is "not said"', () => {
    const breakdown = buildBreakdown(pollWith([3, 4, 5]), []);
    expect(breakdown).toMatchObject({ pollId: 4, pollNumber: 12, totalVotes: 12, minGroupSize: 10 });
    expect(breakdown.dimensions.map((d) => [d.dimension, d.groups.length, d.withheldVotes, d.notSaidVotes])).toEqual([
      ['role', 0, 0, 12],
      ['gradeBand', 0, 0, 12],
      ['region', 0, 0, 12],
      ['experience', 0, 0, 12],
    ]);
  });

  it('withholds a group id no list has any more, however large', () => {
    const breakdown = buildBreakdown(pollWith([40, 0, 0]), tally('role', 'retired-group', [40, 0, 0]));
    const role = breakdown.dimensions.find((d) => d.dimension === 'role');
    expect(role).toMatchObject({ groups: [], withheldVotes: 40, notSaidVotes: 0 });
  });
});
