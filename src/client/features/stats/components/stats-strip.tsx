import { formatCount } from '../../../../shared/results.js';
import { useStats } from '../../../api/get-stats.js';
import { ReminderLink } from './reminder-link.js';
import './stats.css';

/**
 * Total polls, this visitor's votes, and their day streak. When they cannot be read, the
 * spec's "Failed to fetch stats" takes the numbers' place, in the same space: the numbers stay
 * laid out underneath, hidden, so the page below does not move either way.
 */
export function StatsStrip() {
  const { data, isError, isFetching, refetch } = useStats();
  const failed = isError && data === undefined;
  const value = (n: number | undefined) => (n === undefined ? '–' : formatCount(n));
  return (
    <section className="stats-strip" aria-label="Your stats">
      <dl className="stats-strip__list" hidden={failed}>
        <div className="stats-strip__item">
          <dt>Total Polls</dt>
          <dd>{value(data?.totalPolls)}</dd>
        </div>
        <div className="stats-strip__item">
          <dt>Your Votes</dt>
          <dd>{value(data?.totalVotes)}</dd>
        </div>
        <div className="stats-strip__item">
          <dt>Day Streak</dt>
          <dd>
            {value(data?.streak)}
            {data && data.streak > 0 && <span aria-hidden="true"> 🔥</span>}
          </dd>
        </div>
      </dl>
      {failed && (
        <div className="stats-strip__failed">
          <p role="alert">Failed to fetch stats</p>
          <button
            type="button"
            className="button button--quiet stats-strip__retry"
            onClick={() => void refetch()}
            disabled={isFetching}
          >
            Try again
          </button>
        </div>
      )}
      <ReminderLink />
    </section>
  );
}
