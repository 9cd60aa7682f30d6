/**
 * The embeds: GET /embed/today and /embed/poll-N, the only pages any site may frame, and the
 * oEmbed answer that tells other sites how to embed a page of this one.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { z } from '../../shared/zod.js';
import { TODAY_EMBED_PATH } from '../../shared/embed.js';
import { pollEmbed } from '../../shared/poll-links.js';
import type { Site } from '../config.js';
import { HttpError, notFound } from '../http/errors.js';
import { sendWithEtag } from '../http/etag.js';
import type { ZodTypeProvider } from '../http/validation.js';
import type { EmbedView } from '../polls/poll.js';
import { embedCsp, renderEmbed, renderNoPoll } from './embed-page.js';
import type { EmbedService } from './embed.service.js';
import { embedFor, oembedAnswer } from './oembed.js';

const dimension = (name: string) =>
  z.coerce
    .number({ error: `${name} must be a whole number of pixels.` })
    .int(`${name} must be a whole number of pixels.`)
    .min(1, `${name} must be at least 1.`)
    .max(10_000, `${name} must be at most 10000.`)
    .optional();

const oembedQuery = z.object({
  url: z
    .string({ error: 'Give the address of the page to embed as url.' })
    .min(1, 'Give the address of the page to embed as url.')
    .max(2000, 'The url is too long.'),
  format: z.string().max(20).optional(),
  maxwidth: dimension('maxwidth'),
  maxheight: dimension('maxheight'),
});

export const embedRoutes: FastifyPluginAsync<{
  embeds: EmbedService;
  site: Pick<Site, 'siteName' | 'publicUrl'>;
  https: boolean;
}> = async (app, { embeds, site, https }) => {
  const csp = embedCsp(https);

  function sendEmbed(request: FastifyRequest, reply: FastifyReply, view: EmbedView | undefined, status = 200) {
    // helmet's X-Frame-Options would forbid framing whatever the CSP says.
    reply
      .removeHeader('x-frame-options')
      .header('content-security-policy', csp)
      .header('cross-origin-resource-policy', 'cross-origin');
    const body = view ? renderEmbed(view, site) : renderNoPoll(site);
    if (status !== 200)
      return reply.status(status).header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(body);
    // Votes change the results, the close and midnight change the view: browsers ask again, cheaply.
    return sendWithEtag(request, reply, { body, type: 'text/html; charset=utf-8' });
  }

  app.get(TODAY_EMBED_PATH, async (request, reply) => sendEmbed(request, reply, await embeds.today()));

  app.get('/embed/poll-:number', async (request, reply) => {
    const number = pollEmbed.parse(request.url.split('?')[0] ?? '');
    const view = number === null ? undefined : await embeds.poll(number);
    if (!view) return sendEmbed(request, reply, undefined, 404);
    return sendEmbed(request, reply, view);
  });

  app
    .withTypeProvider<ZodTypeProvider>()
    .get('/oembed', { schema: { querystring: oembedQuery } }, async (request, reply) => {
      const { url, format, maxwidth, maxheight } = request.query;
      if (format !== undefined && format !== 'json') {
        // oEmbed's own rule for a format the provider does not offer.
        throw new HttpError(501, 'not-implemented', 'Only format=json is offered.');
      }
      const embed = embedFor(url, site.publicUrl);
      if (!embed)
        throw notFound(
          `There is nothing to embed at ${url.slice(0, 200)}: give the address of ${site.publicUrl}/ or of a poll's page.`,
        );
      const view = embed.pollNumber === null ? await embeds.today() : await embeds.poll(embed.pollNumber);
      if (!view) throw notFound('There is no such poll to embed.');
      const optionCount = view.kind === 'vote' ? view.options.length : view.results.length;
      reply.header('access-control-allow-origin', '*');
      return oembedAnswer({
        ...site,
        embedPath: embed.path,
        question: view.question,
        optionCount,
        maxWidth: maxwidth,
        maxHeight: maxheight,
      });
    });
};
