/**
 * The link-preview images: /og/today.png and /og/poll-N.png, 1200×630 PNG.
 *
 * An image is drawn once per content: the cache is keyed by the preview's version (a hash of
 * everything on it), so a new result, a new question or the close time makes a new image and
 * the old one ages out. Drawing takes ~50 ms of CPU, so only one image is drawn at a time,
 * requests for one being drawn wait for it, and when too many are waiting the rest are turned
 * away with a 503 rather than stalling the site. Each instance keeps its own cache.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { ID_MAX } from '../../shared/limits.js';
import { HttpError, notFound } from '../http/errors.js';
import type { ImagePreview, LinkPreviews } from './link-previews.js';
import { renderOgImage, type OgCard } from './og-image.js';

export interface PreviewImageOptions {
  /** Draws a card (the real renderer unless a test counts its calls). */
  render?: (card: OgCard) => Promise<Buffer>;
  /** PNGs kept in memory (~30–60 KB each). */
  maxEntries?: number;
  /** Different images allowed to wait for drawing before new ones get a 503. */
  maxWaiting?: number;
}

export class PreviewImages {
  readonly #render: (card: OgCard) => Promise<Buffer>;
  readonly #maxEntries: number;
  readonly #maxWaiting: number;
  /** Least recently used first. */
  readonly #drawn = new Map<string, Buffer>();
  readonly #drawing = new Map<string, Promise<Buffer>>();
  #queue: Promise<unknown> = Promise.resolve();
  /** How many images were drawn (not served from memory). */
  renders = 0;

  constructor({ render = renderOgImage, maxEntries = 100, maxWaiting = 8 }: PreviewImageOptions = {}) {
    this.#render = render;
    this.#maxEntries = maxEntries;
    this.#maxWaiting = maxWaiting;
  }

  async png({ version, card }: ImagePreview): Promise<Buffer> {
    const drawn = this.#drawn.get(version);
    if (drawn) {
      this.#drawn.delete(version);
      this.#drawn.set(version, drawn);
      return drawn;
    }
    const drawing = this.#drawing.get(version);
    if (drawing) return drawing;
    if (this.#drawing.size >= this.#maxWaiting) {
      throw new HttpError(503, 'Too many preview images are being drawn right now. Please try again in a moment.');
    }
    const next = this.#queue
      .then(async () => {
        const png = await this.#render(card);
        this.renders += 1;
        this.#drawn.set(version, png);
        if (this.#drawn.size > this.#maxEntries) this.#drawn.delete(this.#drawn.keys().next().value as string);
        return png;
      })
      .finally(() => this.#drawing.delete(version));
    this.#drawing.set(version, next);
    this.#queue = next.catch(() => undefined);
    return next;
  }
}

/** True when the request's If-None-Match names this ETag (or any, with *). */
function matches(request: FastifyRequest, etag: string): boolean {
  const header = request.headers['if-none-match'];
  if (!header) return false;
  return header.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === etag;
  });
}

const POLL_IMAGE = /^poll-([1-9]\d{0,9})\.png$/;

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
    const { file } = request.params;
    if (file === 'today.png') return send(request, reply, await previews.todayImage());
    const number = Number(POLL_IMAGE.exec(file)?.[1]);
    const preview = number <= ID_MAX ? await previews.pollImage(number) : undefined;
    if (!preview) throw notFound('There is no preview image here.');
    return send(request, reply, preview);
  });
};
