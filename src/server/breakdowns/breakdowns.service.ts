/**
 * Who may see a poll's breakdown, and when. Never while votes can still arrive: someone
 * watching a live breakdown could see a colleague's vote land in their small group. So a past
 * poll's breakdown is open, today's opens at the close time, and a scheduled one does not exist.
 */
import type { Breakdown } from '../../shared/api.js';
import { votingDayAt } from '../../shared/time.js';
import { findPollById } from '../polls/polls.repository.js';
import type { ServiceDeps } from '../service-deps.js';
import { buildBreakdown } from './breakdown.js';
import { groupTallies } from './breakdowns.repository.js';
import { createWeightingService } from '../weighting/weighted.service.js';

export type BreakdownOutcome = { outcome: 'shown'; breakdown: Breakdown } | { outcome: 'not-found' | 'not-yet' };

export function createBreakdownsService({ db, clock, site }: Pick<ServiceDeps, 'db' | 'clock' | 'site'>) {
  const weighting = createWeightingService({ db, clock });
  return {
    async breakdown(pollId: number): Promise<BreakdownOutcome> {
      const poll = await findPollById(db, pollId);
      if (!poll || poll.status === 'scheduled') return { outcome: 'not-found' };
      if (poll.status === 'active' && votingDayAt(clock.now(), site).votingOpen) return { outcome: 'not-yet' };
      const breakdown = buildBreakdown(poll, await groupTallies(db, pollId));
      // The groups shown (k >= 10) each with their weighted line, under the group gates.
      return {
        outcome: 'shown',
        breakdown: { ...breakdown, dimensions: await weighting.ofGroups(poll, breakdown.dimensions) },
      };
    },
  };
}

export type BreakdownsService = ReturnType<typeof createBreakdownsService>;
