import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { SeriesRun } from '../../../shared/api.js';
import { resultItems } from '../../../shared/results.js';
import { AskedBefore } from './asked-before.js';
import { LastTime } from './last-time.js';
import { leaders, pointsChange, shareOf } from './runs.js';

const run = (pollNumber: number, liveDate: string, counts: number[], options = ['Yes', 'No']): SeriesRun => ({
  pollNumber,
  liveDate,
  totalVotes: counts.reduce((a, b) => a + b, 0),
  results: resultItems(options, counts),
});

const text = (markup: string) =>
  markup
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

describe('runs', () => {
  it('finds an option by its label, ignoring case and spaces, and says nothing of a run without votes', () => {
    const reordered = run(2, '2026-03-01', [3, 1], ['no ', 'YES']);
    expect(shareOf(reordered, 'Yes')).toBe(25);
    expect(shareOf(run(3, '2026-03-02', [0, 0]), 'Yes')).toBeNull();
  });

  it('names every leader on a tie, and none without votes', () => {
    expect(leaders(run(1, '2026-01-01', [2, 2]))).toEqual(['Yes', 'No']);
    expect(leaders(run(1, '2026-01-01', [0, 0]))).toEqual([]);
  });

  it('words a change in points with its sign', () => {
    expect(pointsChange(40, 48)).toBe('+8 points');
    expect(pointsChange(48, 47)).toBe('−1 point');
    expect(pointsChange(50, 50)).toBe('no change');
  });
});

describe('LastTime', () => {
  it('gives the latest earlier run, its date in words and what its most voters chose', () => {
    const markup = renderToStaticMarkup(
      <LastTime series={[run(7, '2026-09-14', [62, 38]), run(2, '2025-11-10', [1, 3])]} />,
    );
    expect(text(markup)).toBe('Last time (poll #7, September 14, 2026 ): 62% chose Yes.');
  });
});

describe('AskedBefore', () => {
  it('shows every run oldest first, this poll marked, and the leading option’s change run to run', () => {
    const poll = run(12, '2026-11-23', [40, 60]);
    const markup = renderToStaticMarkup(
      <AskedBefore poll={poll} series={[run(7, '2026-03-02', [45, 55]), run(2, '2025-11-10', [50, 50])]} />,
    );
    const words = text(markup);
    expect(words).toContain('Asked before');
    expect(words).toContain('“No” got 60% on this poll: +5 points since poll #7 (Mar 2, 2026).');
    expect(words.indexOf('Poll #2')).toBeLessThan(words.indexOf('Poll #7'));
    expect(words.indexOf('Poll #7')).toBeLessThan(words.indexOf('This poll'));
    expect(words).toContain('Change in “No” – +5 points +5 points');
  });

  it('says "Asked again" when the other runs came later', () => {
    const markup = renderToStaticMarkup(
      <AskedBefore poll={run(2, '2025-11-10', [50, 50])} series={[run(7, '2026-03-02', [45, 55])]} />,
    );
    expect(text(markup)).toContain('Asked again');
  });
});
