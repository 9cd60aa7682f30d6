/**
 * The votes-per-minute chart's geometry, apart from drawing: one bar per minute of the span,
 * stacked by option, counted votes first, then held, then set aside; the marked spans; and the
 * ticks of both axes, at whole minutes of the site's clock.
 */
import type { IntegrityMark, IntegrityMinute, VoteStatus } from '../../../shared/api.js';
import { localTimeAt } from '../../../shared/time.js';

const MINUTE_MS = 60_000;

/** The order of a minute's stack, bottom up. */
export const STACK_ORDER: readonly VoteStatus[] = ['counted', 'held', 'discounted'];

export interface Plot {
  width: number;
  height: number;
}

export interface Segment {
  option: number;
  status: VoteStatus;
  votes: number;
  y: number;
  height: number;
}

export interface MinuteBar {
  at: string;
  x: number;
  width: number;
  total: number;
  segments: Segment[];
}

export interface MarkBand {
  mark: IntegrityMark;
  x: number;
  width: number;
}

export interface Tick {
  /** Where along the axis. */
  at: number;
  label: string;
}

export interface MinuteChart {
  bars: MinuteBar[];
  bands: MarkBand[];
  xTicks: Tick[];
  yTicks: Tick[];
  /** The busiest minute's votes (the top of the y axis is at least this). */
  peak: number;
}

/** Tick steps on the time axis, in minutes: the smallest that leaves at most `MAX_TIME_TICKS`. */
const TIME_STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 180, 240, 360];
const MAX_TIME_TICKS = 8;

/** A round number at or above `value`, for the top of the y axis: 1, 2 or 5 times a power of ten. */
export function roundUp(value: number): number {
  if (value <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  return [1, 2, 5, 10].map((step) => step * power).find((top) => top >= value) ?? 10 * power;
}

const minuteOf = (instant: number) => Math.floor(instant / MINUTE_MS) * MINUTE_MS;

/**
 * The chart of `minutes` over [from, to) (instants; by default the first to the last minute
 * with votes), drawn into `plot`.
 */
export function minuteChart(
  minutes: readonly IntegrityMinute[],
  marks: readonly IntegrityMark[],
  plot: Plot,
  { from, to, timeZone }: { from?: number; to?: number; timeZone: string },
): MinuteChart {
  const first = minutes[0];
  const last = minutes.at(-1);
  const start = minuteOf(from ?? (first ? Date.parse(first.at) : 0));
  const end = Math.max(start + MINUTE_MS, minuteOf(to ?? (last ? Date.parse(last.at) : 0)) + MINUTE_MS);
  const span = (end - start) / MINUTE_MS;
  const unit = plot.width / span;
  const xOf = (instant: number) => ((instant - start) / (end - start)) * plot.width;

  const shown = minutes.filter((minute) => {
    const at = Date.parse(minute.at);
    return at >= start && at < end;
  });
  const totals = shown.map((minute) =>
    STACK_ORDER.reduce((sum, status) => sum + minute[status].reduce((a, b) => a + b, 0), 0),
  );
  const peak = Math.max(0, ...totals);
  const top = roundUp(peak);
  const scale = plot.height / top;

  const bars = shown.map((minute, i): MinuteBar => {
    let base = plot.height;
    const segments: Segment[] = [];
    for (const status of STACK_ORDER) {
      minute[status].forEach((votes, option) => {
        if (votes === 0) return;
        const height = votes * scale;
        base -= height;
        segments.push({ option, status, votes, y: base, height });
      });
    }
    // A bar never thinner than a hair, however long the span: a lone minute must still show.
    return {
      at: minute.at,
      x: xOf(Date.parse(minute.at)),
      width: Math.max(unit * 0.85, 0.6),
      total: totals[i] ?? 0,
      segments,
    };
  });

  const bands = marks.flatMap((mark): MarkBand[] => {
    const left = Math.max(start, Date.parse(mark.from));
    const right = Math.min(end, Date.parse(mark.to));
    if (right <= left) return [];
    return [{ mark, x: xOf(left), width: Math.max(xOf(right) - xOf(left), 1) }];
  });

  const step = TIME_STEPS.find((minutesEach) => span / minutesEach <= MAX_TIME_TICKS) ?? 720;
  const xTicks: Tick[] = [];
  for (let instant = start; instant < end; instant += MINUTE_MS) {
    const time = localTimeAt(new Date(instant), timeZone);
    const minuteOfDay = Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
    if (minuteOfDay % step === 0) xTicks.push({ at: xOf(instant), label: time.slice(0, 5) });
  }
  const yTicks = [0, top / 2, top]
    .filter((value) => Number.isInteger(value))
    .map((value) => ({ at: plot.height - value * scale, label: String(value) }));

  return { bars, bands, xTicks, yTicks, peak };
}
