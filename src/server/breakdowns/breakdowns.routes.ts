import type { FastifyPluginAsync } from 'fastify';
import { pollIdParams } from '../../shared/schemas.js';
import { closeTimeLabel } from '../../shared/time-labels.js';
import type { Site } from '../config.js';
import { forbidden, notFound } from '../http/errors.js';
import { breakdown } from '../../shared/schemas/poll-answers.js';
import { sendJsonText, type ZodTypeProvider } from '../http/validation.js';
import type { BreakdownsService } from './breakdowns.service.js';

export const breakdownsRoutes: FastifyPluginAsync<{
  breakdowns: BreakdownsService;
  site: Pick<Site, 'votingClosesAt' | 'timeZone'>;
}> = async (app, { breakdowns, site }) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const notYet = `Breakdowns by role, grade and region open when voting closes at ${closeTimeLabel(site)}.`;

  api.get(
    '/api/polls/:id/breakdown',
    {
      schema: {
        summary: "A closed poll's results by role, grade level, region and experience",
        description:
          'Once voting has closed (403 before): groups under 10 votes withheld, every count a multiple of `roundedTo`, drawn once when the breakdown is first published and kept; a later staff change sets `correction`.',
        params: pollIdParams,
        response: { 200: breakdown },
      },
    },
    async (request, reply) => {
      const result = await breakdowns.breakdown(request.params.id);
      if (result.outcome === 'shown') return sendJsonText(reply, result.json);
      throw result.outcome === 'not-found' ? notFound('Poll not found') : forbidden(notYet);
    },
  );
};
