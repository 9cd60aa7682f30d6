/**
 * /admin, the panel's first place: today's poll with its live count and integrity state, and
 * what needs staff: suggestions waiting, networks challenged, polls that missed their day.
 * Each part shows only for a role that may see it, and links to the place where it is handled.
 */
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { adminPath } from '../../../shared/admin-paths.js';
import type { AdminPoll, IntegrityReport } from '../../../shared/api.js';
import { formatCount } from '../../../shared/results.js';
import { adminPollsQuery } from '../../api/admin/get-admin-polls.js';
import { integrityReportQuery } from '../../api/admin/get-integrity-report.js';
import { suggestionsQuery } from '../../api/admin/suggestions.js';
import { votesText } from '../../components/chart/chart-labels.js';
import { Link } from '../../lib/router.js';
import { useCan } from './staff-context.js';

/** Today's count is read again this often while the place is open. */
const LIVE_MS = 30_000;

function IntegrityState({ poll }: { poll: AdminPoll }) {
  const report = useQuery({ ...integrityReportQuery(poll.id), refetchInterval: LIVE_MS });
  if (report.isError) return <p role="alert">The integrity review could not be loaded.</p>;
  if (!report.data) return <p role="status">Loading the integrity review…</p>;
  const { votes, bursts, challengeEveryone } = report.data;
  return (
    <p className="admin-today__integrity">
      {bursts.length === 0
        ? 'The detector has flagged no network.'
        : `${formatCount(bursts.length)} flagged ${bursts.length === 1 ? 'burst' : 'bursts'}.`}{' '}
      {formatCount(votes.held)} held, {formatCount(votes.discounted)} set aside.
      {challengeEveryone && ' Every vote is asked for a proof of work.'}{' '}
      <Link to={adminPath({ name: 'poll', pollNumber: poll.pollNumber, tab: 'integrity' })}>Integrity review</Link>
    </p>
  );
}

function ActivePoll({ polls }: { polls: AdminPoll[] }) {
  const reviews = useCan('integrity.read');
  const active = polls.find((poll) => poll.status === 'active');
  if (!active) return <p className="admin-empty">No poll is live today.</p>;
  return (
    <div className="card admin-item">
      <p className="admin-item__meta">Poll #{active.pollNumber} · live now</p>
      <h3 className="admin-item__question">
        <Link to={adminPath({ name: 'poll', pollNumber: active.pollNumber, tab: 'poll' })}>{active.question}</Link>
      </h3>
      <p className="admin-today__count" aria-live="polite">
        {votesText(active.totalVotes)} so far
      </p>
      {reviews && <IntegrityState poll={active} />}
    </div>
  );
}

/** Networks challenged on today's poll right now: its report, read for the poll's part above. */
function challenged(report: IntegrityReport | undefined): number {
  return report?.buckets.filter((bucket) => bucket.state === 'challenge').length ?? 0;
}

function NeedsAttention({ polls }: { polls: AdminPoll[] | undefined }) {
  const readsSuggestions = useCan('suggestions.read');
  const reviews = useCan('integrity.read');
  const pending = useInfiniteQuery({ ...suggestionsQuery('pending'), enabled: readsSuggestions });
  const active = polls?.find((poll) => poll.status === 'active');
  const report = useQuery({ ...integrityReportQuery(active?.id ?? 0), enabled: reviews && active !== undefined });
  const items: { key: string; node: ReactNode }[] = [];
  const waiting = pending.data?.pages.at(-1)?.total ?? 0;
  if (waiting > 0) {
    items.push({
      key: 'suggestions',
      node: (
        <Link to={adminPath({ name: 'suggestions' })}>
          {formatCount(waiting)} {waiting === 1 ? 'suggestion waits' : 'suggestions wait'} for review
        </Link>
      ),
    });
  }
  const networks = challenged(report.data);
  if (active && networks > 0) {
    items.push({
      key: 'challenges',
      node: (
        <Link to={adminPath({ name: 'poll', pollNumber: active.pollNumber, tab: 'integrity' })}>
          {formatCount(networks)} {networks === 1 ? 'network is' : 'networks are'} challenged on today’s poll
        </Link>
      ),
    });
  }
  for (const poll of polls?.filter((p) => p.status === 'missed') ?? []) {
    items.push({
      key: `missed-${poll.id}`,
      node: (
        <Link to={adminPath({ name: 'poll', pollNumber: poll.pollNumber, tab: 'poll' })}>
          Poll #{poll.pollNumber} missed its day: make it active or give it a new date
        </Link>
      ),
    });
  }
  return (
    <section className="admin-section" aria-labelledby="attention-heading">
      <h2 id="attention-heading">
        Needs attention <span className="admin-count">{items.length}</span>
      </h2>
      {items.length === 0 ? (
        <p className="admin-empty">Nothing needs attention.</p>
      ) : (
        <ul className="admin-today__attention">
          {items.map((item) => (
            <li key={item.key}>{item.node}</li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function TodayPlace({ utilities }: { utilities: ReactNode }) {
  const readsPolls = useCan('polls.read');
  const polls = useQuery({ ...adminPollsQuery, enabled: readsPolls, refetchInterval: LIVE_MS });
  return (
    <>
      {readsPolls && (
        <section className="admin-section" aria-labelledby="today-heading">
          <h2 id="today-heading">Today’s poll</h2>
          {polls.isError ? (
            <p role="alert">Failed to load polls. Please try again.</p>
          ) : polls.data ? (
            <ActivePoll polls={polls.data} />
          ) : (
            <p role="status">Loading polls…</p>
          )}
        </section>
      )}
      <NeedsAttention polls={polls.data} />
      {utilities}
    </>
  );
}
