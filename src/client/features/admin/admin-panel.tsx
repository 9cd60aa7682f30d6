/**
 * The panel, in the spec's order: sign out, Update Poll Status, the poll form, Upcoming Polls,
 * Community Poll Suggestions, Reviewed Submissions, All Polls, Utilities.
 */
import { useRef, useState } from 'react';
import type { AdminPoll, AdminSuggestion } from '../../../shared/api.js';
import { useAdminPolls } from '../../api/admin/get-admin-polls.js';
import { useMailStats } from '../../api/admin/get-mail-stats.js';
import { useActivatePoll, useDeletePoll, useUpdatePollStatuses } from '../../api/admin/poll-changes.js';
import { useSignOut } from '../../api/admin/sign-in.js';
import { useDeleteSuggestion, useReviewSuggestion, useSuggestions } from '../../api/admin/suggestions.js';
import { toast } from '../../components/ui/toast.js';
import { storage } from '../../lib/storage.js';
import { useConfirm, type ConfirmRequest } from './confirm.js';
import { AllPolls, UpcomingPolls, type ActivateButton, type PollActions } from './poll-lists.js';
import { emptyPollForm, PollForm, todayInSiteZone, type PollFormValues } from './poll-form.js';
import { SuggestionLists } from './suggestion-lists.js';
import { useAdminFailure } from './use-admin-failure.js';

/** What each activation button asks; the spec words them apart, whatever the poll's status. */
const ACTIVATE_CONFIRMATIONS: Record<ActivateButton, ConfirmRequest> = {
  'Make Active Now': {
    title: 'Make this poll active now?',
    description: 'This will override the scheduled date and deactivate the current poll.',
    confirmLabel: 'Make Active Now',
  },
  'Make Active': { title: 'Make this poll active?', description: 'This will deactivate the current poll.', confirmLabel: 'Make Active' },
};

/** The subscriber list and the e-mail outbox, at a glance. */
function MailSummary() {
  const { data } = useMailStats();
  if (!data) return null;
  const { subscribers, outbox } = data;
  return (
    <dl className="admin-mail">
      <div>
        <dt>Subscribers (confirmed)</dt>
        <dd>{subscribers.confirmed.toLocaleString('en-US')}</dd>
      </div>
      <div>
        <dt>Awaiting confirmation</dt>
        <dd>{subscribers.unconfirmed.toLocaleString('en-US')}</dd>
      </div>
      <div>
        <dt>Unsubscribed</dt>
        <dd>{subscribers.unsubscribed.toLocaleString('en-US')}</dd>
      </div>
      <div>
        <dt>E-mails queued</dt>
        <dd>{(outbox.queued + outbox.sending).toLocaleString('en-US')}</dd>
      </div>
      <div>
        <dt>Sent</dt>
        <dd>{outbox.sent.toLocaleString('en-US')}</dd>
      </div>
      <div>
        <dt>Failed</dt>
        <dd>{outbox.failed.toLocaleString('en-US')}</dd>
      </div>
      <div>
        <dt>Delivery</dt>
        <dd>{data.transport === 'smtp' ? 'Mail server' : 'Files (no SMTP_URL)'}</dd>
      </div>
    </dl>
  );
}

export function AdminPanel() {
  const polls = useAdminPolls();
  const suggestions = useSuggestions();
  const updateStatuses = useUpdatePollStatuses();
  const activate = useActivatePoll();
  const deletePoll = useDeletePoll();
  const review = useReviewSuggestion();
  const deleteSuggestion = useDeleteSuggestion();
  const signOut = useSignOut();
  const failed = useAdminFailure();
  const { confirm, dialog } = useConfirm();
  const formSection = useRef<HTMLDivElement>(null);
  const [form, setForm] = useState<{ key: number; editing: AdminPoll | null; initial: PollFormValues }>(() => ({
    key: 0,
    editing: null,
    initial: emptyPollForm(),
  }));

  /** Puts new values in the form (a fresh one: the key changes) and brings it into view. */
  function fillForm(editing: AdminPoll | null, initial: PollFormValues) {
    setForm((current) => ({ key: current.key + 1, editing, initial }));
    formSection.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
    formSection.current?.querySelector('textarea')?.focus({ preventScroll: true });
  }

  const resetForm = () => setForm((current) => ({ key: current.key + 1, editing: null, initial: emptyPollForm() }));

  const edit = (poll: AdminPoll) =>
    fillForm(poll, { question: poll.question, description: poll.description ?? '', options: poll.options, liveDate: poll.liveDate });

  function useSuggestion(suggestion: AdminSuggestion) {
    fillForm(null, {
      question: suggestion.question,
      description: 'Poll suggested by the community',
      options: suggestion.options.length >= 2 ? suggestion.options : [...suggestion.options, ''],
      liveDate: todayInSiteZone(),
    });
    toast({ title: suggestion.status === 'approved' ? 'Approved suggestion loaded!' : 'Suggestion loaded!' });
  }

  async function makeActive(poll: AdminPoll, button: ActivateButton) {
    if (await confirm(ACTIVATE_CONFIRMATIONS[button])) sendActivation(poll);
  }

  // Each send* is also what "Try again" calls: staff confirmed once already.
  function sendActivation(poll: AdminPoll) {
    activate.mutate(poll.id, {
      onSuccess: ({ message }) => toast({ title: message }),
      onError: (error) => failed('Failed to make poll active', error, { retry: () => sendActivation(poll) }),
    });
  }

  async function remove(poll: AdminPoll) {
    const yes = await confirm({ title: `Delete poll #${poll.pollNumber}?`, description: 'This action cannot be undone.', confirmLabel: 'Delete' });
    if (!yes) return;
    if (form.editing?.id === poll.id) resetForm();
    sendDeletion(poll);
  }

  function sendDeletion(poll: AdminPoll) {
    deletePoll.mutate(poll.id, {
      onSuccess: ({ message }) => toast({ title: message }),
      onError: (error) => failed('Failed to delete poll', error, { retry: () => sendDeletion(poll) }),
    });
  }

  function reviewSuggestion(suggestion: AdminSuggestion, status: 'approved' | 'rejected') {
    review.mutate(
      { id: suggestion.id, status },
      {
        onSuccess: ({ message }) => toast({ title: message }),
        onError: (error) =>
          failed('Error', error, {
            description: status === 'approved' ? 'Failed to approve suggestion.' : 'Failed to reject suggestion.',
            retry: () => reviewSuggestion(suggestion, status),
          }),
      },
    );
  }

  async function removeSuggestion(suggestion: AdminSuggestion) {
    const yes = await confirm({
      title: 'Delete this suggestion?',
      description: 'The suggestion will be deleted. This action cannot be undone.',
      confirmLabel: 'Delete',
    });
    if (yes) sendSuggestionDeletion(suggestion);
  }

  function sendSuggestionDeletion(suggestion: AdminSuggestion) {
    deleteSuggestion.mutate(suggestion.id, {
      onSuccess: ({ message }) => toast({ title: message }),
      onError: (error) =>
        failed('Error', error, { description: 'Failed to delete suggestion.', retry: () => sendSuggestionDeletion(suggestion) }),
    });
  }

  function runStatusUpdate() {
    updateStatuses.mutate(undefined, {
      onSuccess: ({ message, activatedPollId }) =>
        toast({
          title: message,
          description: activatedPollId === null ? 'No scheduled poll was due.' : 'The poll scheduled for today is now live.',
        }),
      onError: (error) => failed('Failed to update poll statuses', error, { retry: runStatusUpdate }),
    });
  }

  function logOut() {
    signOut.mutate(undefined, {
      onSuccess: () => toast({ title: 'Logged out' }),
      onSettled: () => storage.setAdminAuthenticated(false),
    });
  }

  function resetPopup() {
    storage.resetSubscriptionPopup();
    toast({ title: 'Subscription popup reset', description: 'The subscribe invitation will show after your next vote.' });
  }

  const allPolls = polls.data ?? [];
  const pollActions: PollActions = {
    onEdit: edit,
    onActivate: (p, button) => void makeActive(p, button),
    onDelete: (p) => void remove(p),
  };
  return (
    <div className="admin">
      <div className="admin__top">
        <h1>Admin Panel</h1>
        <button type="button" className="button button--secondary" onClick={logOut}>
          Logout
        </button>
      </div>
      <div className="admin__status">
        <button type="button" className="button button--primary" onClick={runStatusUpdate} disabled={updateStatuses.isPending}>
          Update Poll Status
        </button>
        <p className="admin-form__help">Puts the poll scheduled for today live now, as midnight would.</p>
      </div>
      <div ref={formSection} className="admin__form-section">
        <PollForm key={form.key} editing={form.editing} initial={form.initial} onDone={resetForm} />
      </div>
      {polls.isPending ? (
        <p role="status">Loading polls…</p>
      ) : polls.isError ? (
        <p role="alert">Failed to load polls. Please try again.</p>
      ) : (
        <UpcomingPolls polls={allPolls} {...pollActions} />
      )}
      {suggestions.isPending ? (
        <p role="status">Loading suggestions…</p>
      ) : suggestions.isError ? (
        <p role="alert">Failed to load suggestions. Please try again.</p>
      ) : (
        <SuggestionLists
          suggestions={suggestions.data}
          onUse={useSuggestion}
          onReview={reviewSuggestion}
          onDelete={(s) => void removeSuggestion(s)}
        />
      )}
      {polls.data && <AllPolls polls={allPolls} {...pollActions} />}
      <section className="admin-section card admin-utilities" aria-labelledby="utilities-heading">
        <h2 id="utilities-heading">Utilities</h2>
        <MailSummary />
        <div className="admin-item__actions">
          <button type="button" className="button button--secondary" onClick={resetPopup}>
            Reset Subscription Popup
          </button>
          <button type="button" className="button button--secondary" onClick={logOut}>
            Logout
          </button>
        </div>
      </section>
      {dialog}
    </div>
  );
}
