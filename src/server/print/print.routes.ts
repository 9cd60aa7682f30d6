/**
 * GET /poll-N/print, the staff-room sheet, and GET /qr/poll-N.svg, the QR code to a poll's page
 * (the share overlay shows it). Both for polls that have gone live only.
 */
import type { FastifyPluginAsync } from 'fastify';
import { ID_MAX } from '../../shared/limits.js';
import { pollUrlOf } from '../../shared/poll-links.js';
import type { Site } from '../config.js';
import type { EmbedService } from '../embed/embed.service.js';
import { notFound } from '../http/errors.js';
import { sendWithEtag } from '../http/etag.js';
import { renderPrintSheet, printCsp } from './print-page.js';
import { qrSvg } from './qr-code.js';

const PRINT_PAGE = /^\/poll-([1-9]\d{0,15})\/print\/?$/;
const QR = /^\/qr\/poll-([1-9]\d{0,15})\.svg$/;
const NO_SUCH_POLL = 'There is no such poll.';

const numberIn = (pattern: RegExp, url: string) => {
  const number = Number(pattern.exec(url.split('?')[0] ?? '')?.[1]);
  return number <= ID_MAX ? number : undefined;
};

export const printRoutes: FastifyPluginAsync<{
  embeds: EmbedService;
  site: Pick<Site, 'siteName' | 'publicUrl'>;
  https: boolean;
}> = async (app, { embeds, site, https }) => {
  app.get('/poll-:number/print', async (request, reply) => {
    const number = numberIn(PRINT_PAGE, request.url);
    const view = number === undefined ? undefined : await embeds.poll(number);
    if (!view) throw notFound(NO_SUCH_POLL);
    reply.header('content-security-policy', printCsp(https));
    const body = renderPrintSheet(view, await qrSvg(view.pollUrl), site);
    return sendWithEtag(request, reply, { body, type: 'text/html; charset=utf-8' });
  });

  app.get('/qr/poll-:file', async (request, reply) => {
    const number = numberIn(QR, request.url);
    if (number === undefined || !(await embeds.poll(number))) throw notFound(NO_SUCH_POLL);
    // The poll's address never changes: neither does its code.
    return sendWithEtag(request, reply, {
      body: await qrSvg(pollUrlOf(site.publicUrl, number)),
      type: 'image/svg+xml; charset=utf-8',
      cacheControl: 'public, max-age=86400',
    });
  });
};
