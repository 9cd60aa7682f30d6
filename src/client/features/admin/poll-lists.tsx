/** Upcoming Polls and All Polls, with their actions and each poll's voter e-mails. */
import * as Collapsible from '@radix-ui/react-collapsible';
import { Suspense, useState, type ComponentType } from 'react';
import type { AdminPoll } from '../../../shared/api.js';
import { pollPath } from '../../../shared/poll-links.js';
import { formatCount } from '../../../shared/results.js';
import { daysBetween, formatLocalDate, localDateAt } from '../../../shared/time.js';
import { useVoterEmails, useVotesSummary, votesCsvUrl } from '../../api/admin/get-poll-votes.js';
import { votesText } from '../../components/chart/chart-labels.js';
import { Link } from '../../lib/router.js';
import { siteClock } from '../../lib/site-config.js';
import { AdminListSection } from './admin-list-section.js';
import { isRefusal } from '../../lib/api-client.js';
import { SignInForm } from './login-screen.js';
import { useCan } from './staff-context.js';
import { todayInSiteZone } from './poll-form.js';

/** The two activation buttons; each asks for confirmation in its own words (spec section 5). */
export type ActivateButton = 'Make Active Now' | 'Make Active';

/**
 * A poll's integrity review, as the page hands it in (another feature's, loaded when opened):
 * today's poll is `live`, so it keeps reading new votes.
 */
export type ReviewPanel = ComponentType<{ pollId: number; live: boolean }>;

export interface PollActions {
  onEdit: (poll: AdminPoll) => void;
  onActivate: (poll: AdminPoll, button: ActivateButton) => void;
  onDelete: (poll: AdminPoll) => void;
}

function goesLiveIn(liveDate: string): string {
  const days = daysBetween(todayInSiteZone(), liveDate);
  if (days <= 0) return 'Due now: use Update Poll Status';
  return `Goes live in ${days} ${days === 1 ? 'day' : 'days'}`;
}

/** Scheduled and missed polls, by date: a missed one waits at the top for staff to decide. */
const isUpcoming = (poll: AdminPoll) => poll.status === 'scheduled' || poll.status === 'missed';

const optionCount = (poll: AdminPoll) => `${poll.options.length} options`;

function EditButton({ poll, onEdit }: { poll: AdminPoll } & Pick<PollActions, 'onEdit'>) {
  return (
    <button type="button" className="button button--secondary" onClick={() => onEdit(poll)}>
      Edit
    </button>
  );
}

/** "Make Active Now" or "Make Active", as `button` says. */
function ActivationButton({
  poll,
  button,
  onActivate,
}: { poll: AdminPoll; button: ActivateButton } & Pick<PollActions, 'onActivate'>) {
  return (
    <button type="button" className="button button--secondary" onClick={() => onActivate(poll, button)}>
      {button}
    </button>
  );
}

/** An editor deletes only a poll nobody has voted on (held votes too); the owner, any. */
function DeleteButton({ poll, onDelete }: { poll: AdminPoll } & Pick<PollActions, 'onDelete'>) {
  const mayDeleteVoted = useCan('polls.delete-voted');
  if (!mayDeleteVoted && poll.totalVotes + poll.setAsideVotes > 0) return null;
  return (
    <button
      type="button"
      className="button button--quiet"
      aria-label={`Delete poll ${poll.pollNumber}`}
      onClick={() => onDelete(poll)}
    >
      Delete
    </button>
  );
}

export function UpcomingPolls({ polls, onEdit, onActivate, onDelete }: { polls: AdminPoll[] } & PollActions) {
  const upcoming = polls
    .filter(isUpcoming)
    .sort((a, b) => (a.liveDate < b.liveDate ? -1 : a.liveDate > b.liveDate ? 1 : 0));
  return (
    <AdminListSection title="Upcoming Polls" count={upcoming.length} empty="No polls are scheduled.">
      {upcoming.map((poll) => (
        <li key={poll.id} className="card admin-item">
          {poll.status === 'missed' ? (
            <p className="admin-item__meta">
              <span className="admin-badge admin-badge--missed">Missed</span> was due {formatLocalDate(poll.liveDate)} ·{' '}
              {optionCount(poll)}
            </p>
          ) : (
            <p className="admin-item__meta">
              <strong>{goesLiveIn(poll.liveDate)}</strong> · {formatLocalDate(poll.liveDate)} · {optionCount(poll)}
            </p>
          )}
          <h3 className="admin-item__question">{poll.question}</h3>
          {poll.status === 'missed' && (
            <p className="admin-item__description">
              Its day passed without it going live, so it will not go live by itself. Make it active now, or edit it to
              give it a new date.
            </p>
          )}
          <div className="admin-item__actions">
            <EditButton poll={poll} onEdit={onEdit} />
            <ActivationButton poll={poll} button="Make Active Now" onActivate={onActivate} />
            <DeleteButton poll={poll} onDelete={onDelete} />
          </div>
        </li>
      ))}
    </AdminListSection>
  );
}

const STATUS_LABEL = { active: 'Active', scheduled: 'Scheduled', missed: 'Missed', past: 'Past' } as const;

export function AllPolls({
  polls,
  onEdit,
  onActivate,
  onDelete,
  reviewPanel,
}: { polls: AdminPoll[]; reviewPanel?: ReviewPanel | undefined } & PollActions) {
  return (
    <AdminListSection title="All Polls" count={polls.length} empty="No polls yet.">
      {polls.map((poll) => (
        <li key={poll.id} className="card admin-item">
          <p className="admin-item__meta">
            <span className={`admin-badge admin-badge--${poll.status}`}>{STATUS_LABEL[poll.status]}</span> Poll #
            {poll.pollNumber} · created {formatLocalDate(localDateAt(new Date(poll.createdAt), siteClock.timeZone))} ·
            live {formatLocalDate(poll.liveDate)} · {optionCount(poll)} · {votesText(poll.totalVotes)}
            {poll.askedBefore !== null && ` · asks poll #${poll.askedBefore} again`}
          </p>
          <h3 className="admin-item__question">{poll.question}</h3>
          {poll.description && <p className="admin-item__description">{poll.description}</p>}
          <div className="admin-item__actions">
            <EditButton poll={poll} onEdit={onEdit} />
            {poll.status !== 'active' && <ActivationButton poll={poll} button="Make Active" onActivate={onActivate} />}
            <DeleteButton poll={poll} onDelete={onDelete} />
            {poll.status === 'past' && (
              // The same page, and so the same group-size rule, as every visitor gets.
              <Link
                to={pollPath(poll.pollNumber)}
                className="button button--quiet"
                aria-label={`Results and breakdowns of poll ${poll.pollNumber}`}
              >
                Results and breakdowns
              </Link>
            )}
          </div>
          <VoterEmails poll={poll} />
          {reviewPanel && (poll.status === 'active' || poll.status === 'past') && (
            <IntegrityReview poll={poll} panel={reviewPanel} />
          )}
        </li>
      ))}
    </AdminListSection>
  );
}

/**
 * A poll's votes for staff, fetched when opened: votes and e-mails per option, the e-mails a
 * page at a time, and every vote as CSV.
 */
function VoterEmails({ poll }: { poll: AdminPoll }) {
  const [open, setOpen] = useState(false);
  const seesEmails = useCan('votes.emails');
  const summary = useVotesSummary(poll.id, open);
  const emails = useVoterEmails(poll.id, open && seesEmails);
  const votes = emails.data?.pages.flat() ?? [];
  const signInAgain = isRefusal(emails.error, 'sign-in-again');

  return (
    <Collapsible.Root open={open} onOpenChange={setOpen} className="admin-voters">
      <Collapsible.Trigger className="admin-voters__trigger">
        Voter emails <span aria-hidden="true">{open ? '▴' : '▾'}</span>
      </Collapsible.Trigger>
      <Collapsible.Content className="admin-voters__content">
        {signInAgain ? (
          <div className="admin-reconfirm" role="alert">
            <h3>Confirm it’s you</h3>
            <SignInForm
              intro="Voter emails need a sign-in within the last 10 minutes."
              onDone={() => void emails.refetch()}
            />
          </div>
        ) : summary.isPending || (seesEmails && emails.isPending) ? (
          <p role="status">Loading voter emails…</p>
        ) : summary.isError || emails.isError ? (
          <p role="alert">Failed to fetch poll votes</p>
        ) : (
          <>
            <p>
              {formatCount(summary.data.withEmail)} of {votesText(summary.data.totalVotes)} carry an email.
            </p>
            <ul className="admin-voters__counts">
              {summary.data.options.map(({ option, votes: count, withEmail }) => (
                <li key={option}>
                  {option}: {votesText(count)}, {formatCount(withEmail)} with an email
                </li>
              ))}
            </ul>
            {votes.length > 0 && (
              <table className="admin-voters__table">
                <thead>
                  <tr>
                    <th scope="col">Email</th>
                    <th scope="col">Selected option</th>
                  </tr>
                </thead>
                <tbody>
                  {votes.map((vote) => (
                    <tr key={vote.id}>
                      <td>{vote.voterEmail}</td>
                      <td>{poll.options[vote.optionIndex]}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            <div className="admin-item__actions">
              {emails.hasNextPage && (
                <button
                  type="button"
                  className="button button--quiet"
                  disabled={emails.isFetchingNextPage}
                  onClick={() => void emails.fetchNextPage()}
                >
                  {emails.isFetchingNextPage ? 'Loading…' : 'Show more emails'}
                </button>
              )}
              {/* A plain link: the browser streams the file to disk, however many votes there are. */}
              <a className="button button--secondary" href={votesCsvUrl(poll.id)} download>
                Download CSV
              </a>
              {seesEmails && (
                <a className="button button--secondary" href={votesCsvUrl(poll.id, true)} download>
                  CSV with voter emails
                </a>
              )}
            </div>
          </>
        )}
      </Collapsible.Content>
    </Collapsible.Root>
  );
}

/** A poll's integrity review, opened on demand: the panel's code and the report load then. */
function IntegrityReview({ poll, panel: Panel }: { poll: AdminPoll; panel: ReviewPanel }) {
  const [open, setOpen] = useState(false);
  return (
    <Collapsible.Root open={open} onOpenChange={setOpen} className="admin-voters">
      <Collapsible.Trigger className="admin-voters__trigger">
        Integrity review{poll.setAsideVotes > 0 ? ` (${votesText(poll.setAsideVotes)} set aside)` : ''}{' '}
        <span aria-hidden="true">{open ? '▴' : '▾'}</span>
      </Collapsible.Trigger>
      <Collapsible.Content>
        <Suspense fallback={<p role="status">Loading the integrity review…</p>}>
          <Panel pollId={poll.id} live={poll.status === 'active'} />
        </Suspense>
      </Collapsible.Content>
    </Collapsible.Root>
  );
}
