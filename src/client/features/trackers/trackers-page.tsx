/** /trackers: every question asked at least twice, the one asked most recently first, each with its sparkline. */
import { PAGE_TITLES } from '../../../shared/page-head.js';
import { pollPath } from '../../../shared/poll-links.js';
import { trackerPath, trackersPath } from '../../../shared/trackers.js';
import { useTrackers } from '../../api/get-trackers.js';
import { PageShell } from '../../components/layout/page-shell.js';
import { formatShortLocalDate } from '../../lib/clock-labels.js';
import { Link } from '../../lib/router.js';
import { Sparkline } from './sparkline.js';
import './trackers.css';

export default function TrackersPage() {
  const { data, isError } = useTrackers();
  return (
    <PageShell
      title={PAGE_TITLES.trackers}
      path={trackersPath}
      description="How teachers’ answers move when the same question is asked again."
    >
      <h1 className="trackers__title">{PAGE_TITLES.trackers}</h1>
      <p className="trackers__lead">
        Some questions are asked again, months apart, with the same answers. Each tracker follows one of them: how
        teachers answered every time it was asked.
      </p>
      {data === undefined ? (
        <p role="status">{isError ? 'The trackers could not be loaded. Please try again.' : 'Loading the trackers…'}</p>
      ) : data.length === 0 ? (
        <p>No question has been asked twice yet.</p>
      ) : (
        <ul className="trackers__list">
          {data.map((tracker) => {
            const newest = tracker.runs.at(-1);
            const first = tracker.runs[0];
            return (
              <li key={tracker.slug} className="card trackers__item">
                <h2 className="trackers__name">
                  <Link to={trackerPath(tracker.slug)}>{tracker.name}</Link>
                </h2>
                {tracker.question !== tracker.name && <p className="trackers__question">{tracker.question}</p>}
                <Sparkline tracker={tracker} />
                {newest && first && (
                  <p className="trackers__meta">
                    Asked {tracker.runs.length} times since {formatShortLocalDate(first.liveDate)}. Latest,{' '}
                    <Link to={pollPath(newest.pollNumber)}>poll #{newest.pollNumber}</Link> (
                    {formatShortLocalDate(newest.liveDate)}, {newest.totalVotes} votes):{' '}
                    {tracker.options.map((option, k) => `${option} ${newest.percentages[k] ?? 0}%`).join(', ')}.
                  </p>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </PageShell>
  );
}
