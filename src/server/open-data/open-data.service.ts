/**
 * Every past poll as open data: its number, date, question, options, votes and percentages, and
 * its breakdowns under the same group-size rule as the breakdown API (groups under
 * MIN_GROUP_SIZE are withheld). Read from the polls' and the groups' running tallies, so it
 * costs O(polls × options × groups) whatever the number of votes.
 */
import type { BreakdownDimension } from '../../shared/api.js';
import type { ResultItem } from '../../shared/results.js';
import { instantAt, type LocalDate } from '../../shared/time.js';
import { buildBreakdown } from '../breakdowns/breakdown.js';
import { groupTalliesOfPolls } from '../breakdowns/breakdowns.repository.js';
import { resultsOf, totalVotes } from '../polls/poll.js';
import { listPastPolls } from '../polls/polls.repository.js';
import type { ServiceDeps } from '../service-deps.js';

export interface OpenPoll {
  pollNumber: number;
  /** The day it was asked, in the site's time zone. */
  date: LocalDate;
  question: string;
  description: string | null;
  /** Its page on the site. */
  url: string;
  /** When voting on it closed (ISO 8601, UTC). */
  closedAt: string;
  options: string[];
  totalVotes: number;
  results: ResultItem[];
  /** By role, grade level, region and experience; groups under the minimum size are withheld. */
  breakdowns: BreakdownDimension[];
}

export function createOpenDataService({ db, site }: Pick<ServiceDeps, 'db' | 'site'>) {
  return {
    /** Every past poll, oldest first. */
    async pastPolls(): Promise<OpenPoll[]> {
      const polls = (await listPastPolls(db)).reverse();
      const tallies = await groupTalliesOfPolls(
        db,
        polls.map((poll) => poll.id),
      );
      return polls.map((poll) => ({
        pollNumber: poll.pollNumber,
        date: poll.liveDate,
        question: poll.question,
        description: poll.description,
        url: `${site.publicUrl}/poll-${poll.pollNumber}`,
        closedAt: instantAt(poll.liveDate, site.votingClosesAt, site.timeZone).toISOString(),
        options: poll.options.map((option) => option.label),
        totalVotes: totalVotes(poll),
        results: resultsOf(poll),
        breakdowns: buildBreakdown(poll, tallies.get(poll.id) ?? []).dimensions,
      }));
    },
  };
}

export type OpenDataService = ReturnType<typeof createOpenDataService>;
