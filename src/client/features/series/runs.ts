/** Reading a question asked more than once: its runs in order, who led, and by how much it moved. */
import type { SeriesRun } from '../../../shared/api.js';

/**
 * Oldest first, by the day each went live. ISO dates sort as plain strings (localeCompare
 * would load Intl's collation data, tens of milliseconds, while the page is starting).
 */
export const inOrder = (runs: readonly SeriesRun[]): SeriesRun[] =>
  [...runs].sort((a, b) =>
    a.liveDate === b.liveDate ? a.pollNumber - b.pollNumber : a.liveDate < b.liveDate ? -1 : 1,
  );

const sameOption = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * The share of `option` in `run`, found by its label (runs of a series have the same options,
 * matched ignoring case and spaces, maybe in another order); null when that run had no votes.
 */
export function shareOf(run: SeriesRun, option: string): number | null {
  if (run.totalVotes === 0) return null;
  return run.results.find((r) => sameOption(r.option, option))?.percentage ?? 0;
}

/** The options with the largest share of a run (more than one on a tie); none when nobody voted. */
export function leaders(run: SeriesRun): string[] {
  if (run.totalVotes === 0) return [];
  const top = Math.max(...run.results.map((r) => r.percentage));
  return run.results.filter((r) => r.percentage === top).map((r) => r.option);
}

/** "+8 points", "−3 points", "no change": how far an option moved between two runs. */
export function pointsChange(from: number, to: number): string {
  const change = to - from;
  if (change === 0) return 'no change';
  const points = Math.abs(change) === 1 ? 'point' : 'points';
  return `${change > 0 ? '+' : '−'}${Math.abs(change)} ${points}`;
}
