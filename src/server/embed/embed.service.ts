/**
 * What an embed shows: today's question with a link per option to vote on the site (never its
 * results while voting is open: no peeking), or a poll's results once it has closed. The same
 * views serve the print sheet.
 */
import { formatClockTime, formatLocalDate, votingDayAt } from '../../shared/time.js';
import type { ResultItem } from '../../shared/results.js';
import { resultsOf, totalVotes, type PollRecord } from '../polls/poll.js';
import { findPollByNumber } from '../polls/polls.repository.js';
import type { ServiceDeps } from '../service-deps.js';

interface PollView {
  pollNumber: number;
  question: string;
  description: string | null;
  /** "November 21, 2026" */
  date: string;
  /** The poll's page on the site. */
  pollUrl: string;
}

export type EmbedView =
  | (PollView & {
      kind: 'vote';
      options: string[];
      /** Where each option's link goes: the site, with that option picked. */
      voteUrls: string[];
      /** "8:00 PM" */
      closesAt: string;
    })
  | (PollView & {
      kind: 'results';
      results: ResultItem[];
      totalVotes: number;
      /** False for today's poll after the close (it is still today's). */
      past: boolean;
    });

export function createEmbedService({
  db,
  clock,
  site,
  activePoll,
}: Pick<ServiceDeps, 'db' | 'clock' | 'site' | 'activePoll'>) {
  const pollUrl = (poll: PollRecord) => `${site.publicUrl}/poll-${poll.pollNumber}`;

  function viewOf(poll: PollRecord): EmbedView {
    const base = {
      pollNumber: poll.pollNumber,
      question: poll.question,
      description: poll.description,
      date: formatLocalDate(poll.liveDate),
      pollUrl: pollUrl(poll),
    };
    if (poll.status === 'active' && votingDayAt(clock.now(), site).votingOpen) {
      return {
        ...base,
        kind: 'vote',
        options: poll.options.map((option) => option.label),
        // The poll's number travels with the pick, so a stale embed never preselects on another poll.
        voteUrls: poll.options.map((_, index) => `${site.publicUrl}/?vote=${index}&poll=${poll.pollNumber}`),
        closesAt: formatClockTime(site.votingClosesAt),
      };
    }
    return {
      ...base,
      kind: 'results',
      results: resultsOf(poll),
      totalVotes: totalVotes(poll),
      past: poll.status === 'past',
    };
  }

  return {
    /** Today's poll, or undefined when there is none. */
    async today(): Promise<EmbedView | undefined> {
      const poll = await activePoll.get();
      return poll && viewOf(poll);
    },

    /** Poll N if it has gone live (today's or past); undefined for scheduled and unknown numbers. */
    async poll(pollNumber: number): Promise<EmbedView | undefined> {
      const poll = await findPollByNumber(db, pollNumber);
      if (!poll || poll.status === 'scheduled') return undefined;
      // Today's poll comes from the shared copy, as on the site.
      return viewOf(poll.status === 'active' ? ((await activePoll.get()) ?? poll) : poll);
    },
  };
}

export type EmbedService = ReturnType<typeof createEmbedService>;
