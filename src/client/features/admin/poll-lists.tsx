/** Upcoming Polls and All Polls, with their actions, each poll's voter e-mails and links to its own place. */
import type { ComponentType } from 'react';
import { adminPath } from '../../../shared/admin-paths.js';
import type { AdminPoll } from '../../../shared/api.js';
import { pollPath } from '../../../shared/poll-links.js';
import { daysBetween, localDateAt } from '../../../shared/time.js';
import { formatLocalDate } from '../../../shared/time-labels.js';
import { votesText } from '../../components/chart/chart-labels.js';
import { Link } from '../../lib/router.js';
import { siteClock } from '../../lib/site-config.js';
import { AdminListSection } from './admin-list-section.js';
import { useCan } from './staff-context.js';
import { VoterEmails } from './voter-emails.js';
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

/** A poll's own place in the panel, and its integrity review once it has had votes to review. */
function PollPlaceLinks({ poll, reviewable }: { poll: AdminPoll; reviewable: boolean }) {
  const at = (tab: 'poll' | 'integrity') => adminPath({ name: 'poll', pollNumber: poll.pollNumber, tab });
  return (
    <p className="admin-item__places">
      <Link to={at('poll')}>Open poll #{poll.pollNumber}</Link>
      {reviewable && (poll.status === 'active' || poll.status === 'past') && (
        <Link to={at('integrity')} aria-label={`Integrity review of poll #${poll.pollNumber}`}>
          Integrity review{poll.setAsideVotes > 0 ? ` (${votesText(poll.setAsideVotes)} set aside)` : ''}
        </Link>
      )}
    </p>
  );
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
export function ActivationButton({
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
export function DeleteButton({ poll, onDelete }: { poll: AdminPoll } & Pick<PollActions, 'onDelete'>) {
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

/** A poll's status, number, dates, options and votes, in one line. */
export function PollMeta({ poll }: { poll: AdminPoll }) {
  return (
    <p className="admin-item__meta">
      <span className={`admin-badge admin-badge--${poll.status}`}>{STATUS_LABEL[poll.status]}</span> Poll #
      {poll.pollNumber} · created {formatLocalDate(localDateAt(new Date(poll.createdAt), siteClock.timeZone))} · live{' '}
      {formatLocalDate(poll.liveDate)} · {optionCount(poll)} · {votesText(poll.totalVotes)}
      {poll.askedBefore !== null && ` · asks poll #${poll.askedBefore} again`}
    </p>
  );
}

export function AllPolls({
  polls,
  onEdit,
  onActivate,
  onDelete,
  reviewable,
}: { polls: AdminPoll[]; reviewable: boolean } & PollActions) {
  return (
    <AdminListSection title="All Polls" count={polls.length} empty="No polls yet.">
      {polls.map((poll) => (
        <li key={poll.id} className="card admin-item">
          <PollMeta poll={poll} />
          <h3 className="admin-item__question">{poll.question}</h3>
          {poll.description && <p className="admin-item__description">{poll.description}</p>}
          <div className="admin-item__actions">
            <EditButton poll={poll} onEdit={onEdit} />
            {poll.status !== 'active' && <ActivationButton poll={poll} button="Make Active" onActivate={onActivate} />}
            <DeleteButton poll={poll} onDelete={onDelete} />
            {poll.status === 'past' && (
              // The same page, and so the same group-size rule, as every visitor gets.
              <Link to={pollPath(poll.pollNumber)} className="button button--quiet">
                Results and breakdowns<span className="visually-hidden"> of poll {poll.pollNumber}</span>
              </Link>
            )}
          </div>
          <VoterEmails poll={poll} />
          <PollPlaceLinks poll={poll} reviewable={reviewable} />
        </li>
      ))}
    </AdminListSection>
  );
}
