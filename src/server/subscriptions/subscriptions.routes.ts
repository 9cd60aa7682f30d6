import type { FastifyPluginAsync } from 'fastify';
import type { Confirmation } from '../../shared/api.js';
import { subscribeRequest } from '../../shared/schemas.js';
import { notFound, tooManyRequests } from '../http/errors.js';
import { confirmation } from '../../shared/schemas/poll-answers.js';
import type { ZodTypeProvider } from '../http/validation.js';
import { reportTo } from '../http/limit-headers.js';
import type { SubscriptionsService } from './subscriptions.service.js';

export const SUBSCRIBE_CONFIRMATION = 'Check your inbox and confirm your subscription to start receiving poll results.';

export const subscriptionsRoutes: FastifyPluginAsync<{
  subscriptions: SubscriptionsService;
}> = async (app, { subscriptions }) => {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    '/api/subscribe',
    {
      schema: {
        summary: 'Ask an address to confirm a subscription',
        description: 'The same answer whoever is on the list.',
        body: subscribeRequest,
        response: { 200: confirmation },
      },
      config: { limits: ['subscribe'] },
    },
    async (request): Promise<Confirmation> => {
      const { email, pollId, frequency } = request.body;
      const outcome = await subscriptions.subscribe(
        email,
        pollId ?? undefined,
        request.ip,
        frequency,
        reportTo(request),
      );
      if (outcome === 'poll-not-found') throw notFound('Poll not found');
      if (outcome === 'rate-limited') {
        throw tooManyRequests('Too many new subscriptions from your network in the last hour. Please try again later.');
      }
      return { message: SUBSCRIBE_CONFIRMATION };
    },
  );
};
