import { useStats } from '../../../api/get-stats.js';
import './stats.css';

/** Total polls, this visitor's votes, and their day streak. */
export function StatsStrip() {
  const { data } = useStats();
  const value = (n: number | undefined) => (n === undefined ? '–' : n.toLocaleString('en-US'));
  return (
    <section className="stats-strip" aria-label="Your stats">
      <dl className="stats-strip__list">
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
    </section>
  );
}
