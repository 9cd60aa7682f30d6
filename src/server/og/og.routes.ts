/**
 * The link-preview images: /og/today.png and /og/poll-N.png, 1200×630 PNG.
 *
 * An image is drawn once per content: the cache is keyed by the preview's version (a hash of
 * everything on it), so a new result, a new question or the close time makes a new image and
 * the old one ages out. The address's `?v=` plays no part: whatever it says, the current image
 * is served, so made-up query strings cannot make the site draw. Drawing (~50 ms of CPU) happens
 * in worker threads (drawing-pool.ts); requests for an image being drawn wait for it, and when
 * too many different ones are drawing or waiting, the rest get a 503 rather than a growing
 * queue. Each instance keeps its own cache, bounded in entries.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { ID_MAX } from '../../shared/limits.js';
import { notFound, unavailable } from '../http/errors.js';
import { DrawingPool } from './drawing-pool.js';
import type { ImagePreview, LinkPreviews } from './link-previews.js';
import type { OgCard } from './og-image.js';

export interface PreviewImageOptions {
  /** Draws a card. By default a pool of worker threads that this cache starts and closes. */
  render?: (card: OgCard) => Promise<Buffer>;
  /** PNGs kept in memory (~30–80 KB each). */
  maxEntries?: number;
  /** Different images allowed to be drawing or waiting for a thread before new ones get a 503. */
  maxWaiting?: number;
}

export class PreviewImages {
  readonly #render: (card: OgCard) => Promise<Buffer>;
  readonly #pool: DrawingPool | undefined;
  readonly #maxEntries: number;
  readonly #maxWaiting: number;
  /** Least recently used first. */
  readonly #drawn = new Map<string, Buffer>();
  readonly #drawing = new Map<string, Promise<Buffer>>();
  /** How many images were drawn (not served from memory). */
  renders = 0;

  constructor({ render, maxEntries = 100, maxWaiting = 8 }: PreviewImageOptions = {}) {
    if (render) {
      this.#render = render;
    } else {
      const pool = new DrawingPool();
      this.#pool = pool;
      this.#render = (card) => pool.draw(card);
    }
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
      throw unavailable('Too many preview images are being drawn right now. Please try again in a moment.');
    }
    const next = this.#render(card)
      .then((png) => {
        this.renders += 1;
        this.#drawn.set(version, png);
        if (this.#drawn.size > this.#maxEntries) this.#drawn.delete(this.#drawn.keys().next().value as string);
        return png;
      })
      .finally(() => this.#drawing.delete(version));
    this.#drawing.set(version, next);
    return next;
  }

  /** Stops the drawing threads, if this cache started them. */
  async close(): Promise<void> {
    await this.#pool?.close();
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
