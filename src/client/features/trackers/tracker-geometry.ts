/**
 * Where a tracker's points sit in its server-drawn SVG charts: the runs evenly spaced, oldest
 * on the left (each labelled with its date), y from 0% at the bottom to 100% at the top.
 */
import type { TrackerRun } from '../../../shared/trackers.js';

export interface Frame {
  width: number;
  height: number;
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/** Each run's x, evenly spaced; a single run in the middle. */
export function xsOf(runs: readonly Pick<TrackerRun, 'liveDate'>[], frame: Frame): number[] {
  const span = frame.width - frame.left - frame.right;
  return runs.map((_, k) => frame.left + (runs.length < 2 ? span / 2 : (span * k) / (runs.length - 1)));
}

/** Every how many runs a date label fits under the chart, `room` wide each. */
export const labelStep = (runs: number, frame: Frame, room: number) =>
  Math.max(1, Math.ceil(runs / (Math.floor((frame.width - frame.left - frame.right) / room) + 1)));

export const yOf = (percent: number, frame: Frame) =>
  frame.top + (1 - Math.min(100, Math.max(0, percent)) / 100) * (frame.height - frame.top - frame.bottom);

const round = (value: number) => Math.round(value * 10) / 10;

/** An SVG `points` list. */
export const pointsOf = (xs: readonly number[], ys: readonly number[]) =>
  xs.map((x, k) => `${round(x)},${round(ys[k] ?? 0)}`).join(' ');

/**
 * The band's outline through consecutive runs that have one: the highs left to right, then the
 * lows back. Runs without a band break it into pieces.
 */
export function bandPieces(
  xs: readonly number[],
  bands: readonly ({ low: number; high: number } | null)[],
  frame: Frame,
): string[] {
  const pieces: string[] = [];
  let run: number[] = [];
  const close = () => {
    if (run.length > 0) {
      const highs = run.map((k) => `${round(xs[k] ?? 0)},${round(yOf(bands[k]?.high ?? 0, frame))}`);
      const lows = [...run].reverse().map((k) => `${round(xs[k] ?? 0)},${round(yOf(bands[k]?.low ?? 0, frame))}`);
      pieces.push([...highs, ...lows].join(' '));
    }
    run = [];
  };
  bands.forEach((band, k) => (band ? run.push(k) : close()));
  close();
  return pieces;
}
