/**
 * Issue 34, item 13: no subtraction, by complement or by padding, isolates a single vote. An
 * attacker who knows every vote of a group but one (their own invented voters, or everyone's
 * exact result less what they know) sees the group's published counts; these tests work out,
 * exactly, what those counts let them conclude about the one vote they do not know.
 */
import { describe, expect, it } from 'vitest';
import type { BreakdownDimension } from '../../shared/api.js';
import { BREAKDOWN_ROUNDING_BASE, MIN_GROUP_SIZE } from '../../shared/profile.js';
import { roleDimension, shownGroup } from '../testing/breakdowns.js';
import { publishBreakdown } from './breakdown.js';
import { ROUNDING_SPREAD, roundCount, roundingChances, type RoundingChance } from './rounding.js';

/** How a count is published: each value it may be published as, with its chance. */
type Publication = (count: number) => RoundingChance[];

const asIs: Publication = (count) => [{ value: count, chance: 1 }];
const nearestMultiple: Publication = (count) => [{ value: roundCount(count, 0.5), chance: 1 }];
const published: Publication = (count) => roundingChances(count);

/**
 * The attacker's view of the one vote they do not know. `countsIf(k)` is the group's true counts,
 * option by option, had that vote been for option k. Every published outcome (the counts as
 * published, each drawn on its own) is weighed under each k, with a prior of one in three for
 * each answer. Gives the chance, under the answer where it is largest, that the outcome lets
 * the attacker give some answer more than `beyond`: 1 means the vote is read every time.
 */
function chanceOfReading(
  publication: Publication,
  optionCount: number,
  countsIf: (k: number) => number[],
  beyond: number,
): number {
  const chancesIf = Array.from({ length: optionCount }, (_, k) =>
    countsIf(k).map((count) => new Map(publication(count).map((c) => [c.value, c.chance]))),
  );
  // Every outcome any answer can give: the values each count may take, combined.
  const valuesOf = (cell: number) => [...new Set(chancesIf.flatMap((cells) => [...(cells[cell]?.keys() ?? [])]))];
  let outcomes: number[][] = [[]];
  for (let cell = 0; cell < optionCount; cell += 1) {
    outcomes = outcomes.flatMap((outcome) => valuesOf(cell).map((value) => [...outcome, value]));
  }
  const reading = chancesIf.map(() => 0);
  for (const outcome of outcomes) {
    const likelihoods = chancesIf.map((cells) =>
      outcome.reduce((product, value, cell) => product * (cells[cell]?.get(value) ?? 0), 1),
    );
    const total = likelihoods.reduce((sum, l) => sum + l, 0);
    if (total === 0 || Math.max(...likelihoods) / total <= beyond) continue;
    likelihoods.forEach((l, k) => (reading[k] = (reading[k] ?? 0) + l));
  }
  return Math.max(...reading);
}

/**
 * The most a published outcome can tilt a guess among three answers: one vote changes two
 * counts, each chance by e^(2 / spread) at most (rounding.ts). Only outcomes whose counts lie
 * ROUNDING_REACH away, left out of the draw, could do more: they have a chance under e^-25.
 */
const MOST_TILTED = 1 / (1 + 2 * Math.exp(-4 / ROUNDING_SPREAD));
const NEVER = 1e-9;

/** Every way to share `votes` among three options. */
const sharesOf = (votes: number): number[][] =>
  Array.from({ length: votes + 1 }, (_, a) =>
    Array.from({ length: votes - a + 1 }, (_, b) => [a, b, votes - a - b]),
  ).flat();

describe('a breakdown count as published', () => {
  it('is a multiple of 5, near the count, the nearest most likely (drawn at 0.5), never under its floor', () => {
    expect(BREAKDOWN_ROUNDING_BASE).toBe(5);
    for (let count = 0; count <= 120; count += 1) {
      const chances = roundingChances(count);
      expect(chances.reduce((sum, c) => sum + c.chance, 0)).toBeCloseTo(1, 12);
      expect(chances.every((c) => c.value % 5 === 0 && c.value >= 0 && Math.abs(c.value - count) <= 50)).toBe(true);
      const nearest = Math.round(count / 5) * 5 - (count % 5 === 2.5 ? 5 : 0);
      expect(roundCount(count, 0.5)).toBe(nearest);
      const likeliest = chances.reduce((best, c) => (c.chance > best.chance ? c : best));
      expect(likeliest.value).toBe(nearest);
      expect(roundingChances(count, MIN_GROUP_SIZE).every((c) => c.value >= MIN_GROUP_SIZE)).toBe(true);
    }
    // A 0 may be published as 5, now and then: so a 5 never proves that a vote is there.
    expect(roundingChances(0).find((c) => c.value === 5)?.chance).toBeGreaterThan(0.05);
    expect(roundCount(0, 0.999)).toBeGreaterThan(0);
  });

  it('replays the padding attack of issue 34: 9 invented voters beside a principal in her region no longer read her vote', () => {
    // The nine all vote Yes; the principal's vote is the one unknown. Published as counted, the
    // group read [9, 0, 1]: minus the nine, "Unsure".
    const countsIf = (k: number) => [9, 0, 0].map((n, option) => n + (option === k ? 1 : 0));
    expect(chanceOfReading(asIs, 3, countsIf, 0.99)).toBe(1);
    // Rounded at random, no outcome that can happen settles it, or tilts a guess past 79%.
    expect(MOST_TILTED).toBeLessThan(0.79);
    expect(chanceOfReading(published, 3, countsIf, MOST_TILTED)).toBeLessThan(NEVER);
  });

  it('leaves a padder unsure whatever the padding: every share of 9 to 13 invented votes among three options', () => {
    let fixedRoundingIsolated = 0;
    for (let votes = 9; votes <= 13; votes += 1) {
      for (const padding of sharesOf(votes)) {
        const countsIf = (k: number) => padding.map((n, option) => n + (option === k ? 1 : 0));
        expect(chanceOfReading(published, 3, countsIf, MOST_TILTED), `padding ${padding.join()}`).toBeLessThan(NEVER);
        if (chanceOfReading(nearestMultiple, 3, countsIf, 0.99) === 1) fixedRoundingIsolated += 1;
      }
    }
    // Why at random: rounding always to the nearest multiple is beaten by paddings such as
    // [2, 2, 7], where the one real vote tips its option from 2 to 3 and so from 0 to 5.
    expect(fixedRoundingIsolated).toBeGreaterThan(0);
  });

  it('replays the complement attack: everyone less the group shown, when the attacker wrote 9 of the 10 left', () => {
    // Everyone: [30, 14, 6]. The attacker's 9 invented voters said nothing of their role and
    // voted [4, 3, 2]; one real colleague also said nothing. The only group shown holds the
    // rest: had the colleague voted k, it holds everyone less the 10 not said.
    const everyone = [30, 14, 6];
    const padding = [4, 3, 2];
    const countsIf = (k: number) => everyone.map((n, option) => n - padding[option]! - (option === k ? 1 : 0));
    expect(chanceOfReading(asIs, 3, countsIf, 0.99)).toBe(1);
    expect(chanceOfReading(published, 3, countsIf, MOST_TILTED)).toBeLessThan(NEVER);
  });
});

describe('publishBreakdown', () => {
  const dimension: BreakdownDimension = roleDimension({
    groups: [
      shownGroup('classroom-teacher', 'Classroom teacher', { Yes: [8, 67], No: [4, 33] }),
      shownGroup('school-leader', 'School leader', { Yes: [7, 70], No: [3, 30] }),
    ],
    withheldVotes: 3,
    notSaidVotes: 12,
    alsoWithheld: { value: 'support-staff', label: 'Support staff', totalVotes: 11 },
  });

  it('rounds every count to 5 on its own, percentages from the rounded votes, a group’s total never under 10', () => {
    const [nearest] = publishBreakdown([dimension], () => 0.5);
    expect(nearest).toEqual({
      ...dimension,
      groups: [
        // 12 is published as 10, its 8 and 4 as 10 and 5: rounded figures need not add up.
        { ...shownGroup('classroom-teacher', 'Classroom teacher', { Yes: [10, 67], No: [5, 33] }), totalVotes: 10 },
        { ...shownGroup('school-leader', 'School leader', { Yes: [5, 50], No: [5, 50] }), totalVotes: 10 },
      ],
      withheldVotes: 5,
      notSaidVotes: 10,
      alsoWithheld: { value: 'support-staff', label: 'Support staff', totalVotes: 10 },
    });
    // The lowest draws: as low as each count may go, and a shown group's total stays 10 or more.
    const [lowest] = publishBreakdown([dimension], () => 0);
    expect(lowest?.groups.map((g) => [g.totalVotes, ...g.results.map((r) => r.votes)])).toEqual([
      [10, 0, 0],
      [10, 0, 0],
    ]);
    expect(lowest?.alsoWithheld?.totalVotes).toBe(10);
  });
});
