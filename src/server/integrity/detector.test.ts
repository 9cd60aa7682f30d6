import { describe, expect, it } from 'vitest';
import { createBallots } from './ballot.js';
import { anomaliesOf, challengeLevel, judge, judgeSurge, splitMatches, type RecentVote } from './detector.js';

const NOW = Date.UTC(2026, 10, 21, 15, 0, 0);

/** `count` votes over the `spanMs` before NOW, evenly (a loop) or jittered (people). */
function votes(
  count: number,
  spanMs: number,
  {
    option = (i) => i % 2,
    pageMs = () => 20_000,
    even = false,
  }: {
    option?: (i: number) => number;
    pageMs?: (i: number) => number | null;
    even?: boolean;
  } = {},
): RecentVote[] {
  let seed = 12345;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  return Array.from({ length: count }, (_, i) => {
    const share = even ? (i + 1) / count : next();
    return { optionIndex: option(i), at: NOW - spanMs + Math.round(share * spanMs), pageMs: pageMs(i) };
  });
}

const split = [500, 500];

describe('the detector', () => {
  it('puts volume alone on watch, never under challenge, however busy', () => {
    // A school: most agree (85/15), everyone read the page, arrivals uneven.
    const school = votes(400, 5 * 60_000, { option: (i) => (i % 100 < 85 ? 0 : 1) });
    expect(judge(school, split, NOW)).toEqual({ state: 'watch', reasons: ['volume'] });
    expect(judge(votes(29, 5 * 60_000), split, NOW).state).toBe('none');
  });

  it('challenges volume with anomalies: a burst with one, a sustained run with two', () => {
    const noBallots = { pageMs: () => null };
    expect(judge(votes(90, 50_000, noBallots), split, NOW)).toMatchObject({ state: 'challenge' });
    expect(judge(votes(89, 50_000, noBallots), split, NOW).state).toBe('watch');
    // 40 in 5 minutes with one anomaly is watched; with two, challenged.
    expect(judge(votes(40, 4 * 60_000, noBallots), split, NOW).state).toBe('watch');
    expect(judge(votes(40, 4 * 60_000, { ...noBallots, even: true }), split, NOW)).toEqual({
      state: 'challenge',
      reasons: ['volume', 'no-ballot', 'regular'],
    });
  });

  it('names each anomaly only where it is one', () => {
    expect(anomaliesOf(votes(40, 60_000, { option: () => 1 }), [700, 300])).toEqual(['skew']);
    // 90% for an answer 70%+ of everyone gives is no skew, nor is skew judged against too few others.
    expect(anomaliesOf(votes(40, 60_000, { option: () => 0 }), [800, 200])).toEqual([]);
    expect(anomaliesOf(votes(40, 60_000, { option: () => 1 }), [20, 5])).toEqual([]);
    expect(anomaliesOf(votes(40, 60_000, { pageMs: () => 900 }), split)).toEqual(['fast']);
    expect(anomaliesOf(votes(40, 60_000, { pageMs: (i) => (i % 4 === 0 ? null : 9_000) }), split)).toEqual([
      'no-ballot',
    ]);
    expect(anomaliesOf(votes(40, 60_000, { pageMs: (i) => (i % 5 === 0 ? null : 9_000) }), split)).toEqual([]);
    expect(anomaliesOf(votes(40, 60_000, { even: true }), split)).toEqual(['regular']);
  });

  it('makes the proof of work harder every 10 minutes a challenge goes on, up to level 3', () => {
    expect([0, 9, 10, 25, 31, 300].map((minutes) => challengeLevel(NOW - minutes * 60_000, NOW))).toEqual([
      0, 0, 1, 2, 3, 3,
    ]);
  });
});

describe('ballots', () => {
  const ballots = createBallots('a key');

  const VOTER = 'a-voter-id-of-22-chars';

  it("tell how long after the page the vote came, for the ballot's own poll and browser only", () => {
    const token = ballots.issue(7, NOW, VOTER);
    expect(ballots.redeem(token, 8, NOW + 5_000, VOTER)).toEqual({ pageMs: null });
    expect(ballots.redeem(token, 7, NOW + 5_000, 'another-voter-id-22chr')).toEqual({ pageMs: null });
    expect(ballots.redeem(token, 7, NOW + 5_000, VOTER)).toEqual({ pageMs: 5_000 });
  });

  it('issued past their network’s rate read as no ballot', () => {
    expect(ballots.redeem(ballots.issue(7, NOW, VOTER, false), 7, NOW + 5_000, VOTER)).toEqual({ pageMs: null });
  });

  it('are worth nothing forged, tampered, signed with another key, stale or garbled', () => {
    const token = ballots.issue(7, NOW, VOTER);
    const flipped = `${token.slice(0, 8)}${token[8] === 'A' ? 'B' : 'A'}${token.slice(9)}`;
    const forged = createBallots('another key').issue(7, NOW, VOTER);
    const stale = ballots.issue(7, NOW - 37 * 3_600_000, VOTER);
    for (const bad of [undefined, '', 'x'.repeat(38), flipped, forged, stale, `${token}=`, '💥'.repeat(19)]) {
      expect(ballots.redeem(bad, 7, NOW, VOTER)).toEqual({ pageMs: null });
    }
  });
});

describe('judgeSurge', () => {
  /** `count` votes in the minute and a half before NOW, from `networks` networks. */
  const wave = (
    count: number,
    networks: number,
    { firstTime = true, option = (i: number) => (i % 10 === 0 ? 1 : 0) } = {},
  ) =>
    Array.from({ length: count }, (_, i) => ({
      optionIndex: option(i),
      at: NOW - 90_000 + Math.floor((i * 90_000) / count),
      pageMs: 6_000,
      firstTime,
      bucket: `net-${i % networks}`,
      counted: true,
    }));
  // The poll's counted votes so far, split evenly, with the wave's counted ones in them.
  const tallies = (recent: { optionIndex: number }[]) => [
    150 + recent.filter((vote) => vote.optionIndex === 0).length,
    150 + recent.filter((vote) => vote.optionIndex === 1).length,
  ];

  it('flags first-time votes from many networks that shift the split', () => {
    const recent = wave(100, 100);
    expect(judgeSurge(recent, tallies(recent), NOW)).toEqual({ surge: true, signals: ['first-time', 'split'] });
  });

  it('never flags one network, however loud: a school is the network rules’ business', () => {
    const recent = wave(100, 1);
    expect(judgeSurge(recent, tallies(recent), NOW).surge).toBe(false);
  });

  it('does not flag a busy morning of returning teachers voting like everyone else', () => {
    const recent = wave(200, 150, { firstTime: false, option: (i) => (i % 2 === 0 ? 0 : 1) });
    expect(judgeSurge(recent, tallies(recent), NOW)).toEqual({ surge: false, signals: [] });
  });

  it('needs two signals: first-time browsers voting like everyone else are no surge', () => {
    const recent = wave(100, 100, { option: (i) => (i % 2 === 0 ? 0 : 1) });
    expect(judgeSurge(recent, tallies(recent), NOW)).toEqual({ surge: false, signals: ['first-time'] });
  });
});

describe('a held block against the rest of the poll (released when a challenge ends or at the close)', () => {
  it('matches a block within 10 points of everyone else’s split, and not one 11 points off', () => {
    expect(splitMatches([600, 400], [500, 500])).toBe(true);
    expect(splitMatches([610, 390], [500, 500])).toBe(false);
  });

  it('gives a small block 3 standard errors: 7 of 10 against 50/50 wanders by chance', () => {
    // 3 × √(0.25 / 10) ≈ 0.47; at 1,000 votes it is 0.047, so the 10 points rule.
    expect(splitMatches([7, 3], [150, 150])).toBe(true);
    expect(splitMatches([700, 300], [150, 150])).toBe(false);
  });

  it('keeps a stuffer’s 85/15 block of 190 against 50/50 held', () => {
    expect(splitMatches([28, 162], [150, 150])).toBe(false);
  });

  it('matches nothing without anything to compare: no other counted votes, or an empty block', () => {
    expect(splitMatches([50, 50], [0, 0])).toBe(false);
    expect(splitMatches([0, 0], [150, 150])).toBe(false);
  });

  it('reads an option the block or the rest lacks as none', () => {
    expect(splitMatches([50, 50], [150, 150, 0])).toBe(true);
    expect(splitMatches([50, 50, 40], [150, 150])).toBe(false);
  });
});
