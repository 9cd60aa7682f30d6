/** Community Poll Suggestions (pending) and Reviewed Submissions, with their actions. */
import type { AdminSuggestion } from '../../../shared/api.js';
import { formatLocalDate, localDateAt } from '../../../shared/time.js';
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

export function SuggestionLists({
  suggestions,
  onUse,
  onReview,
  onDelete,
}: { suggestions: AdminSuggestion[] } & SuggestionActions) {
  const pending = suggestions.filter((s) => s.status === 'pending');
  const reviewed = suggestions
    .filter((s) => s.status !== 'pending')
    .sort((a, b) => {
      const [at, bt] = [a.reviewedAt ?? a.createdAt, b.reviewedAt ?? b.createdAt];
      return at < bt ? 1 : at > bt ? -1 : 0;
    });
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
        count={pending.length}
        empty="No suggestions are waiting for review."
      >
        {pending.map((s) => (
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
      <AdminListSection title="Reviewed Submissions" count={reviewed.length} empty="Nothing reviewed yet.">
        {reviewed.map((s) => (
          <SuggestionCard key={s.id} suggestion={s}>
            {s.status === 'approved' && draftPollButton(s)}
            {deleteButton(s)}
          </SuggestionCard>
        ))}
      </AdminListSection>
    </>
  );
}
