/**
 * GET /openapi.json: the API document, made once from the registered routes on first request;
 * GET /api: the same document drawn as a page for people (api-page.ts).
 */
import type { FastifyPluginAsync } from 'fastify';
import { z } from '../../shared/zod.js';
import { sendSitePage, type SitePageSite } from '../pages/site-page.js';
import type { ZodTypeProvider } from '../http/validation.js';
import { apiPage, type ApiDocument } from './api-page.js';
import type { RouteCatalog } from './catalog.js';
import { openApiDocument } from './document.js';

const apiPageQuery = z.object({
  q: z
    .string()
    .max(200, 'A search is at most 200 characters.')
    .optional()
    .meta({ description: 'Words to narrow the calls to.' }),
});

export const openApiRoutes: FastifyPluginAsync<{ catalog: RouteCatalog; site: SitePageSite }> = async (
  app,
  { catalog, site },
) => {
  let made: { document: ApiDocument; json: string } | undefined;
  const document = () => {
    if (!made) {
      const built = openApiDocument(catalog.entries());
      made = { document: built as unknown as ApiDocument, json: JSON.stringify(built) };
    }
    return made;
  };
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/openapi.json',
    {
      schema: {
        summary: 'This API document (OpenAPI 3.1)',
        description: 'Generated from the routes and their zod schemas; the same as openapi.json in the repository.',
        produces: { 200: { type: 'application/json', description: 'The OpenAPI 3.1 document.' } },
      },
    },
    async (_request, reply) =>
      reply
        .type('application/json; charset=utf-8')
        .header('cache-control', 'public, max-age=300')
        .send(document().json),
  );
  api.get(
    '/api',
    {
      schema: {
        summary: 'This API reference, for people',
        description: 'Drawn on the server from this document; `q` narrows it to the calls matching every word.',
        querystring: apiPageQuery,
        produces: { 200: { type: 'text/html', description: 'The reference page.' } },
      },
    },
    async (request, reply) =>
      sendSitePage(reply, { site, back: null, ...apiPage(document().document, request.query.q?.trim() ?? '') }),
  );
};
