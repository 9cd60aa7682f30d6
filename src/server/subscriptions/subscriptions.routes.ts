import type { FastifyPluginAsync } from 'fastify';
import type { Confirmation } from '../../shared/api.js';
import { subscribeRequest } from '../../shared/schemas.js';
import { notFound } from '../http/errors.js';
import type { ZodTypeProvider } from '../http/validation.js';
import type { SubscriptionsService } from './subscriptions.service.js';

export const subscriptionsRoutes: FastifyPluginAsync<{
  subscriptions: SubscriptionsService;
}> = async (app, { subscriptions }) => {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    '/api/subscribe',
    { schema: { body: subscribeRequest } },
    async (request): Promise<Confirmation> => {
      const outcome = await subscriptions.subscribe(request.body.email, request.body.pollId ?? undefined);
      if (outcome === 'poll-not-found') throw notFound('Poll not found');
      return { message: "Subscribed! You'll receive poll results and notifications about new polls." };
    },
  );
};
