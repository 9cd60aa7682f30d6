/** The networks with the most votes and their signals, each with the actions staff may take on it. */
import { formatCount } from '../../../shared/results.js';
import { TableFrame } from '../../components/ui/table-frame.js';
import type { ReviewActionsProps } from './discount-dialog.js';
import { pageTime, percent, STATE_LABEL } from './review-words.js';

const NETWORK_COLUMNS = [
  'Network',
  'Votes',
  'Peak a minute',
  'Top option (elsewhere)',
  'Page to vote',
  'No ballot',
  'New cookie',
  'Held',
  'Set aside',
  'State',
];

export function NetworkTable({ report, onDiscount, onRelease }: ReviewActionsProps) {
  if (report.buckets.length === 0) {
    return (
      <p className="integrity-empty">
        {report.votesWithoutBucket > 0
          ? 'These votes carry no network: they were cast before review began, or over 30 days ago, when signals are emptied.'
          : 'No votes yet.'}
      </p>
    );
  }
  return (
    <>
      <TableFrame
        label="Networks by votes"
        className="integrity-table integrity-table--networks"
        columns={NETWORK_COLUMNS}
        actions
      >
        {report.buckets.map((network) => (
          <tr key={network.bucket} className={network.state ? `integrity-row--${network.state}` : undefined}>
            <th scope="row">{network.label}</th>
            <td>{formatCount(network.votes)}</td>
            <td>{network.peakPerMinute}</td>
            <td>
              {network.topOption
                ? `${report.options[network.topOption.index] ?? ''} ${percent(network.topOption.share)} (${percent(network.topOption.shareElsewhere)})`
                : '—'}
            </td>
            <td>{pageTime(network.medianPageMs)}</td>
            <td>{percent(network.withoutBallotShare)}</td>
            <td>{percent(network.freshCookieShare)}</td>
            <td>{formatCount(network.held)}</td>
            <td>{formatCount(network.discounted)}</td>
            <td>
              {network.state ? (
                <span className={`integrity-state integrity-state--${network.state}`}>
                  {STATE_LABEL[network.state]}
                </span>
              ) : (
                '—'
              )}
            </td>
            <td className="integrity-table__actions">
              {network.votes - network.held - network.discounted > 0 && (
                <button
                  type="button"
                  className="button button--quiet"
                  aria-label={`Discount votes from ${network.label}`}
                  onClick={() =>
                    onDiscount({
                      bucket: network.bucket,
                      label: network.label,
                      from: network.firstVoteAt,
                      to: network.lastVoteAt,
                    })
                  }
                >
                  Discount…
                </button>
              )}
              {network.held > 0 && (
                <button
                  type="button"
                  className="button button--quiet"
                  aria-label={`Release held votes from ${network.label}`}
                  onClick={() => onRelease(network.bucket, network.label, network.held)}
                >
                  Release…
                </button>
              )}
            </td>
          </tr>
        ))}
      </TableFrame>
      <p className="integrity-note">
        Median page to vote counts votes with a ballot; “elsewhere” is the option’s share of every other network’s
        counted votes.
        {report.otherBuckets.buckets > 0 &&
          ` ${formatCount(report.otherBuckets.buckets)} more networks cast ${formatCount(report.otherBuckets.votes)} votes.`}
        {report.votesWithoutBucket > 0 && ` ${formatCount(report.votesWithoutBucket)} votes carry no network.`}
      </p>
    </>
  );
}
