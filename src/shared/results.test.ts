import { describe, expect, it } from 'vitest';
import { formatCount, resultItems, setAsideNote, votesText, wholePercentages } from './results.js';

describe('wholePercentages (largest remainder)', () => {
  it('adds up to exactly 100', () => {
    expect(wholePercentages([1, 1, 1])).toEqual([34, 33, 33]);
    expect(wholePercentages([2, 1])).toEqual([67, 33]);
    expect(wholePercentages([1, 1, 1, 1, 1, 1])).toEqual([17, 17, 17, 17, 16, 16]);
  });

  it('gives the missing points to the largest remainders, not simply the first options', () => {
    // 10/21 = 47.62, 6/21 = 28.57, 5/21 = 23.81: floors 47+28+23 = 98; .81 and .62 get the points.
    expect(wholePercentages([10, 6, 5])).toEqual([48, 28, 24]);
  });

  it('is all zeros without votes, and 100 for a unanimous poll', () => {
    expect(wholePercentages([0, 0, 0])).toEqual([0, 0, 0]);
    expect(wholePercentages([0, 7, 0])).toEqual([0, 100, 0]);
  });

  it('sums to 100 for many vote spreads', () => {
    let seed = 42;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    for (let run = 0; run < 2000; run += 1) {
      const counts = Array.from({ length: 2 + Math.floor(random() * 5) }, () => Math.floor(random() * 1000));
      if (counts.every((n) => n === 0)) continue;
      const percentages = wholePercentages(counts);
      expect(percentages.reduce((a, b) => a + b, 0)).toBe(100);
      const total = counts.reduce((a, b) => a + b, 0);
      // No option is more than one point away from its exact share.
      counts.forEach((n, i) => expect(Math.abs((percentages[i] ?? 0) - (n * 100) / total)).toBeLessThan(1));
    }
  });
});

describe('resultItems', () => {
  it('pairs each option with its votes and percentage', () => {
    expect(resultItems(['Yes', 'No'], [3, 1])).toEqual([
      { option: 'Yes', votes: 3, percentage: 75 },
      { option: 'No', votes: 1, percentage: 25 },
    ]);
  });
});

describe('formatCount', () => {
  it('writes counts as en-US toLocaleString does, without loading Intl', () => {
    for (const n of [0, 1, 12, 999, 1000, 1001, 12_345, 999_999, 1_000_000, 1_234_567_890, Number.MAX_SAFE_INTEGER]) {
      expect(formatCount(n)).toBe(n.toLocaleString('en-US'));
    }
    expect(votesText(1)).toBe('1 vote');
    expect(votesText(1234)).toBe('1,234 votes');
  });
});

describe('setAsideNote', () => {
  it('says nothing when no vote was set aside', () => {
    expect(setAsideNote(0)).toBeNull();
  });

  it('counts one vote in the singular, and more as every count on the site is written', () => {
    expect(setAsideNote(1)).toBe('1 vote set aside after review');
    expect(setAsideNote(2)).toBe('2 votes set aside after review');
    expect(setAsideNote(1234)).toBe('1,234 votes set aside after review');
    expect(setAsideNote(1_000_000)).toBe('1,000,000 votes set aside after review');
  });
});
