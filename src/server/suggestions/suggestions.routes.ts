import type { FastifyPluginAsync } from 'fastify';
import type { SuggestionReceipt } from '../../shared/api.js';
import { suggestionRequest } from '../../shared/schemas.js';
import { badRequest, tooManyRequests } from '../http/errors.js';
import { suggestionReceipt } from '../../shared/schemas/poll-answers.js';
import type { ZodTypeProvider } from '../http/validation.js';
import { reportTo } from '../http/limit-headers.js';
import type { SuggestionsService } from './suggestions.service.js';

export const suggestionsRoutes: FastifyPluginAsync<{
  suggestions: SuggestionsService;
}> = async (app, { suggestions }) => {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    '/api/poll-suggestions',
    {
      schema: { summary: 'Suggest a poll', body: suggestionRequest, response: { 201: suggestionReceipt } },
      config: { limits: ['suggest'] },
    },
    async (request, reply): Promise<SuggestionReceipt> => {
      const result = await suggestions.submit(request.body, request.ip, reportTo(request));
      if (result.outcome === 'rate-limited') {
        reply.header('retry-after', String(Math.ceil(result.retryAfterMs / 1000)));
        throw tooManyRequests('Too many suggestions from your network in the last hour. Please try again later.');
      }
      if (result.outcome === 'topic-unknown') throw badRequest('There is no such topic.');
      reply.status(201);
      return { id: result.id, message: 'Suggestion submitted!' };
    },
  );
};
