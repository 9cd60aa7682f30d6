import { describe, expect, it } from 'vitest';
import type { Breakdown } from '../../shared/api.js';
import { MIN_GROUP_SIZE, PROFILE_DIMENSIONS } from '../../shared/profile.js';
import type { PollRecord } from '../polls/poll.js';
import { shownGroup } from '../testing/breakdowns.js';
import { buildBreakdown, suppressWeightedSecondary } from './breakdown.js';
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
    setAsideVotes: 0,
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
      ...tally('role', 'support-staff', [0, 0, 0]),
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

/**
 * What anyone can do with a breakdown: take the groups it lists from everyone's result, option
 * by option. What is left is the votes it does not show, per option.
 */
function subtract(overall: number[], dimension: Breakdown['dimensions'][number]): number[] {
  return overall.map(
    (votes, option) => votes - dimension.groups.reduce((sum, group) => sum + (group.results[option]?.votes ?? 0), 0),
  );
}

/** A small, seeded generator (mulberry32): the same polls on every run. */
function randomNumbers(seed: number) {
  let state = seed;
  return (below: number) => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4_294_967_296) * below);
  };
}

describe('the subtraction of listed groups from everyone’s result', () => {
  it('leaves the 2 support staff beside 12 classroom teachers unreadable (the issue’s attack)', () => {
    // One of the two support staff voted No and wants the other's vote (Unsure).
    const overall = [6, 7, 1];
    const breakdown = buildBreakdown(pollWith(overall), [
      ...tally('role', 'classroom-teacher', [6, 6, 0]),
      ...tally('role', 'support-staff', [0, 1, 1]),
    ]);
    const role = breakdown.dimensions.find((d) => d.dimension === 'role');
    expect(role).toEqual({
      dimension: 'role',
      label: 'Role',
      groups: [],
      withheldVotes: 2,
      notSaidVotes: 0,
      alsoWithheld: { value: 'classroom-teacher', label: 'Classroom teacher', totalVotes: 12 },
    });
    // What subtraction leaves is 14 votes, the attacker's own among them: not the other's.
    if (!role) throw new Error('no role dimension');
    expect(subtract(overall, role)).toEqual([6, 7, 1]);
  });

  it('never leaves 1 to 9 votes in any dimension, over thousands of random polls, and says honestly what it hides', () => {
    const random = randomNumbers(29);
    const retired = 'retired-group';
    // Checked by hand (an expect() each would take seconds); the first few broken rules fail the test.
    const broken: string[] = [];
    const check = (holds: boolean, rule: string) => {
      if (!holds) broken.push(rule);
    };
    let secondary = 0;
    for (let run = 0; run < 3_000; run += 1) {
      const optionCount = 2 + random(3);
      // Voters, each answering each question or not. Group sizes are drawn unevenly, so that
      // small groups, groups of about ten and large ones all turn up.
      const voters = Array.from({ length: random(70) }, () => ({
        option: random(optionCount),
        groups: PROFILE_DIMENSIONS.map(({ groups }) => {
          if (random(4) === 0) return null;
          if (random(40) === 0) return retired;
          const spread = 1 + random(groups.length);
          return groups[Math.min(random(spread), random(spread))]?.id ?? null;
        }),
      }));
      const overall = Array.from(
        { length: optionCount },
        (_, option) => voters.filter((v) => v.option === option).length,
      );
      /** Per dimension, each group's votes by option (null: did not say). */
      const truth = PROFILE_DIMENSIONS.map((_, d) => {
        const votesOf = new Map<string | null, number[]>();
        for (const voter of voters) {
          const row = votesOf.get(voter.groups[d] ?? null) ?? overall.map(() => 0);
          row[voter.option] = (row[voter.option] ?? 0) + 1;
          votesOf.set(voter.groups[d] ?? null, row);
        }
        return votesOf;
      });
      const tallies = PROFILE_DIMENSIONS.flatMap(({ dimension }, d) =>
        [...(truth[d] ?? [])].flatMap(([group, row]) => (group === null ? [] : tally(dimension, group, row))),
      );

      const breakdown = buildBreakdown(pollWith(overall), tallies);
      PROFILE_DIMENSIONS.forEach(({ groups }, d) => {
        const dimension = breakdown.dimensions[d];
        const votesOf = truth[d];
        if (!dimension || !votesOf) throw new Error('a dimension is missing');
        const where = `run ${run}, ${dimension.dimension}:`;
        const sizeOf = (id: string | null) => (votesOf.get(id) ?? []).reduce((sum, n) => sum + n, 0);
        const left = subtract(overall, dimension);
        const leftTotal = left.reduce((sum, n) => sum + n, 0);

        // The rule: what subtraction leaves is no votes, or at least MIN_GROUP_SIZE of them, or
        // (no group listed) everyone's result itself, which says nothing of any group.
        const readable = leftTotal > 0 && leftTotal < MIN_GROUP_SIZE && dimension.groups.length > 0;
        check(!readable, `${where} ${leftTotal} votes left by subtraction`);
        check(Math.min(...left) >= 0, `${where} a listed group holds votes it has not`);
        // Each group listed is large enough and true, option by option.
        for (const group of dimension.groups) {
          check(group.totalVotes >= MIN_GROUP_SIZE, `${where} ${group.value} listed with ${group.totalVotes}`);
          const votes = group.results.map((r) => r.votes).join();
          check(votes === votesOf.get(group.value)?.join(), `${where} ${group.value} listed as ${votes}`);
        }
        // The counts of what is hidden are honest, and add up to what subtraction leaves.
        const small = [...votesOf.keys()].filter(
          (id) => id !== null && (id === retired || sizeOf(id) < MIN_GROUP_SIZE),
        );
        const withheld = small.reduce((sum, id) => sum + sizeOf(id), 0);
        check(
          dimension.withheldVotes === withheld,
          `${where} withheldVotes ${dimension.withheldVotes}, not ${withheld}`,
        );
        check(dimension.notSaidVotes === sizeOf(null), `${where} notSaidVotes ${dimension.notSaidVotes}`);
        const also = dimension.alsoWithheld;
        const hidden = dimension.withheldVotes + dimension.notSaidVotes + (also?.totalVotes ?? 0);
        check(leftTotal === hidden, `${where} ${leftTotal} votes left, ${hidden} said to be hidden`);
        // A large group is withheld only when it must be, and then the smallest one.
        const hiddenFirst = dimension.withheldVotes + dimension.notSaidVotes;
        const large = groups.map((g) => g.id).filter((id) => sizeOf(id) >= MIN_GROUP_SIZE);
        const needed = hiddenFirst > 0 && hiddenFirst < MIN_GROUP_SIZE && large.length > 0;
        check((also !== null) === needed, `${where} alsoWithheld ${also?.value ?? 'null'} though needed is ${needed}`);
        if (also) {
          check(also.totalVotes === sizeOf(also.value), `${where} alsoWithheld has ${also.totalVotes} votes`);
          check(also.totalVotes === Math.min(...large.map(sizeOf)), `${where} ${also.value} is not the smallest`);
          secondary += 1;
        }
      });
    }
    expect(broken.slice(0, 10)).toEqual([]);
    // The draws reach the case this is about, many times over.
    expect(secondary).toBeGreaterThan(300);
  });
});

describe('the groups’ adjusted lines (issue 38, item 5)', () => {
  const line = (votesInScope: number) => ({
    population: 'US K-12 teachers',
    percentages: [60, 40],
    votesInScope,
    effectiveSample: Math.round(votesInScope / 2),
    designEffect: 2,
  });
  const group = (value: string, votesInScope: number | null) => ({
    value,
    label: value,
    totalVotes: 100,
    results: [],
    ...(votesInScope === null ? {} : { weighted: line(votesInScope) }),
  });
  const dimension = (groups: ReturnType<typeof group>[]) => ({
    dimension: 'gradeBand' as const,
    label: 'Grade level',
    groups,
    withheldVotes: 0,
    notSaidVotes: 0,
    alsoWithheld: null,
  });

  it('withholds the smallest group line shown when the poll’s line less those shown leaves 1 to 9 votes in scope', () => {
    for (const notShown of [1, MIN_GROUP_SIZE - 1]) {
      const [published] = suppressWeightedSecondary(
        [dimension([group('elementary', 60), group('middle', 40), group('high', null)])],
        line(100 + notShown),
      );
      expect(published?.groups.map((g) => g.weighted)).toEqual([
        line(60),
        { withheld: 'secondary-suppression', votesInScope: 40 },
        undefined,
      ]);
    }
  });

  it('leaves every line as it is when nothing, or at least 10 votes in scope, would be left to subtract', () => {
    for (const poll of [100, 100 + MIN_GROUP_SIZE, 90]) {
      const dimensions = [dimension([group('elementary', 60), group('middle', 40)])];
      expect(suppressWeightedSecondary(dimensions, line(poll))).toEqual(dimensions);
    }
  });
});
