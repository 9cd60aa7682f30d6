/**
 * Preview images are drawn in worker threads, so a flood of image requests costs the worker
 * threads' time, not the main thread's: pages and the API keep their usual latency. One thread
 * per spare core, leaving one for the main thread (one thread on a 2-core machine, at most two),
 * each with a capped heap, at a lower CPU priority where the platform allows, and stopped after
 * a minute without work. Nothing starts before the first image: starting the site costs nothing.
 */
import os from 'node:os';
import type { Piscina } from 'piscina';
import { workerPool } from '../worker-pool.js';
import type { OgCard } from './og-image.js';

/** Enough for satori, resvg and the fonts; a thread that needs more is ended, not the site. */
const WORKER_HEAP_MB = 256;

export class DrawingPool {
  #pool: Promise<Piscina> | undefined;
  #started: Piscina | undefined;
  readonly #threads: number;

  constructor(threads = Math.min(2, Math.max(1, os.availableParallelism() - 1))) {
    this.#threads = threads;
  }

  /** Threads running now. */
  get threads(): number {
    return this.#started?.threads.length ?? 0;
  }

  async draw(card: OgCard): Promise<Buffer> {
    const png = (await (await this.#start()).run(card)) as Uint8Array;
    return Buffer.from(png.buffer, png.byteOffset, png.byteLength);
  }

  async close(): Promise<void> {
    const pool = this.#pool;
    this.#pool = undefined;
    this.#started = undefined;
    if (pool) await (await pool).destroy();
  }

  #start(): Promise<Piscina> {
    this.#pool ??= workerPool(import.meta.url, 'og-image.worker', {
      threads: this.#threads,
      heapMb: WORKER_HEAP_MB,
      lowerPriority: true,
    }).then((pool) => {
      this.#started = pool;
      return pool;
    });
    return this.#pool;
  }
}
