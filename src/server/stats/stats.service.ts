import type { Stats } from '../../shared/api.js';
import { localDateAt } from '../../shared/time.js';
import { countLivePolls } from '../polls/polls.repository.js';
import type { ServiceDeps } from '../service-deps.js';
import { votesPerDay } from '../votes/votes.repository.js';
import { streakLength } from './streak.js';

export function createStatsService({ db, clock, site }: ServiceDeps) {
  return {
    async statsFor(voterId: string | null): Promise<Stats> {
      const totalPolls = await countLivePolls(db);
      if (voterId === null) return { totalPolls, totalVotes: 0, streak: 0 };
      const days = await votesPerDay(db, voterId);
      return {
        totalPolls,
        totalVotes: days.reduce((sum, day) => sum + day.votes, 0),
        streak: streakLength(
          days.map((day) => day.day),
          localDateAt(clock.now(), site.timeZone),
        ),
      };
    },
  };
}

export type StatsService = ReturnType<typeof createStatsService>;
