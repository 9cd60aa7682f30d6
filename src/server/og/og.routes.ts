/**
 * The link-preview images: /og/today.png and /og/poll-N.png, 1200×630 PNG, drawn and kept by
 * preview-images.ts, with the preview's version as their ETag.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { pollPreviewImage } from '../../shared/poll-links.js';
import { parseTrackerImagePath } from '../../shared/trackers.js';
import { notFound } from '../http/errors.js';
import { TODAY_IMAGE_PATH, type ImagePreview, type LinkPreviews } from './link-previews.js';
import type { PreviewImages } from './preview-images.js';

/** True when the request's If-None-Match names this ETag (or any, with *). */
function matches(request: FastifyRequest, etag: string): boolean {
  const header = request.headers['if-none-match'];
  if (!header) return false;
  return header.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === etag;
  });
}

export const ogRoutes: FastifyPluginAsync<{ previews: LinkPreviews; images: PreviewImages }> = async (
  app,
  { previews, images },
) => {
  async function send(request: FastifyRequest, reply: FastifyReply, preview: ImagePreview) {
    const etag = `"${preview.version}"`;
    reply
      .header('etag', etag)
      .header('cache-control', `public, max-age=${preview.maxAgeSeconds}`)
      // Made to be shown on other sites: chat apps and feeds embed it.
      .header('cross-origin-resource-policy', 'cross-origin');
    if (matches(request, etag)) return reply.status(304).send();
    return reply.type('image/png').send(await images.png(preview));
  }

  app.get<{ Params: { file: string } }>('/og/:file', async (request, reply) => {
    const path = `/og/${request.params.file}`;
    if (path === TODAY_IMAGE_PATH) return send(request, reply, await previews.todayImage());
    const slug = parseTrackerImagePath(path);
    if (slug !== null) {
      const tracker = await previews.trackerImage(slug);
      if (!tracker) throw notFound('There is no preview image here.');
      return send(request, reply, tracker);
    }
    const number = pollPreviewImage.parse(path);
    const preview = number === null ? undefined : await previews.pollImage(number);
    if (!preview) throw notFound('There is no preview image here.');
    return send(request, reply, preview);
  });
};
