/** Community Poll Suggestions and Reviewed Submissions: loading them, and what staff do to them. */
import { useState } from 'react';
import type { AdminSuggestion } from '../../../shared/api.js';
import { useTopics } from '../../api/get-topics.js';
import { SelectField } from '../../components/forms/select-field.js';
import {
  useDeleteSuggestion,
  useReviewSuggestion,
  useSuggestions,
  type SuggestionList,
} from '../../api/admin/suggestions.js';
import { useConfirm } from '../../components/ui/confirm.js';
import { useStaffAction } from '../../components/admin/staff-action.js';
import { SuggestionLists, type ShownList } from './suggestion-lists.js';

type Review = { suggestion: AdminSuggestion; status: 'approved' | 'rejected' };

/** A list, its first page fetched at once and the next ones on "Show more"; undefined until the first page comes. */
function useShownList(list: SuggestionList, topic: string): { shown: ShownList | undefined; failed: boolean } {
  const query = useSuggestions(list, topic);
  if (!query.data) return { shown: undefined, failed: query.isError };
  const pages = query.data.pages;
  return {
    shown: {
      suggestions: pages.flatMap((page) => page.suggestions),
      // The latest page read knows the latest total.
      total: pages.at(-1)?.total ?? 0,
      showMore: query.hasNextPage ? () => void query.fetchNextPage() : undefined,
      loadingMore: query.isFetchingNextPage,
    },
    failed: false,
  };
}

/** `onUse` puts a suggestion in the poll form. */
export function SuggestionsSection({ onUse }: { onUse: (suggestion: AdminSuggestion) => void }) {
  const [topic, setTopic] = useState('');
  const topics = useTopics();
  const pending = useShownList('pending', topic);
  const reviewed = useShownList('reviewed', topic);
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

  if (pending.failed || reviewed.failed) return <p role="alert">Failed to load suggestions. Please try again.</p>;
  if (!pending.shown || !reviewed.shown) return <p role="status">Loading suggestions…</p>;
  return (
    <>
      <SelectField
        label="Topic the visitor picked"
        className="field admin-suggestions__topic"
        value={topic}
        onChange={setTopic}
        options={[['', 'Every topic'], ...(topics.data ?? []).map((t) => [t.slug, t.name] as const)]}
      />
      <SuggestionLists
        pending={pending.shown}
        reviewed={reviewed.shown}
        onUse={onUse}
        onReview={(suggestion, status) => void review({ suggestion, status })}
        onDelete={(suggestion) => void remove(suggestion)}
      />
      {dialog}
    </>
  );
}
