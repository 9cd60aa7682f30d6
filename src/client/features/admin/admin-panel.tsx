/**
 * The panel, in the spec's order: sign out, Update Poll Status, the poll form, Upcoming Polls,
 * Community Poll Suggestions, Reviewed Submissions, All Polls, Utilities. Each section owns
 * its calls; the panel owns the form, which the lists and the suggestions fill.
 */
import { useRef, useState } from 'react';
import type { AdminPoll, AdminSuggestion, StaffMember } from '../../../shared/api.js';
import { can, ROLE_LABELS, type StaffAction } from '../../../shared/staff-permissions.js';
import { AccountSection } from './account-section.js';
import { AuditSection } from './audit-section.js';
import { StaffSection } from './staff-section.js';
import { useAdminPolls } from '../../api/admin/get-admin-polls.js';
import { toast } from '../../components/ui/toast.js';
import { AllPolls, UpcomingPolls, type ReviewPanel } from './poll-lists.js';
import { emptyPollForm, PollForm, todayInSiteZone, type PollFormValues } from './poll-form.js';
import { StatusUpdate } from './status-update.js';
import { SuggestionsSection } from './suggestions-section.js';
import { usePollActions } from './use-poll-actions.js';
import { LogoutButton, UtilitiesSection } from './utilities-section.js';

interface FormState {
  /** A new key makes a fresh form with `initial` in it. */
  key: number;
  editing: AdminPoll | null;
  initial: PollFormValues;
}

/** The poll form's contents, and the ways the rest of the panel fills it. */
function usePollFormState() {
  const section = useRef<HTMLDivElement>(null);
  const [form, setForm] = useState<FormState>(() => ({ key: 0, editing: null, initial: emptyPollForm() }));

  /** Puts new values in the form and brings it into view. */
  function fill(editing: AdminPoll | null, initial: PollFormValues) {
    setForm((current) => ({ key: current.key + 1, editing, initial }));
    section.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
    section.current?.querySelector('textarea')?.focus({ preventScroll: true });
  }

  return {
    form,
    section,
    reset: () => setForm((current) => ({ key: current.key + 1, editing: null, initial: emptyPollForm() })),
    edit: (poll: AdminPoll) =>
      fill(poll, {
        question: poll.question,
        description: poll.description ?? '',
        options: poll.options,
        liveDate: poll.liveDate,
        askedBefore: poll.askedBefore === null ? '' : String(poll.askedBefore),
      }),
    loadSuggestion: (suggestion: AdminSuggestion) => {
      fill(null, {
        question: suggestion.question,
        description: 'Poll suggested by the community',
        options: suggestion.options.length >= 2 ? suggestion.options : [...suggestion.options, ''],
        liveDate: todayInSiteZone(),
        askedBefore: '',
      });
      toast({ title: suggestion.status === 'approved' ? 'Approved suggestion loaded!' : 'Suggestion loaded!' });
    },
  };
}

/** `reviewPanel`: each poll's integrity review, from the page that composes the panel. */
export function AdminPanel({ reviewPanel, staff }: { reviewPanel?: ReviewPanel | undefined; staff: StaffMember }) {
  const may = (action: StaffAction) => can(staff.role, action);
  const polls = useAdminPolls(may('polls.read'));
  const { form, section, reset, edit, loadSuggestion } = usePollFormState();
  const { actions, dialog } = usePollActions({
    onEdit: edit,
    onDeleting: (poll) => {
      if (form.editing?.id === poll.id) reset();
    },
  });

  return (
    <div className="admin">
      <div className="admin__top">
        <h1>Admin Panel</h1>
        <p className="admin-muted admin__who">
          {staff.displayName} · {ROLE_LABELS[staff.role]}
        </p>
        <LogoutButton />
      </div>
      {may('polls.write') && <StatusUpdate />}
      {may('polls.write') && (
        <div ref={section} className="admin__form-section">
          <PollForm key={form.key} editing={form.editing} initial={form.initial} onDone={reset} />
        </div>
      )}
      {!may('polls.read') ? null : polls.isPending ? (
        <p role="status">Loading polls…</p>
      ) : polls.isError ? (
        <p role="alert">Failed to load polls. Please try again.</p>
      ) : (
        <UpcomingPolls polls={polls.data} {...actions} />
      )}
      {may('suggestions.read') && <SuggestionsSection onUse={loadSuggestion} />}
      {polls.data && may('polls.read') && (
        <AllPolls polls={polls.data} reviewPanel={may('integrity.read') ? reviewPanel : undefined} {...actions} />
      )}
      {may('staff.manage') && <StaffSection me={staff.id} />}
      <AccountSection name={staff.displayName} owner={may('staff.manage')} />
      {may('audit.read') && <AuditSection />}
      {may('polls.read') && <UtilitiesSection />}
      {dialog}
    </div>
  );
}
