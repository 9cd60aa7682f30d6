/** Community Poll Suggestions (pending) and Reviewed Submissions, with their actions. */
import type { AdminSuggestion } from '../../../shared/api.js';
import { localDateAt } from '../../../shared/time.js';
import { formatLocalDate } from '../../../shared/time-labels.js';
import { siteClock } from '../../lib/site-config.js';
import { AdminListSection } from './admin-list-section.js';

export interface SuggestionActions {
  onUse: (suggestion: AdminSuggestion) => void;
  onReview: (suggestion: AdminSuggestion, status: 'approved' | 'rejected') => void;
  onDelete: (suggestion: AdminSuggestion) => void;
}

function SuggestionCard({ suggestion, children }: { suggestion: AdminSuggestion; children: React.ReactNode }) {
  const from = [suggestion.suggestedBy, suggestion.email].filter(Boolean).join(' · ');
  return (
    <li className="card admin-item">
      <p className="admin-item__meta">
        {suggestion.status !== 'pending' && (
          <span className={`admin-badge admin-badge--${suggestion.status}`}>
            {suggestion.status === 'approved' ? 'Approved' : 'Rejected'}
          </span>
        )}{' '}
        {formatLocalDate(localDateAt(new Date(suggestion.createdAt), siteClock.timeZone))}
        {from && ` · from ${from}`}
        {suggestion.topic && ` · ${suggestion.topic.name}`}
      </p>
      <h3 className="admin-item__question">{suggestion.question}</h3>
      <ul className="admin-item__options">
        {suggestion.options.map((option) => (
          <li key={option}>{option}</li>
        ))}
      </ul>
      <div className="admin-item__actions">{children}</div>
    </li>
  );
}

/** A list as far as it has been read: the suggestions shown, how many there are in all, and how to show more. */
export interface ShownList {
  suggestions: AdminSuggestion[];
  total: number;
  /** Shows the next page; undefined when every suggestion is shown. */
  showMore: (() => void) | undefined;
  loadingMore: boolean;
}

function ShowMore({ list }: { list: ShownList }) {
  if (!list.showMore) return null;
  return (
    <p className="admin-more">
      <button type="button" className="button button--quiet" disabled={list.loadingMore} onClick={list.showMore}>
        {list.loadingMore ? 'Loading…' : 'Show more suggestions'}
      </button>
    </p>
  );
}

/** Pending suggestions newest first, then reviewed ones, the latest reviewed first (the server's order). */
export function SuggestionLists({
  pending,
  reviewed,
  onUse,
  onReview,
  onDelete,
}: { pending: ShownList; reviewed: ShownList } & SuggestionActions) {
  const draftPollButton = (s: AdminSuggestion) => (
    <button type="button" className="button button--secondary" onClick={() => onUse(s)}>
      Use This Suggestion
    </button>
  );
  const deleteButton = (s: AdminSuggestion) => (
    <button
      type="button"
      className="button button--quiet"
      aria-label={`Delete suggestion: ${s.question}`}
      onClick={() => onDelete(s)}
    >
      Delete
    </button>
  );
  return (
    <>
      <AdminListSection
        title="Community Poll Suggestions"
        count={pending.total}
        empty="No suggestions are waiting for review."
        more={<ShowMore list={pending} />}
      >
        {pending.suggestions.map((s) => (
          <SuggestionCard key={s.id} suggestion={s}>
            {draftPollButton(s)}
            <button type="button" className="button button--secondary" onClick={() => onReview(s, 'approved')}>
              Approve
            </button>
            <button type="button" className="button button--secondary" onClick={() => onReview(s, 'rejected')}>
              Reject
            </button>
            {deleteButton(s)}
          </SuggestionCard>
        ))}
      </AdminListSection>
      <AdminListSection
        title="Reviewed Submissions"
        count={reviewed.total}
        empty="Nothing reviewed yet."
        more={<ShowMore list={reviewed} />}
      >
        {reviewed.suggestions.map((s) => (
          <SuggestionCard key={s.id} suggestion={s}>
            {s.status === 'approved' && draftPollButton(s)}
            {deleteButton(s)}
          </SuggestionCard>
        ))}
      </AdminListSection>
    </>
  );
}
