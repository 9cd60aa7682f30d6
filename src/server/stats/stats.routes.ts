import type { FastifyPluginAsync } from 'fastify';
import type { Stats } from '../../shared/api.js';
import { statsRequest } from '../../shared/schemas.js';
import { stats } from '../../shared/schemas/poll-answers.js';
import type { ZodTypeProvider } from '../http/validation.js';
import { readVoterId, type VoterIds } from '../voters/voter-cookie.js';
import type { StatsService } from './stats.service.js';

export const statsRoutes: FastifyPluginAsync<{ stats: StatsService; voterIds: VoterIds }> = async (
  app,
  { stats: service, voterIds },
) => {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/api/stats',
    { schema: { summary: "This browser's stats: polls, its votes, its streak", response: { 200: stats } } },
    async (request): Promise<Stats> => service.statsFor((await readVoterId(request, voterIds))?.id ?? null),
  );

  /** The `voterEmail` hint is validated but, as for the active poll, identity is the cookie. */
  api.post(
    '/api/stats',
    {
      schema: {
        summary: "The same as GET (an old client's `{ voterEmail }` is ignored)",
        body: statsRequest,
        response: { 200: stats },
      },
    },
    async (request): Promise<Stats> => service.statsFor((await readVoterId(request, voterIds))?.id ?? null),
  );
};
