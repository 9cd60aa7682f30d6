import type { FastifyPluginAsync } from 'fastify';
import type { Stats } from '../../shared/api.js';
import { statsRequest } from '../../shared/schemas.js';
import type { ZodTypeProvider } from '../http/validation.js';
import { readVoterId, type VoterIds } from '../voters/voter-cookie.js';
import type { StatsService } from './stats.service.js';

export const statsRoutes: FastifyPluginAsync<{ stats: StatsService; voterIds: VoterIds }> = async (
  app,
  { stats, voterIds },
) => {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get('/api/stats', async (request): Promise<Stats> =>
    stats.statsFor((await readVoterId(request, voterIds))?.id ?? null),
  );

  /** The `voterEmail` hint is validated but, as for the active poll, identity is the cookie. */
  api.post('/api/stats', { schema: { body: statsRequest } }, async (request): Promise<Stats> =>
    stats.statsFor((await readVoterId(request, voterIds))?.id ?? null),
  );
};
