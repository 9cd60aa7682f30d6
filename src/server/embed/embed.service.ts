/**
 * What an embed shows: today's question with a link per option to vote on the site (never its
 * results while voting is open: no peeking), or a poll's results once it has closed. The same
 * views serve the print sheet; polls/poll.ts maps a poll to one (toEmbedView).
 */
import { votingDayAt } from '../../shared/time.js';
import { toEmbedView, type EmbedView, type PollRecord } from '../polls/poll.js';
import { findPollByNumber } from '../polls/polls.repository.js';
import type { ServiceDeps } from '../service-deps.js';
import { createWeightingService } from '../weighting/weighted.service.js';

export function createEmbedService({
  db,
  clock,
  site,
  activePoll,
}: Pick<ServiceDeps, 'db' | 'clock' | 'site' | 'activePoll'>) {
  const weighting = createWeightingService({ db, clock });
  const viewOf = (poll: PollRecord): Promise<EmbedView> =>
    toEmbedView(poll, site, votingDayAt(clock.now(), site).votingOpen, (closed) => weighting.ofPoll(closed));

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
