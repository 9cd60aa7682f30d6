/**
 * Every past poll as open data: its number, date, question, options, votes and percentages, and
 * its breakdowns under the same group-size rule as the breakdown API (groups under
 * MIN_GROUP_SIZE are withheld). Read from the polls' and the groups' running tallies, so it
 * costs O(polls × options × groups) whatever the number of votes.
 */
import type { OpenPoll } from '../../shared/api.js';
import { buildBreakdown } from '../breakdowns/breakdown.js';
import { groupTalliesOfPolls } from '../breakdowns/breakdowns.repository.js';
import { toOpenPoll } from '../polls/poll.js';
import { listPastPolls } from '../polls/polls.repository.js';
import type { ServiceDeps } from '../service-deps.js';

export function createOpenDataService({ db, site }: Pick<ServiceDeps, 'db' | 'site'>) {
  return {
    /** Every past poll, oldest first. */
    async pastPolls(): Promise<OpenPoll[]> {
      const polls = (await listPastPolls(db)).reverse();
      const tallies = await groupTalliesOfPolls(
        db,
        polls.map((poll) => poll.id),
      );
      return polls.map((poll) => toOpenPoll(poll, site, buildBreakdown(poll, tallies.get(poll.id) ?? []).dimensions));
    },
  };
}

export type OpenDataService = ReturnType<typeof createOpenDataService>;
