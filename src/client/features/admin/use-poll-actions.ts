/** What staff do to a poll in Upcoming Polls and All Polls: edit, make active, delete. */
import type { AdminPoll } from '../../../shared/api.js';
import { useActivatePoll, useDeletePoll } from '../../api/admin/poll-changes.js';
import { useConfirm, type ConfirmRequest } from '../../components/ui/confirm.js';
import type { ActivateButton, PollActions } from './poll-lists.js';
import { useStaffAction } from './staff-action.js';

/** What each activation button asks; the spec words them apart, whatever the poll's status. */
const ACTIVATE_CONFIRMATIONS: Record<ActivateButton, ConfirmRequest> = {
  'Make Active Now': {
    title: 'Make this poll active now?',
    description: 'This will override the scheduled date and deactivate the current poll.',
    confirmLabel: 'Make Active Now',
  },
  'Make Active': {
    title: 'Make this poll active?',
    description: 'This will deactivate the current poll.',
    confirmLabel: 'Make Active',
  },
};

/**
 * The actions of both poll lists, and the dialog they ask in (render it once). `onEdit` puts a
 * poll in the form; `onDeleting` hears of a deletion staff confirmed, before it is sent.
 */
export function usePollActions({
  onEdit,
  onDeleting,
}: {
  onEdit: (poll: AdminPoll) => void;
  onDeleting: (poll: AdminPoll) => void;
}) {
  const { confirm, dialog } = useConfirm();
  const activate = useStaffAction(
    useActivatePoll(),
    {
      request: ({ poll }: { poll: AdminPoll; button: ActivateButton }) => poll.id,
      ask: ({ button }) => ACTIVATE_CONFIRMATIONS[button],
      failure: () => ({ title: 'Failed to make poll active' }),
    },
    confirm,
  );
  const remove = useStaffAction(
    useDeletePoll(),
    {
      request: (poll: AdminPoll) => poll.id,
      ask: (poll) => ({
        title: `Delete poll #${poll.pollNumber}?`,
        description: 'This action cannot be undone.',
        confirmLabel: 'Delete',
      }),
      confirmed: onDeleting,
      failure: () => ({ title: 'Failed to delete poll' }),
    },
    confirm,
  );
  const actions: PollActions = {
    onEdit,
    onActivate: (poll, button) => void activate({ poll, button }),
    onDelete: (poll) => void remove(poll),
  };
  return { actions, dialog };
}
