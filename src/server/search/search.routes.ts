/**
 * Search (issue 39, item 2): GET /search, the page (a GET form and its results, written by the
 * server), and GET /api/search, the same results as JSON (SearchResults). Bad input is a 400
 * that says why (JSON for the API, the page with the form for people), never a 500.
 */
import { searchResults } from '../../shared/schemas/topic-answers.js';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { SearchResults } from '../../shared/api.js';
import { searchQuery } from '../../shared/topics.js';
import { badRequest, HttpError } from '../http/errors.js';
import { sendSitePage, type SitePageSite } from '../pages/site-page.js';
import { refusedSearchPage, searchPage } from './search-page.js';
import type { SearchService } from './search.service.js';

const NO_SUCH_TOPIC = 'There is no such topic.';

/** The query read, or the sentence saying why it cannot be. */
function readQuery(request: FastifyRequest) {
  const parsed = searchQuery.safeParse(request.query ?? {});
  if (parsed.success) return { query: parsed.data };
  return { refusal: parsed.error.issues[0]?.message ?? 'This search cannot be read.' };
}

/** The raw words, for showing the form again; whatever shape the address gave them. */
const rawWords = (request: FastifyRequest) => {
  const q = (request.query as Record<string, unknown> | undefined)?.q;
  return typeof q === 'string' ? q : '';
};

export const searchRoutes: FastifyPluginAsync<{ search: SearchService; site: SitePageSite }> = async (
  app,
  { search, site },
) => {
  app.get(
    '/api/search',
    { schema: { summary: 'Past polls matching the words, best first', response: { 200: searchResults } } },
    async (request, reply): Promise<SearchResults> => {
      const { query, refusal } = readQuery(request);
      if (!query) throw badRequest(refusal);
      const found = await search.search(query);
      if (!found) throw badRequest(NO_SUCH_TOPIC);
      reply.header('cache-control', 'no-cache');
      return found;
    },
  );

  app.get('/search', async (request, reply) => {
    const { query, refusal } = readQuery(request);
    const choices = await search.choices();
    if (!query) return sendSitePage(reply, { site, ...refusedSearchPage(400, refusal, rawWords(request), choices) });
    let found: SearchResults | undefined;
    try {
      found = await search.search(query);
    } catch (error) {
      if (!(error instanceof HttpError) || error.statusCode !== 503) throw error;
      reply.header('retry-after', '5');
      const busy = 'Too many searches right now. Please try again in a moment.';
      return sendSitePage(reply, { site, ...refusedSearchPage(503, busy, query.q, choices) });
    }
    if (!found) return sendSitePage(reply, { site, ...refusedSearchPage(400, NO_SUCH_TOPIC, query.q, choices) });
    return sendSitePage(reply, { site, ...searchPage(query, found, choices) });
  });
};
