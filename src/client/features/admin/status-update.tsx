/** Update Poll Status: runs the daily switch now, as midnight would. */
import { useUpdatePollStatuses } from '../../api/admin/poll-changes.js';
import { useStaffAction } from '../../components/admin/staff-action.js';

export function StatusUpdate() {
  const mutation = useUpdatePollStatuses();
  const run = useStaffAction(mutation, {
    request: () => undefined,
    failure: () => ({ title: 'Failed to update poll statuses' }),
    done: ({ message, activatedPollId }) => ({
      title: message,
      description:
        activatedPollId === null ? 'No scheduled poll was due.' : 'The poll scheduled for today is now live.',
    }),
  });
  return (
    <div className="admin__status">
      <button
        type="button"
        className="button button--primary"
        onClick={() => void run(undefined)}
        disabled={mutation.isPending}
      >
        Update Poll Status
      </button>
      <p className="admin-form__help">Puts the poll scheduled for today live now, as midnight would.</p>
    </div>
  );
}
