/**
 * /admin/polls/N: one poll. Its tab "Poll" holds what staff do to it (make active, delete,
 * edit) and its votes with their export; its tab "Integrity review" (/admin/polls/N/integrity)
 * the review, whose code loads only there.
 */
import { Suspense, useState } from 'react';
import { adminPath } from '../../../shared/admin-paths.js';
import type { AdminPoll } from '../../../shared/api.js';
import { useAdminPolls } from '../../api/admin/get-admin-polls.js';
import { Link } from '../../lib/router.js';
import { ActivationButton, DeleteButton, PollMeta, type PollActions, type ReviewPanel } from './poll-lists.js';
import { PollForm } from './poll-form.js';
import { useCan } from './staff-context.js';
import { VoterEmails } from './voter-emails.js';
import { NoteEditor } from './note-editor.js';

type Tab = 'poll' | 'integrity';

function Tabs({ poll, tab }: { poll: AdminPoll; tab: Tab }) {
  const reviews = useCan('integrity.read');
  const tabs: [Tab, string][] = [['poll', 'Poll']];
  if (reviews) tabs.push(['integrity', 'Integrity review']);
  return (
    <nav className="admin-tabs" aria-label={`Poll #${poll.pollNumber}`}>
      {tabs.map(([name, label]) => (
        <Link
          key={name}
          to={adminPath({ name: 'poll', pollNumber: poll.pollNumber, tab: name })}
          className="admin-tabs__tab"
          aria-current={name === tab ? 'page' : undefined}
        >
          {label}
        </Link>
      ))}
    </nav>
  );
}

/** Edit, make active, delete; then the votes. The form starts again from the saved poll after each save. */
function PollTab({ poll, actions }: { poll: AdminPoll; actions: PollActions }) {
  const writes = useCan('polls.write');
  const [saves, setSaves] = useState(0);
  return (
    <>
      {writes && (
        <div className="admin-item__actions">
          {poll.status !== 'active' && (
            <ActivationButton poll={poll} button="Make Active" onActivate={actions.onActivate} />
          )}
          <DeleteButton poll={poll} onDelete={actions.onDelete} />
        </div>
      )}
      <VoterEmails poll={poll} />
      {writes && <NoteEditor poll={poll} />}
      {writes && (
        <PollForm
          key={`${poll.id}-${saves}`}
          editing={poll}
          initial={pollFormValues(poll)}
          onDone={() => setSaves((n) => n + 1)}
        />
      )}
    </>
  );
}

export const pollFormValues = (poll: AdminPoll) => ({
  question: poll.question,
  description: poll.description ?? '',
  options: poll.options,
  liveDate: poll.liveDate,
  askedBefore: poll.askedBefore === null ? '' : String(poll.askedBefore),
  topics: (poll.topics ?? []).map((topic) => topic.slug),
});

export function PollPlace({
  pollNumber,
  tab,
  actions,
  reviewPanel: Review,
}: {
  pollNumber: number;
  tab: Tab;
  actions: PollActions;
  reviewPanel: ReviewPanel | undefined;
}) {
  const polls = useAdminPolls();
  const poll = polls.data?.find((p) => p.pollNumber === pollNumber);
  if (polls.isError) return <p role="alert">Failed to load polls. Please try again.</p>;
  if (!polls.data) return <p role="status">Loading polls…</p>;
  if (!poll) {
    return (
      <section className="admin-section" aria-labelledby="poll-heading">
        <h2 id="poll-heading">Poll #{pollNumber}</h2>
        <p className="admin-empty">
          There is no poll #{pollNumber}. <Link to={adminPath({ name: 'polls' })}>All polls</Link>
        </p>
      </section>
    );
  }
  return (
    <section className="admin-section admin-poll" aria-labelledby="poll-heading">
      <h2 id="poll-heading" className="admin-poll__question">
        {poll.question}
      </h2>
      <PollMeta poll={poll} />
      {poll.description && <p className="admin-item__description">{poll.description}</p>}
      <Tabs poll={poll} tab={tab} />
      {tab === 'integrity' && Review ? (
        <Suspense fallback={<p role="status">Loading the integrity review…</p>}>
          <Review pollId={poll.id} live={poll.status === 'active'} />
        </Suspense>
      ) : (
        <PollTab poll={poll} actions={actions} />
      )}
    </section>
  );
}
