/** How the integrity view words its figures: shares, times, the detector's reasons. */
import { localDateAt, localTimeAt } from '../../../shared/time.js';
import { formatLocalDate } from '../../../shared/time-labels.js';
import { siteClock } from '../../lib/site-config.js';

/** 0.953 → "95%". */
export const percent = (share: number) => `${Math.round(share * 100)}%`;

/** A page-to-vote time: "0.8 s", "12 s", or "—" when no vote carried a ballot. */
export function pageTime(ms: number | null): string {
  if (ms === null) return '—';
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

/** "14:03:27", on the site's clock. */
export const timeOfDay = (instant: string) => localTimeAt(new Date(instant), siteClock.timeZone);

/** "14:03:27–14:09:26". */
export const timeRange = (from: string, to: string) => `${timeOfDay(from)}–${timeOfDay(to)}`;

/** "November 21, 2026, 14:03". */
export const dateAndTime = (instant: string) =>
  `${formatLocalDate(localDateAt(new Date(instant), siteClock.timeZone))}, ${timeOfDay(instant).slice(0, 5)}`;

/** What the detector saw, in words (integrity_buckets.reasons). */
const REASONS: Record<string, string> = {
  volume: 'many votes at once',
  skew: 'nearly all for one option',
  fast: 'votes seconds after the page',
  'no-ballot': 'votes without a ballot',
  regular: 'arrivals as regular as a loop',
};

export const reasonWords = (reasons: readonly string[]) =>
  reasons.length === 0 ? 'volume' : reasons.map((reason) => REASONS[reason] ?? reason).join(', ');

export const STATE_LABEL = { watch: 'Watched', challenge: 'Challenged' } as const;
