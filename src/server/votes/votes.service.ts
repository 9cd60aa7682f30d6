/** The rules of voting: when a vote counts, and when an e-mail may be attached to it. */
import { localDateAt, votingDayAt } from '../../shared/time.js';
import { addVoteToTally, findVotingTarget } from '../polls/polls.repository.js';
import type { ServiceDeps } from '../site.js';
import { attachEmailToVote, insertVoteIfNew, isEmailUsedOnPoll } from './votes.repository.js';

export type VoteOutcome =
  | 'counted'
  | 'poll-not-found'
  | 'poll-not-open'
  | 'voting-closed'
  | 'no-such-option'
  | 'already-voted'
  | 'email-already-voted';

export type AttachEmailOutcome = 'attached' | 'poll-not-found' | 'no-vote' | 'email-already-voted';

export interface Ballot {
  optionIndex: number;
  /** Attached exactly as update-vote would attach it. */
  voterEmail: string | undefined;
}

export function createVotesService({ db, clock, site }: ServiceDeps) {
  return {
    async castVote(pollId: number, voterId: string, ballot: Ballot): Promise<VoteOutcome> {
      const now = clock.now();
      const poll = await findVotingTarget(db, pollId);
      if (!poll) return 'poll-not-found';
      if (poll.status !== 'active') return 'poll-not-open';
      if (!votingDayAt(now, site).votingOpen) return 'voting-closed';
      if (ballot.optionIndex >= poll.optionCount) return 'no-such-option';

      const counted = await db.transaction().execute(async (trx) => {
        const inserted = await insertVoteIfNew(trx, {
          pollId,
          voterId,
          optionIndex: ballot.optionIndex,
          voterEmail: ballot.voterEmail ?? null,
          votedOn: localDateAt(now, site.timeZone),
          createdAt: now.toISOString(),
        });
        if (inserted) await addVoteToTally(trx, pollId, ballot.optionIndex);
        return inserted;
      });
      if (counted) return 'counted';
      // Either this browser voted already, or the e-mail is on another browser's vote.
      const emailUsed = ballot.voterEmail !== undefined && (await isEmailUsedOnPoll(db, pollId, ballot.voterEmail));
      return emailUsed ? 'email-already-voted' : 'already-voted';
    },

    async attachEmail(pollId: number, voterId: string | null, email: string): Promise<AttachEmailOutcome> {
      const poll = await findVotingTarget(db, pollId);
      if (!poll) return 'poll-not-found';
      if (voterId === null) return 'no-vote';
      const outcome = await attachEmailToVote(db, pollId, voterId, email);
      return outcome === 'email-taken' ? 'email-already-voted' : outcome;
    },
  };
}

export type VotesService = ReturnType<typeof createVotesService>;
