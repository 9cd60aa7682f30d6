/** Community Poll Suggestions and Reviewed Submissions: loading them, and what staff do to them. */
import type { AdminSuggestion } from '../../../shared/api.js';
import { useDeleteSuggestion, useReviewSuggestion, useSuggestions } from '../../api/admin/suggestions.js';
import { useConfirm } from '../../components/ui/confirm.js';
import { useStaffAction } from './staff-action.js';
import { SuggestionLists } from './suggestion-lists.js';

type Review = { suggestion: AdminSuggestion; status: 'approved' | 'rejected' };

/** `onUse` puts a suggestion in the poll form. */
export function SuggestionsSection({ onUse }: { onUse: (suggestion: AdminSuggestion) => void }) {
  const suggestions = useSuggestions();
  const { confirm, dialog } = useConfirm();
  const review = useStaffAction(
    useReviewSuggestion(),
    {
      request: ({ suggestion, status }: Review) => ({ id: suggestion.id, status }),
      failure: ({ status }) => ({
        title: 'Error',
        description: status === 'approved' ? 'Failed to approve suggestion.' : 'Failed to reject suggestion.',
      }),
    },
    confirm,
  );
  const remove = useStaffAction(
    useDeleteSuggestion(),
    {
      request: (suggestion: AdminSuggestion) => suggestion.id,
      ask: () => ({
        title: 'Delete this suggestion?',
        description: 'The suggestion will be deleted. This action cannot be undone.',
        confirmLabel: 'Delete',
      }),
      failure: () => ({ title: 'Error', description: 'Failed to delete suggestion.' }),
    },
    confirm,
  );

  if (suggestions.isPending) return <p role="status">Loading suggestions…</p>;
  if (suggestions.isError) return <p role="alert">Failed to load suggestions. Please try again.</p>;
  return (
    <>
      <SuggestionLists
        suggestions={suggestions.data}
        onUse={onUse}
        onReview={(suggestion, status) => void review({ suggestion, status })}
        onDelete={(suggestion) => void remove(suggestion)}
      />
      {dialog}
    </>
  );
}
