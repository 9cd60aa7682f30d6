/**
 * The panel: who is signed in, the navigation, and the place the address names
 * (shared/admin-paths.ts). /admin/polls keeps the spec's sections in the spec's order: Update
 * Poll Status, the poll form, Upcoming Polls, All Polls. The panel owns the poll form's
 * contents, which All Polls and the suggestions (on their own place) fill.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { adminPath, placeNeeds, type AdminPlace } from '../../../shared/admin-paths.js';
import type { AdminPoll, AdminSuggestion, StaffMember } from '../../../shared/api.js';
import { can, ROLE_LABELS, type StaffAction } from '../../../shared/staff-permissions.js';
import { useAdminPolls } from '../../api/admin/get-admin-polls.js';
import { toast } from '../../components/ui/toast.js';
import { Link, navigate } from '../../lib/router.js';
import { AccountSection } from './account-section.js';
import { AdminNav } from './admin-nav.js';
import { AuditSection } from './audit-section.js';
import { AllPolls, UpcomingPolls, type ReviewPanel } from './poll-lists.js';
import { emptyPollForm, PollForm, todayInSiteZone, type PollFormValues } from './poll-form.js';
import { PollPlace, pollFormValues } from './poll-place.js';
import { SeriesSection } from './series-section.js';
import { StaffSection } from './staff-section.js';
import { TopicsSection } from './topics-section.js';
import { StatusUpdate } from './status-update.js';
import { SuggestionsSection } from './suggestions-section.js';
import { TodayPlace } from './today-place.js';
import { usePollActions } from './use-poll-actions.js';
import { LogoutButton, UtilitiesSection } from './utilities-section.js';

interface FormState {
  /** A new key makes a fresh form with `initial` in it. */
  key: number;
  editing: AdminPoll | null;
  initial: PollFormValues;
  /** Filled from elsewhere: brought into view once drawn. */
  reveal: boolean;
}

/** The poll form's contents, and the ways the rest of the panel fills it. */
function usePollFormState() {
  const [form, setForm] = useState<FormState>(() => ({
    key: 0,
    editing: null,
    initial: emptyPollForm(),
    reveal: false,
  }));

  /** Puts new values in the form, on /admin/polls. */
  function fill(editing: AdminPoll | null, initial: PollFormValues) {
    setForm((current) => ({ key: current.key + 1, editing, initial, reveal: true }));
    navigate(adminPath({ name: 'polls' }));
  }

  return {
    form,
    reset: () =>
      setForm((current) => ({ key: current.key + 1, editing: null, initial: emptyPollForm(), reveal: false })),
    edit: (poll: AdminPoll) => fill(poll, pollFormValues(poll)),
    loadSuggestion: (suggestion: AdminSuggestion) => {
      fill(null, {
        question: suggestion.question,
        description: 'Poll suggested by the community',
        options: suggestion.options.length >= 2 ? suggestion.options : [...suggestion.options, ''],
        liveDate: todayInSiteZone(),
        askedBefore: '',
        topics: [],
      });
      toast({ title: suggestion.status === 'approved' ? 'Approved suggestion loaded!' : 'Suggestion loaded!' });
    },
  };
}

/** The poll form, scrolled to and focused when something else filled it. */
function PollFormArea({ form, onDone }: { form: FormState; onDone: () => void }) {
  const section = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!form.reveal) return;
    section.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
    section.current?.querySelector('textarea')?.focus({ preventScroll: true });
  }, [form.key, form.reveal]);
  return (
    <div ref={section} className="admin__form-section">
      <PollForm key={form.key} editing={form.editing} initial={form.initial} onDone={onDone} />
    </div>
  );
}

/** A place the address names but the person's role may not open. */
function NotAllowed() {
  return (
    <p role="alert" className="card">
      Your role cannot open this part of the panel. <Link to={adminPath({ name: 'today' })}>Back to the panel</Link>
    </p>
  );
}

/** `reviewPanel`: each poll's integrity review, from the page that composes the panel. */
export function AdminPanel({
  place,
  reviewPanel,
  staff,
}: {
  place: AdminPlace;
  reviewPanel?: ReviewPanel | undefined;
  staff: StaffMember;
}) {
  const may = (action: StaffAction) => can(staff.role, action);
  const polls = useAdminPolls(may('polls.read'));
  const { form, reset, edit, loadSuggestion } = usePollFormState();
  const { actions, dialog } = usePollActions({
    onEdit: edit,
    onDeleting: (poll) => {
      if (form.editing?.id === poll.id) reset();
      if (place.name === 'poll' && place.pollNumber === poll.pollNumber) navigate(adminPath({ name: 'polls' }));
    },
  });
  const content = useRef<HTMLDivElement>(null);
  const address = adminPath(place);
  const first = useRef(true);
  // A move to another place puts the keyboard at its start, as a new page would.
  useEffect(() => {
    if (first.current) first.current = false;
    else content.current?.focus({ preventScroll: true });
  }, [address]);

  const places: Record<AdminPlace['name'], () => ReactNode> = {
    today: () => <TodayPlace utilities={may('polls.read') && <UtilitiesSection />} />,
    polls: () => (
      <>
        {may('polls.write') && <StatusUpdate />}
        {may('polls.write') && <PollFormArea form={form} onDone={reset} />}
        {polls.isError ? (
          <p role="alert">Failed to load polls. Please try again.</p>
        ) : !polls.data ? (
          <p role="status">Loading polls…</p>
        ) : (
          <>
            <UpcomingPolls polls={polls.data} {...actions} />
            <AllPolls polls={polls.data} reviewable={may('integrity.read')} {...actions} />
            <SeriesSection editable={may('polls.write')} />
          </>
        )}
      </>
    ),
    poll: () =>
      place.name === 'poll' && (
        <PollPlace pollNumber={place.pollNumber} tab={place.tab} actions={actions} reviewPanel={reviewPanel} />
      ),
    suggestions: () => <SuggestionsSection onUse={loadSuggestion} />,
    topics: () => <TopicsSection />,
    staff: () => <StaffSection me={staff.id} />,
    audit: () => <AuditSection />,
    account: () => <AccountSection name={staff.displayName} owner={may('staff.manage')} />,
  };

  return (
    <div className="admin">
      <div className="admin__top">
        <h1>Admin Panel</h1>
        <p className="admin-muted admin__who">
          {staff.displayName} · {ROLE_LABELS[staff.role]}
        </p>
        <LogoutButton />
      </div>
      <AdminNav place={place} role={staff.role} />
      <div ref={content} className="admin__place" tabIndex={-1}>
        {may(placeNeeds(place)) ? places[place.name]() : <NotAllowed />}
      </div>
      {dialog}
    </div>
  );
}
