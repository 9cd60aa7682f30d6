/** The runs of votes the detector flagged: each with its minutes, its signals, and the results without it. */
import type { FlaggedBurst } from '../../../shared/api.js';
import { votesText } from '../../../shared/results.js';
import { ResultBars } from '../../components/chart/result-bars.js';
import type { ReviewActionsProps } from './discount-dialog.js';
import { MinuteChart } from './minute-chart.js';
import { reasonWords, STATE_LABEL, timeRange } from './review-words.js';

/** Minutes shown either side of a burst in its own chart. */
const AROUND_MS = 10 * 60_000;

export function FlaggedBursts({ report, onDiscount, onRelease }: ReviewActionsProps) {
  if (report.bursts.length === 0) {
    return <p className="integrity-empty">The detector has flagged no network on this poll.</p>;
  }
  return (
    <ul className="integrity-bursts">
      {report.bursts.map((burst) => (
        <BurstCard key={burst.bucket} burst={burst} report={report} onDiscount={onDiscount} onRelease={onRelease} />
      ))}
    </ul>
  );
}

function BurstCard({ burst, report, onDiscount, onRelease }: ReviewActionsProps & { burst: FlaggedBurst }) {
  const network = report.buckets.find((b) => b.bucket === burst.bucket);
  const heldNow = network?.held ?? burst.votes.held;
  return (
    <li className="integrity-burst" aria-label={`Flagged burst from ${burst.label}`}>
      <p className="integrity-burst__head">
        <strong>{burst.label}</strong>{' '}
        <span className={`integrity-state integrity-state--${burst.state}`}>{STATE_LABEL[burst.state]}</span>{' '}
        {timeRange(burst.from, burst.to)} · {reasonWords(burst.reasons)}
      </p>
      <p className="integrity-burst__counts">
        {votesText(burst.votes.counted + burst.votes.held + burst.votes.discounted)}: {burst.votes.counted} counted,{' '}
        {burst.votes.held} held, {burst.votes.discounted} set aside
      </p>
      <MinuteChart
        minutes={report.minutes}
        marks={report.marks.filter((mark) => mark.label === burst.label || mark.label === null)}
        options={report.options}
        from={Date.parse(burst.from) - AROUND_MS}
        to={Date.parse(burst.to) + AROUND_MS}
        title={`Every vote per minute around ${burst.label}’s burst`}
      />
      <div className="integrity-burst__results">
        <div>
          <p className="integrity-burst__results-title">Results now ({votesText(sum(report.results))})</p>
          <ResultBars results={report.results} compact />
        </div>
        <div>
          <p className="integrity-burst__results-title">Without this burst ({votesText(burst.preview.totalVotes)})</p>
          <ResultBars results={burst.preview.results} compact />
        </div>
      </div>
      <div className="admin-item__actions">
        {burst.votes.counted > 0 && (
          <button
            type="button"
            className="button button--danger"
            onClick={() =>
              onDiscount({
                bucket: burst.bucket,
                label: burst.label,
                from: burst.from,
                to: burst.to,
                counted: burst.votes.counted,
                preview: burst.preview,
              })
            }
          >
            Discount this burst…
          </button>
        )}
        {heldNow > 0 && (
          <button
            type="button"
            className="button button--secondary"
            onClick={() => onRelease(burst.bucket, burst.label, heldNow)}
          >
            Release {votesText(heldNow)} held…
          </button>
        )}
      </div>
    </li>
  );
}

const sum = (results: { votes: number }[]) => results.reduce((total, r) => total + r.votes, 0);
