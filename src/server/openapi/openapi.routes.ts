/** GET /openapi.json: the API document, made once from the registered routes on first request. */
import type { FastifyPluginAsync } from 'fastify';
import type { RouteCatalog } from './catalog.js';
import { openApiDocument } from './document.js';

export const openApiRoutes: FastifyPluginAsync<{ catalog: RouteCatalog }> = async (app, { catalog }) => {
  let json: string | undefined;
  app.get(
    '/openapi.json',
    {
      schema: {
        summary: 'This API document (OpenAPI 3.1)',
        description: 'Generated from the routes and their zod schemas; the same as openapi.json in the repository.',
        produces: { 200: { type: 'application/json', description: 'The OpenAPI 3.1 document.' } },
      },
    },
    async (_request, reply) => {
      json ??= JSON.stringify(openApiDocument(catalog.entries()));
      return reply.type('application/json; charset=utf-8').header('cache-control', 'public, max-age=300').send(json);
    },
  );
};
