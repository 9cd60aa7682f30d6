/**
 * /trackers/<slug>: one question asked again and again. A chart per option (as voted, and the
 * adjusted line with its credibility band where it was shown), what changed since the previous
 * run in words, and a table of every figure: all drawn on the server, no script needed.
 */
import { useId } from 'react';
import { METHODS } from '../../../shared/methods.js';
import { pollPath } from '../../../shared/poll-links.js';
import { changeSentence, trackerDataPath, trackerPath, trackersPath, type Tracker } from '../../../shared/trackers.js';
import { useTracker } from '../../api/get-trackers.js';
import { PageShell } from '../../components/layout/page-shell.js';
import { formatShortLocalDate } from '../../lib/clock-labels.js';
import { Link } from '../../lib/router.js';
import { ApiRequestError } from '../../lib/api-client.js';
import { TrackerChart } from './tracker-chart.js';
import './trackers.css';

export default function TrackerPage({ slug }: { slug: string }) {
  const { data, error } = useTracker(slug);
  const back = { to: trackersPath, label: 'All trackers' };
  if (!data) {
    const missing = error instanceof ApiRequestError && error.status === 404;
    return (
      <PageShell
        title={missing ? 'Tracker not found' : 'Tracker'}
        path={missing ? null : trackerPath(slug)}
        back={back}
      >
        <h1 className="trackers__title">{missing ? 'Tracker not found' : 'Tracker'}</h1>
        <p role="status">
          {missing
            ? 'There is no tracker at this address.'
            : error
              ? 'The tracker could not be loaded. Please try again.'
              : 'Loading the tracker…'}
        </p>
      </PageShell>
    );
  }
  return (
    <PageShell title={data.name} path={trackerPath(data.slug)} description={data.question} back={back}>
      <h1 className="trackers__title">{data.name}</h1>
      <p className="trackers__lead">
        {data.question === data.name ? '' : `${data.question} `}Asked {data.runs.length} times, from{' '}
        {formatShortLocalDate(data.runs[0]?.liveDate ?? '')} to {formatShortLocalDate(data.runs.at(-1)?.liveDate ?? '')}
        .
      </p>
      <Changes tracker={data} />
      <div className="tracker__charts">
        {data.options.map((option, k) => (
          <TrackerChart key={option} tracker={data} index={k} />
        ))}
      </div>
      <p className="tracker__legend">
        Solid line: as voted. Dashed line and shading: adjusted to the mix of US K-12 teachers, with its 95% credibility
        interval, where the adjusted result is shown. <Link to={METHODS.path}>How we adjust results</Link>.
      </p>
      <Figures tracker={data} />
      <p className="tracker__data">
        Open data (CC BY 4.0): <a href={trackerDataPath(data.slug, 'json')}>JSON</a> ·{' '}
        <a href={trackerDataPath(data.slug, 'csv')}>CSV</a>
      </p>
    </PageShell>
  );
}

function Changes({ tracker }: { tracker: Tracker }) {
  const [before, after] = tracker.runs.slice(-2);
  if (!before || !after) return null;
  return (
    <section className="card tracker__changes" aria-labelledby="tracker-changes">
      <h2 id="tracker-changes" className="tracker__heading">
        Since the previous run
      </h2>
      <p className="tracker__runs">
        <Link to={pollPath(before.pollNumber)}>Poll #{before.pollNumber}</Link> ({formatShortLocalDate(before.liveDate)}
        , {before.totalVotes} votes) to <Link to={pollPath(after.pollNumber)}>poll #{after.pollNumber}</Link> (
        {formatShortLocalDate(after.liveDate)}, {after.totalVotes} votes), as voted:
      </p>
      {tracker.changes.length === 0 ? (
        <p>Nobody voted on one of the two runs, so there is nothing to compare.</p>
      ) : (
        <ul className="tracker__change-list">
          {tracker.changes.map((change) => (
            <li key={change.option}>{changeSentence(change)}</li>
          ))}
        </ul>
      )}
    </section>
  );
}

const band = (low: number | undefined, high: number | undefined) =>
  low === undefined || high === undefined ? '' : ` (${low}–${high}%)`;

function Figures({ tracker }: { tracker: Tracker }) {
  const id = useId();
  return (
    <section className="tracker__figures" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} className="tracker__heading">
        Every run’s figures
      </h2>
      <div className="tracker__scroll" role="region" aria-labelledby={`${id}-caption`} tabIndex={0}>
        <table className="tracker__table">
          <caption id={`${id}-caption`}>
            Each run, oldest first: its votes, each answer as voted and, where shown, adjusted (with its 95% credibility
            interval).
          </caption>
          <thead>
            <tr>
              <th scope="col">Run</th>
              <th scope="col">Votes</th>
              {tracker.options.map((option) => (
                <th key={option} scope="col">
                  {option}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {tracker.runs.map((run) => (
              <tr key={run.pollNumber}>
                <th scope="row">
                  <Link to={pollPath(run.pollNumber)}>Poll #{run.pollNumber}</Link>
                  <br />
                  <time dateTime={run.liveDate}>{formatShortLocalDate(run.liveDate)}</time>
                </th>
                <td>{run.totalVotes}</td>
                {tracker.options.map((option, k) => (
                  <td key={option}>
                    <span className="tracker__raw">{run.percentages[k] ?? 0}%</span>
                    <span className="tracker__adjusted">
                      {run.adjusted
                        ? `Adjusted ${run.adjusted.percentages[k] ?? 0}%${band(run.adjusted.low?.[k], run.adjusted.high?.[k])}`
                        : 'Adjusted: not shown'}
                    </span>
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
