/**
 * Preview images are drawn in worker threads, so a flood of image requests costs the worker
 * threads' time, not the main thread's: pages and the API keep their usual latency. One thread
 * per spare core, leaving one for the main thread (one thread on a 2-core machine, at most two),
 * each with a capped heap, at a lower CPU priority where the platform allows, and stopped after
 * a minute without work. Nothing starts before the first image: starting the site costs nothing.
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Piscina } from 'piscina';
import type { OgCard } from './og-image.js';

/** Enough for satori, resvg and the fonts; a thread that needs more is ended, not the site. */
const WORKER_HEAP_MB = 256;
const IDLE_MS = 60_000;

/**
 * The worker beside this file: og-image.worker.js in the build. From the sources (tsx, Vitest)
 * it is TypeScript, which Node loads through tsx's hooks; the built site needs none.
 */
function workerFile() {
  const here = fileURLToPath(import.meta.url);
  const extension = path.extname(here);
  const file = path.join(path.dirname(here), `og-image.worker${extension}`);
  const needsTsx = extension === '.ts' && !process.execArgv.some((arg) => arg.includes('tsx'));
  return { file, execArgv: needsTsx ? [...process.execArgv, '--import', 'tsx'] : undefined };
}

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
    this.#pool ??= import('piscina').then(({ Piscina }) => {
      const { file, execArgv } = workerFile();
      const pool = new Piscina({
        filename: file,
        ...(execArgv ? { execArgv } : {}),
        minThreads: 0,
        maxThreads: this.#threads,
        idleTimeout: IDLE_MS,
        resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
        // The main thread answers requests: on a busy machine it goes first. Only on Linux, where
        // nice() lowers the calling thread alone; elsewhere it would lower the whole site.
        niceIncrement: process.platform === 'linux' ? 10 : 0,
      });
      this.#started = pool;
      return pool;
    });
    return this.#pool;
  }
}
