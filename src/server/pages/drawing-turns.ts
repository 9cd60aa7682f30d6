/**
 * Pages not in the cache are drawn in turns: a few at once, the next ones waiting in line,
 * first come first served. Drawing is the main thread's work (React, then compressing), so
 * drawing more at once would draw none sooner and make every other answer (/healthz, the API,
 * cached pages) wait behind all of them. A page waits for its turn rather than going out as an
 * empty shell, since every public page paints its content from the server; only when the line
 * is full is a request refused, with a 503, so waiting never grows without end.
 */
import { unavailable } from '../http/errors.js';

export class DrawingTurns {
  #drawing = 0;
  /** Each waiting page's go-ahead, in arrival order. */
  readonly #line: (() => void)[] = [];

  constructor(
    /** Pages drawn at once. */
    readonly atOnce: number,
    /** Pages waiting for their turn before new ones are refused. */
    readonly maxWaiting: number,
  ) {}

  /** Pages being drawn now. */
  get drawing(): number {
    return this.#drawing;
  }

  /** Pages waiting for their turn now. */
  get waiting(): number {
    return this.#line.length;
  }

  /** Runs `draw` in its turn; refuses it (503) when the line is full. */
  async take<T>(draw: () => Promise<T>): Promise<T> {
    if (this.#drawing < this.atOnce) {
      this.#drawing += 1;
    } else {
      if (this.#line.length >= this.maxWaiting) {
        throw unavailable('Too many pages are being drawn right now. Please try again in a moment.');
      }
      // The page finishing hands its turn straight to this one: #drawing stays as it is.
      await new Promise<void>((goAhead) => this.#line.push(goAhead));
    }
    try {
      return await draw();
    } finally {
      const next = this.#line.shift();
      // The next page starts in a turn of the event loop of its own, after the requests that
      // came meanwhile have been read: handed over at once, it would start in the promise
      // callbacks that ended this one, before any of them.
      if (next) setImmediate(next);
      else this.#drawing -= 1;
    }
  }
}
