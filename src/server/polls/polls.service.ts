/** What visitors may see of polls: today's (results only after voting or closing) and past ones. */
import type { ActivePoll, PastPoll, Poll, PollResults } from '../../shared/api.js';
import { resultItems } from '../../shared/results.js';
import { votingDayAt } from '../../shared/time.js';
import type { ServiceDeps } from '../site.js';
import { findVoterChoice } from '../votes/votes.repository.js';
import { findActivePoll, findPollByNumber, listPastPolls, type PollRecord } from './polls.repository.js';

export function toPoll(record: PollRecord): Poll {
  return {
    id: record.id,
    pollNumber: record.pollNumber,
    question: record.question,
    description: record.description,
    options: record.options.map((option) => option.label),
    liveDate: record.liveDate,
    createdAt: record.createdAt,
    isActive: record.status === 'active',
  };
}

const totalOf = (record: PollRecord) => record.options.reduce((sum, option) => sum + option.votes, 0);

const resultsOf = (record: PollRecord) =>
  resultItems(
    record.options.map((option) => option.label),
    record.options.map((option) => option.votes),
  );

export function createPollsService({ db, clock, site }: ServiceDeps) {
  return {
    /**
     * Today's poll for this visitor. The per-option results stay hidden until the visitor has
     * voted or voting has closed, so nobody is swayed by peeking; the total may show.
     */
    async activePoll(voterId: string | null): Promise<ActivePoll | null> {
      const poll = await findActivePoll(db);
      if (!poll) return null;
      const choice = voterId === null ? undefined : await findVoterChoice(db, poll.id, voterId);
      const day = votingDayAt(clock.now(), site);
      const userVoted = choice !== undefined;
      return {
        ...toPoll(poll),
        userVoted,
        userVoteOption: choice?.optionIndex ?? null,
        totalVotes: totalOf(poll),
        results: userVoted || !day.votingOpen ? resultsOf(poll) : null,
        votingOpen: day.votingOpen,
        closesAt: day.closesAt.toISOString(),
      };
    },

    async pastPolls(): Promise<PastPoll[]> {
      const polls = await listPastPolls(db);
      return polls.map((poll) => ({ ...toPoll(poll), totalVotes: totalOf(poll) }));
    },

    /** Final results of a past poll. Today's and scheduled polls are not past: undefined. */
    async pastPollResults(pollNumber: number): Promise<PollResults | undefined> {
      const poll = await findPollByNumber(db, pollNumber);
      if (!poll || poll.status !== 'past') return undefined;
      return {
        id: poll.id,
        pollNumber: poll.pollNumber,
        question: poll.question,
        description: poll.description,
        options: poll.options.map((option) => option.label),
        liveDate: poll.liveDate,
        results: resultsOf(poll),
        totalVotes: totalOf(poll),
      };
    },
  };
}

export type PollsService = ReturnType<typeof createPollsService>;
