/**
 * The link-preview images, drawn and kept in memory (og.routes.ts serves them).
 *
 * An image is drawn once per content: the cache is keyed by the preview's version (a hash of
 * everything on it), so a new result, a new question or the close time makes a new image and
 * the old one ages out. The address's `?v=` plays no part: whatever it says, the current image
 * is served, so made-up query strings cannot make the site draw. Drawing (~50 ms of CPU) happens
 * in worker threads (drawing-pool.ts); requests for an image being drawn wait for it, and when
 * too many different ones are drawing or waiting, the rest get a 503 rather than a growing
 * queue. Each instance keeps its own cache, bounded in entries.
 */
import { unavailable } from '../http/errors.js';
import { DrawingPool } from './drawing-pool.js';
import type { ImagePreview } from './link-previews.js';
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
