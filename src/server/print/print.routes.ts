/**
 * GET /poll-N/print, the staff-room sheet, and GET /qr/poll-N.svg, the QR code to a poll's page
 * (the share overlay shows it). Both for polls that have gone live only.
 */
import type { FastifyPluginAsync } from 'fastify';
import { pollQrCode, pollUrlOf, printSheet, type PollAddress } from '../../shared/poll-links.js';
import type { Site } from '../config.js';
import type { EmbedService } from '../embed/embed.service.js';
import { notFound } from '../http/errors.js';
import { sendWithEtag } from '../http/etag.js';
import { renderPrintSheet, printCsp } from './print-page.js';
import { qrSvg } from './qr-code.js';

const NO_SUCH_POLL = 'There is no such poll.';

const numberIn = (address: PollAddress, url: string) => address.parse(url.split('?')[0] ?? '');

export const printRoutes: FastifyPluginAsync<{
  embeds: EmbedService;
  site: Pick<Site, 'siteName' | 'publicUrl'>;
  https: boolean;
}> = async (app, { embeds, site, https }) => {
  app.get('/poll-:number/print', async (request, reply) => {
    const number = numberIn(printSheet, request.url);
    const view = number === null ? undefined : await embeds.poll(number);
    if (!view) throw notFound(NO_SUCH_POLL);
    reply.header('content-security-policy', printCsp(https));
    const body = renderPrintSheet(view, await qrSvg(view.pollUrl), site);
    return sendWithEtag(request, reply, { body, type: 'text/html; charset=utf-8' });
  });

  app.get('/qr/poll-:file', async (request, reply) => {
    const number = numberIn(pollQrCode, request.url);
    if (number === null || !(await embeds.poll(number))) throw notFound(NO_SUCH_POLL);
    // The poll's address never changes: neither does its code.
    return sendWithEtag(request, reply, {
      body: await qrSvg(pollUrlOf(site.publicUrl, number)),
      type: 'image/svg+xml; charset=utf-8',
      cacheControl: 'public, max-age=86400',
    });
  });
};
