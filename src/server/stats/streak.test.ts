import { describe, expect, it } from 'vitest';
import { streakLength } from './streak.js';

describe('streakLength', () => {
  it('counts consecutive days ending today', () => {
    expect(streakLength(['2026-11-21', '2026-11-20', '2026-11-19', '2026-11-17'], '2026-11-21')).toBe(3);
  });

  it('keeps the streak alive until today ends when there is no vote yet today', () => {
    expect(streakLength(['2026-11-20', '2026-11-19'], '2026-11-21')).toBe(2);
  });

  it('is broken by a missed day', () => {
    expect(streakLength(['2026-11-19', '2026-11-18'], '2026-11-21')).toBe(0);
    expect(streakLength([], '2026-11-21')).toBe(0);
  });

  it('runs across month and year ends and the daylight-saving nights', () => {
    expect(streakLength(['2027-01-01', '2026-12-31', '2026-12-30'], '2027-01-01')).toBe(3);
    expect(streakLength(['2026-11-02', '2026-11-01', '2026-10-31'], '2026-11-02')).toBe(3);
    expect(streakLength(['2026-03-09', '2026-03-08', '2026-03-07'], '2026-03-09')).toBe(3);
  });

  it('ignores votes dated after today', () => {
    expect(streakLength(['2026-11-22', '2026-11-21', '2026-11-20'], '2026-11-21')).toBe(2);
  });
});
