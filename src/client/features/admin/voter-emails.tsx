/**
 * A poll's votes for staff, fetched when opened: votes and e-mails per option, the e-mails a
 * page at a time, and every vote as CSV.
 */
import * as Collapsible from '@radix-ui/react-collapsible';
import { useState } from 'react';
import type { AdminPoll } from '../../../shared/api.js';
import { formatCount } from '../../../shared/results.js';
import { useVoterEmails, useVotesSummary, votesCsvUrl } from '../../api/admin/get-poll-votes.js';
import { votesText } from '../../components/chart/chart-labels.js';
import { isRefusal } from '../../lib/api-client.js';
import { SignInForm } from './login-screen.js';
import { useCan } from './staff-context.js';

export function VoterEmails({ poll }: { poll: AdminPoll }) {
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
