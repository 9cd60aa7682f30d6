import type { FastifyPluginAsync } from 'fastify';
import type { SuggestionReceipt } from '../../shared/api.js';
import { suggestionRequest } from '../../shared/schemas.js';
import type { ZodTypeProvider } from '../http/validation.js';
import type { SuggestionsService } from './suggestions.service.js';

export const suggestionsRoutes: FastifyPluginAsync<{
  suggestions: SuggestionsService;
}> = async (app, { suggestions }) => {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    '/api/poll-suggestions',
    { schema: { body: suggestionRequest } },
    async (request, reply): Promise<SuggestionReceipt> => {
      const id = await suggestions.submit(request.body);
      reply.status(201);
      return { id, message: 'Suggestion submitted!' };
    },
  );
};
