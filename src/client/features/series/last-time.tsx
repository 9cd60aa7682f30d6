/** After voting on a question asked before: what the last run's voters chose. */
import type { SeriesRun } from '../../../shared/api.js';
import { formatLocalDate } from '../../../shared/time-labels.js';
import { inOrder, leaders, shareOf } from './runs.js';
import './series.css';

export function LastTime({ series }: { series: readonly SeriesRun[] }) {
  const last = inOrder(series).at(-1);
  if (!last) return null;
  const top = leaders(last);
  const chose =
    top.length === 0
      ? 'nobody voted.'
      : `${top.map((option) => `${shareOf(last, option) ?? 0}% chose ${option}`).join(', and ')}.`;
  return (
    <p className="last-time">
      <strong>
        Last time (poll #{last.pollNumber}, <time dateTime={last.liveDate}>{formatLocalDate(last.liveDate)}</time>):
      </strong>{' '}
      {chose}
    </p>
  );
}
