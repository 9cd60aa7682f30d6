/**
 * Searches over a SQLite file run in a worker thread (search.worker.ts) on a read-only
 * connection of their own. On the site's one connection, every query waits its turn, and
 * better-sqlite3 runs each synchronously on the main thread: a flood of searches, each ranking
 * hundreds of matches, kept /healthz and every page waiting behind them (p95 148 ms at load 1-3;
 * 1,541 ms at load 14). Here they cost the thread's time (at the site's own CPU priority: a
 * visitor waits for it), and the main thread only sends the filter and reads the page back.
 * One thread, one search at a time (the service's turns keep the line); it starts with the
 * first search and stops after a minute without one.
 */
import type { Piscina } from 'piscina';
import type { SearchHit } from '../../shared/api.js';
import { workerPool } from '../worker-pool.js';
import type { SearchFilter } from './search.repository.js';
import type { SearchTask } from './search.worker.js';

const WORKER_HEAP_MB = 128;

export class SearchThread {
  #pool: Promise<Piscina> | undefined;

  constructor(
    /** The site's SQLite file. */
    readonly file: string,
  ) {}

  async search(filter: SearchFilter): Promise<{ total: number; hits: SearchHit[] }> {
    const task: SearchTask = { file: this.file, filter };
    return (await this.#start()).run(task) as Promise<{ total: number; hits: SearchHit[] }>;
  }

  async close(): Promise<void> {
    const pool = this.#pool;
    this.#pool = undefined;
    if (pool) await (await pool).destroy();
  }

  #start(): Promise<Piscina> {
    this.#pool ??= workerPool(import.meta.url, 'search.worker', {
      threads: 1,
      heapMb: WORKER_HEAP_MB,
      lowerPriority: false,
    });
    return this.#pool;
  }
}
