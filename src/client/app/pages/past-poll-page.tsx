/**
 * /poll-N: the poll's results (poll-page), then how teachers like you voted (breakdown, with
 * the "about you" invitation from profile) and, for a question asked more than once, its other
 * runs (series). Loaded on its own, like every page but today's.
 */
import BreakdownSection from '../../features/breakdown/breakdown-section.js';
import { PollPage } from '../../features/poll-page/components/poll-page.js';
import { ProfileInvitation } from '../../features/profile/profile-invitation.js';
import { AskedBefore } from '../../features/series/asked-before.js';
import './past-poll-page.css';

export default function PastPollPage({ pollNumber }: { pollNumber: number }) {
  return (
    <PollPage
      pollNumber={pollNumber}
      extras={(poll) => (
        <>
          <div className="card past-poll__more">
            <BreakdownSection
              pollId={poll.id}
              results={poll.results}
              totalVotes={poll.totalVotes}
              invitation={
                <ProfileInvitation
                  intro="Say a little about yourself to see your group marked, and so your votes count in future breakdowns."
                  thanks="Thank you! Your group is marked, and your next votes will count in the breakdowns."
                />
              }
            />
          </div>
          {poll.series.length > 0 && (
            <div className="card past-poll__more">
              <AskedBefore poll={poll} series={poll.series} />
            </div>
          )}
        </>
      )}
    />
  );
}
