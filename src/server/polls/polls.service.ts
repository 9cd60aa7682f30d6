/** What visitors may see of polls: today's (results only after voting or closing) and past ones. */
import type { ActivePoll, PastPoll, Poll, PollResults } from '../../shared/api.js';
import { resultItems } from '../../shared/results.js';
import { votingDayAt } from '../../shared/time.js';
import type { ServiceDeps } from '../service-deps.js';
import { findVoterChoice } from '../votes/votes.repository.js';
import { findPollByNumber, listPastPolls, type PollRecord } from './polls.repository.js';

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

export const totalOf = (record: PollRecord) => record.options.reduce((sum, option) => sum + option.votes, 0);

export const resultsOf = (record: PollRecord) =>
  resultItems(
    record.options.map((option) => option.label),
    record.options.map((option) => option.votes),
  );

export function createPollsService({ db, clock, site, activePoll, voterChoices }: ServiceDeps) {
  /** The answers written for each reading of the active poll; they go when the reading goes. */
  const serialized = new WeakMap<PollRecord, Map<string, string>>();

  /** This voter's choice on the poll: remembered if seen before, else looked up. */
  async function choiceOf(pollId: number, voterId: string | null) {
    if (voterId === null) return undefined;
    const remembered = voterChoices.get(pollId, voterId);
    if (remembered) return remembered;
    const found = await findVoterChoice(db, pollId, voterId);
    if (found) voterChoices.remember(pollId, voterId, found.optionIndex, found.votedAt);
    return found;
  }

  return {
    /**
     * Today's poll for this visitor, as JSON. The per-option results stay hidden until the
     * visitor has voted or voting has closed, so nobody is swayed by peeking; the total may
     * show. Every visitor sees one of a handful of answers (no vote yet, or voted for option
     * n), so each is written once per reading of the poll and then reused.
     */
    async activePollJson(voterId: string | null): Promise<string> {
      let poll = await activePoll.get();
      if (!poll) return 'null';
      const choice = await choiceOf(poll.id, voterId);
      // The visitor must see their own vote: read again if the copy might predate it.
      if (choice) poll = await activePoll.get(choice.votedAt);
      if (!poll) return 'null';
      const day = votingDayAt(clock.now(), site);
      const key = `${choice?.optionIndex ?? '-'}|${day.closesAt.getTime()}|${day.votingOpen}`;
      let answers = serialized.get(poll);
      if (!answers) serialized.set(poll, (answers = new Map<string, string>()));
      let json = answers.get(key);
      if (json === undefined) {
        const userVoted = choice !== undefined;
        json = JSON.stringify({
          ...toPoll(poll),
          userVoted,
          userVoteOption: choice?.optionIndex ?? null,
          totalVotes: totalOf(poll),
          results: userVoted || !day.votingOpen ? resultsOf(poll) : null,
          votingOpen: day.votingOpen,
          closesAt: day.closesAt.toISOString(),
        } satisfies ActivePoll);
        answers.set(key, json);
      }
      return json;
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
