import type { FastifyPluginAsync } from 'fastify';
import type { SuggestionReceipt } from '../../shared/api.js';
import { suggestionRequest } from '../../shared/schemas.js';
import { writeRateLimit } from '../http/rate-limit.js';
import type { ZodTypeProvider } from '../http/validation.js';
import type { SuggestionsService } from './suggestions.service.js';

export const suggestionsRoutes: FastifyPluginAsync<{
  suggestions: SuggestionsService;
  writesPerMinute: number;
}> = async (app, { suggestions, writesPerMinute }) => {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    '/api/poll-suggestions',
    { schema: { body: suggestionRequest }, config: writeRateLimit(writesPerMinute) },
    async (request, reply): Promise<SuggestionReceipt> => {
      const id = await suggestions.submit(request.body);
      reply.status(201);
      return { id, message: 'Suggestion submitted!' };
    },
  );
};
