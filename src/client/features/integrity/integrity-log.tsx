/** The poll's integrity log, newest first: who did what, when, to how many votes, and why; discounts can be restored. */
import type { IntegrityAction } from '../../../shared/api.js';
import { votesText } from '../../../shared/results.js';
import { TableFrame } from '../../components/ui/table-frame.js';
import { dateAndTime, timeRange } from './review-words.js';

function what(action: IntegrityAction): string {
  const network = action.label ?? 'every network';
  const span = action.from && action.to ? `, ${timeRange(action.from, action.to)}` : '';
  switch (action.kind) {
    case 'discount':
      return `Discount #${action.id}: ${network}${span}`;
    case 'restore':
      return `Restored discount #${action.undoesId ?? ''}: ${network}`;
    case 'release':
      return `Released held votes: ${network}`;
    case 'challenge-on':
      return 'Challenge for every vote on';
    case 'challenge-off':
      return 'Challenge for every vote off';
  }
}

export function IntegrityLog({
  log,
  restoring,
  onRestore,
}: {
  log: IntegrityAction[];
  restoring: boolean;
  onRestore: (action: IntegrityAction) => void;
}) {
  if (log.length === 0) return <p className="integrity-empty">Staff have taken no action on this poll.</p>;
  return (
    <TableFrame
      label="Integrity log"
      className="integrity-table"
      columns={['When', 'Who', 'What', 'Votes', 'Reason']}
      actions
    >
      {log.map((action) => (
        <tr key={action.id}>
          <td>{dateAndTime(action.createdAt)}</td>
          <td>{action.actor}</td>
          <th scope="row">{what(action)}</th>
          <td>{action.kind.startsWith('challenge') ? '—' : votesText(action.votes)}</td>
          <td className="integrity-table__reason">{action.reason || '—'}</td>
          <td className="integrity-table__actions">
            {action.kind === 'discount' &&
              (action.undoneById === null ? (
                <button
                  type="button"
                  className="button button--secondary"
                  disabled={restoring}
                  aria-label={`Restore discount #${action.id}`}
                  onClick={() => onRestore(action)}
                >
                  Restore
                </button>
              ) : (
                `Restored (#${action.undoneById})`
              ))}
          </td>
        </tr>
      ))}
    </TableFrame>
  );
}
