/**
 * Under today's results. Before the close: when the breakdowns open, and the invitation to
 * describe oneself so this vote counts in them. From the close: the breakdowns themselves. In
 * both, when the question was asked before, what its last run's voters chose.
 */
import type { ActivePoll } from '../../../shared/api.js';
import { BreakdownsOpenNote } from '../../features/breakdown/breakdowns-open-note.js';
import { ProfileInvitation } from '../../features/profile/profile-invitation.js';
import { LastTime } from '../../features/series/last-time.js';
import { ClosedPollBreakdown } from './closed-poll-breakdown.js';

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
      <ClosedPollBreakdown
        pollId={poll.id}
        results={poll.results ?? []}
        totalVotes={poll.totalVotes}
        setAsideVotes={poll.setAsideVotes ?? 0}
        chosen={poll.userVoteOption}
      />
    </>
  );
}
