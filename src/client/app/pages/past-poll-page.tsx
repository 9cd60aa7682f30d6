/**
 * /poll-N: the poll's results (poll-page), the staff note "What we learned" (notes), then how teachers like you voted (breakdown, with
 * the "about you" invitation from profile) and, for a question asked more than once, its other
 * runs (series). Loaded on its own, like every page but today's.
 */
import { PollPage } from '../../features/poll-page/components/poll-page.js';
import { AskedBefore } from '../../features/series/asked-before.js';
import { StaffNote } from '../../features/notes/staff-note.js';
import { ClosedPollBreakdown } from './closed-poll-breakdown.js';
import './past-poll-page.css';

export default function PastPollPage({ pollNumber }: { pollNumber: number }) {
  return (
    <PollPage
      pollNumber={pollNumber}
      extras={(poll) => (
        <>
          {poll.note && <StaffNote note={poll.note} />}
          <div className="card past-poll__more">
            <ClosedPollBreakdown
              pollId={poll.id}
              results={poll.results}
              totalVotes={poll.totalVotes}
              setAsideVotes={poll.setAsideVotes}
            />
          </div>
          {poll.series.length > 0 && (
            <div className="card past-poll__more">
              <AskedBefore poll={poll} series={poll.series} tracker={poll.tracker} />
            </div>
          )}
        </>
      )}
    />
  );
}
