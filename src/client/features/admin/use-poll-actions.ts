/** What staff do to a poll in Upcoming Polls and All Polls: edit, make active, delete. */
import type { AdminPoll } from '../../../shared/api.js';
import { useAdminPolls } from '../../api/admin/get-admin-polls.js';
import { useCan } from './staff-context.js';
import { useActivatePoll, useDeletePoll } from '../../api/admin/poll-changes.js';
import { useConfirm, type ConfirmRequest } from '../../components/ui/confirm.js';
import type { ActivateButton, PollActions } from './poll-lists.js';
import { useStaffAction } from '../../components/admin/staff-action.js';

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
  // The poll the list shows active: pressing Make Active confirms retiring this one, and no other.
  const mayReadPolls = useCan('polls.read');
  const activeId = useAdminPolls(mayReadPolls).data?.find((poll) => poll.status === 'active')?.id ?? null;
  const activate = useStaffAction(
    useActivatePoll(),
    {
      request: ({ poll, replacing }: { poll: AdminPoll; button: ActivateButton; replacing: number | null }) => ({
        id: poll.id,
        replacing,
      }),
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
    onActivate: (poll, button) => void activate({ poll, button, replacing: activeId }),
    onDelete: (poll) => void remove(poll),
  };
  return { actions, dialog };
}
