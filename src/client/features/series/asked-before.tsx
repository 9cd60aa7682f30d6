/**
 * A question asked more than once: each run's date, votes and results as small bars side by
 * side, oldest first, and how far the leading option moved from one run to the next, in points.
 */
import { useId } from 'react';
import type { PollResults, SeriesRun } from '../../../shared/api.js';
import { trackerPath } from '../../../shared/trackers.js';
import { Link } from '../../lib/router.js';
import { votesText } from '../../components/chart/chart-labels.js';
import { chartColorClass } from '../../components/chart/palette.js';
import { formatShortLocalDate } from '../../lib/clock-labels.js';
import { inOrder, leaders, pointsChange, shareOf } from './runs.js';
import './series.css';

export function AskedBefore({
  poll,
  series,
  tracker,
}: {
  poll: SeriesRun;
  series: readonly SeriesRun[];
  /** The series' tracker, where staff named it. */
  tracker?: PollResults['tracker'];
}) {
  const id = useId();
  if (series.length === 0) return null;
  const runs = inOrder([...series, poll]);
  const at = runs.indexOf(poll);
  const options = poll.results.map((r) => r.option);
  // The option this poll's voters put first; if nobody voted on it, the latest run's.
  const leading = leaders(poll)[0] ?? runs.map((run) => leaders(run)[0]).findLast(Boolean) ?? options[0] ?? '';
  const asked = at > 0 ? 'Asked before' : 'Asked again';

  return (
    <section className="series" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} className="series__heading">
        {asked}
      </h2>
      <p className="series__summary">{summary(runs, at, leading)}</p>
      {tracker && (
        <p className="series__tracker">
          <Link to={trackerPath(tracker.slug)}>Follow “{tracker.name}” over time</Link>: every run as a chart.
        </p>
      )}
      <div className="series__scroll" role="region" aria-labelledby={`${id}-caption`} tabIndex={0}>
        <table className="series__table">
          <caption id={`${id}-caption`} className="visually-hidden">
            The results each time this question was asked, oldest first
          </caption>
          <thead>
            <tr>
              <td />
              {runs.map((run) => (
                <th key={run.pollNumber} scope="col" className={run === poll ? 'is-current' : undefined}>
                  <span className="series__run">{run === poll ? 'This poll' : `Poll #${run.pollNumber}`}</span>
                  <time dateTime={run.liveDate}>{formatShortLocalDate(run.liveDate)}</time>
                  <span className="series__n">{votesText(run.totalVotes)}</span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {options.map((option, index) => (
              <tr key={option}>
                <th scope="row">{option}</th>
                {runs.map((run) => {
                  const share = shareOf(run, option);
                  return (
                    <td key={run.pollNumber} className={run === poll ? 'is-current' : undefined}>
                      <span className="series__share">{share === null ? '–' : `${share}%`}</span>
                      <span className="series__track" aria-hidden="true">
                        <span
                          className={`series__fill ${chartColorClass(index)}`}
                          style={{ width: `${share ?? 0}%` }}
                        />
                      </span>
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">Change in “{leading}”</th>
              {runs.map((run, k) => {
                const previous = runs[k - 1];
                const now = shareOf(run, leading);
                const before = previous ? shareOf(previous, leading) : null;
                return (
                  <td key={run.pollNumber} className={run === poll ? 'is-current' : undefined}>
                    {now === null || before === null ? '–' : pointsChange(before, now)}
                  </td>
                );
              })}
            </tr>
          </tfoot>
        </table>
      </div>
    </section>
  );
}

/** One sentence: where the leading option stands on this poll against the run next to it. */
function summary(runs: SeriesRun[], at: number, leading: string): string {
  const poll = runs[at];
  const previous = runs[at - 1];
  const next = runs[at + 1];
  const here = poll ? shareOf(poll, leading) : null;
  if (here === null) return `Nobody has voted on this poll yet; “${leading}” led last time.`;
  if (previous) {
    const before = shareOf(previous, leading);
    return before === null
      ? `“${leading}” got ${here}% on this poll. Nobody voted on poll #${previous.pollNumber}.`
      : `“${leading}” got ${here}% on this poll: ${pointsChange(before, here)} since poll #${previous.pollNumber} (${formatShortLocalDate(previous.liveDate)}).`;
  }
  const after = next ? shareOf(next, leading) : null;
  return next && after !== null
    ? `“${leading}” got ${here}% on this poll; asked again in poll #${next.pollNumber} (${formatShortLocalDate(next.liveDate)}), ${after}% (${pointsChange(here, after)}).`
    : `“${leading}” got ${here}% on this poll.`;
}
