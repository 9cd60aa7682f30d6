/**
 * Trackers (issue 38, item 2): a question asked at least twice, followed over time. What the API,
 * the pages, the link previews and the open data say about one: its runs, oldest first, each
 * with its date, votes, raw result and, where it is shown, the adjusted line with its 95%
 * credibility interval; and what changed since the previous run, in words.
 */
import type * as answers from './schemas/tracker-answers.js';
import type { z } from './zod.js';

/** A series' address: lower-case words and digits joined by single hyphens. */
export const SERIES_SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const SERIES_SLUG_MAX = 60;
export const SERIES_NAME_MAX = 60;

export const trackersPath = '/trackers';
export const trackerPath = (slug: string) => `/trackers/${slug}`;
/** The slug in a tracker's address, or null when the path is no tracker's. */
export function parseTrackerPath(path: string): string | null {
  const match = /^\/trackers\/([a-z0-9-]{1,60})\/?$/.exec(path);
  return match?.[1] && SERIES_SLUG_PATTERN.test(match[1]) ? match[1] : null;
}
export const trackerDataPath = (slug: string, format: 'json' | 'csv') => `/data/trackers/${slug}.${format}`;
export const trackerImagePath = (slug: string) => `/og/tracker-${slug}.png`;
export function parseTrackerImagePath(path: string): string | null {
  const match = /^\/og\/tracker-([a-z0-9-]{1,60})\.png$/.exec(path);
  return match?.[1] && SERIES_SLUG_PATTERN.test(match[1]) ? match[1] : null;
}

/** The answers' shapes: schemas/tracker-answers.ts holds them (one home), these are their z.infer. */
export type TrackerAdjusted = z.infer<typeof answers.trackerAdjusted>;
export type TrackerRun = z.infer<typeof answers.trackerRun>;
/** How one option moved from the run before the newest to the newest. */
export type TrackerChange = z.infer<typeof answers.trackerChange>;
export type TrackerSummary = z.infer<typeof answers.trackerSummary>;
/** GET /api/trackers/:slug. */
export type Tracker = z.infer<typeof answers.tracker>;

/** "No rose from 55% to 63%", and whether the adjusted bands say the move may be no real change. */
export function changeSentence({ option, from, to, withinBands }: TrackerChange): string {
  const moved =
    from === to ? `“${option}” stayed at ${to}%` : `“${option}” ${to > from ? 'rose' : 'fell'} from ${from}% to ${to}%`;
  if (withinBands === null) return `${moved}.`;
  return withinBands
    ? `${moved}, within the adjusted lines’ credibility bands: it may be no real change.`
    : `${moved}, beyond the adjusted lines’ credibility bands.`;
}

/** Whether two closed ranges [a.low, a.high] and [b.low, b.high] share a point. */
export const bandsOverlap = (aLow: number, aHigh: number, bLow: number, bHigh: number) =>
  aLow <= bHigh && bLow <= aHigh;

/** The changes between two runs of a tracker (options in the tracker's order). */
export function changesBetween(options: readonly string[], before: TrackerRun, after: TrackerRun): TrackerChange[] {
  if (before.totalVotes === 0 || after.totalVotes === 0) return [];
  return options.map((option, k) => {
    const a = before.adjusted;
    const b = after.adjusted;
    const banded = a?.low && a.high && b?.low && b.high;
    return {
      option,
      from: before.percentages[k] ?? 0,
      to: after.percentages[k] ?? 0,
      withinBands: banded ? bandsOverlap(a.low?.[k] ?? 0, a.high?.[k] ?? 0, b.low?.[k] ?? 0, b.high?.[k] ?? 0) : null,
    };
  });
}

/** A series' slug from its name: "Is workload getting worse?" → "is-workload-getting-worse". */
export function slugOf(text: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SERIES_SLUG_MAX)
    .replace(/-+$/g, '');
  return slug === '' ? 'series' : slug;
}

/** A series' default name: its question, cut at a word to fit. */
export function defaultSeriesName(question: string): string {
  const text = question.replace(/\s+/g, ' ').trim();
  if (text.length <= SERIES_NAME_MAX) return text;
  const cut = text.slice(0, SERIES_NAME_MAX - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > 20 ? cut.slice(0, space) : cut).replace(/[\s,;:.-]+$/, '')}…`;
}
