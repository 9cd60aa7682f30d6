/**
 * Under today's results. Before the close: when the breakdowns open, and the invitation to
 * describe oneself so this vote counts in them. From the close: the breakdowns themselves. In
 * both, when the question was asked before, what its last run's voters chose.
 */
import type { ActivePoll } from '../../../shared/api.js';
import BreakdownSection from '../../features/breakdown/breakdown-section.js';
import { BreakdownsOpenNote } from '../../features/breakdown/breakdowns-open-note.js';
import { ProfileInvitation } from '../../features/profile/profile-invitation.js';
import { LastTime } from '../../features/series/last-time.js';

export default function TodayResultsExtras({ poll }: { poll: ActivePoll }) {
  const lastTime = poll.series && poll.series.length > 0 && <LastTime series={poll.series} />;
  if (poll.votingOpen) {
    return (
      <>
        {lastTime}
        <BreakdownsOpenNote />
        {poll.userVoted && (
          <ProfileInvitation
            intro="Say a little about yourself so your vote counts in them."
            thanks="Thank you! Your vote will count in the breakdowns when they open."
          />
        )}
      </>
    );
  }
  return (
    <>
      {lastTime}
      <BreakdownSection
        pollId={poll.id}
        results={poll.results ?? []}
        totalVotes={poll.totalVotes}
        chosen={poll.userVoteOption}
        invitation={
          // From the close, today's counts stand still: new answers count from the next vote on.
          <ProfileInvitation
            intro="Say a little about yourself to see your group marked, and so your votes count in future breakdowns."
            thanks="Thank you! Your group is marked, and your next votes will count in the breakdowns."
          />
        }
      />
    </>
  );
}
