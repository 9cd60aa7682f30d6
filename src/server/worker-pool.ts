/**
 * Worker threads for work that would block the thread answering requests (preview images,
 * search on SQLite), each pool started on its first task, with a capped heap, and stopped after
 * a minute without work.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Piscina } from 'piscina';

const IDLE_MS = 60_000;

/**
 * A worker thread's module, beside the module that starts it: `name.js` in the build. From the
 * sources (tsx, Vitest) it is TypeScript, which Node loads through tsx's hooks; the built site
 * needs none.
 */
export function workerBeside(moduleUrl: string, name: string): { file: string; execArgv: string[] | undefined } {
  const here = fileURLToPath(moduleUrl);
  const extension = path.extname(here);
  const file = path.join(path.dirname(here), `${name}${extension}`);
  const needsTsx = extension === '.ts' && !process.execArgv.some((arg) => arg.includes('tsx'));
  return { file, execArgv: needsTsx ? [...process.execArgv, '--import', 'tsx'] : undefined };
}

/**
 * A pool of up to `threads` threads running the worker `name` beside `moduleUrl`; `lowerPriority`
 * for work that may wait (a preview image) rather than work a visitor waits for (a search: niced,
 * on a machine busy with other work, a search thread got a few per cent of a core and answered 9
 * searches a second instead of 300).
 */
export async function workerPool(
  moduleUrl: string,
  name: string,
  { threads, heapMb, lowerPriority }: { threads: number; heapMb: number; lowerPriority: boolean },
): Promise<Piscina> {
  const { Piscina } = await import('piscina');
  const { file, execArgv } = workerBeside(moduleUrl, name);
  return new Piscina({
    filename: file,
    ...(execArgv ? { execArgv } : {}),
    minThreads: 0,
    maxThreads: threads,
    idleTimeout: IDLE_MS,
    resourceLimits: { maxOldGenerationSizeMb: heapMb },
    // The main thread answers requests: on a busy machine it goes first. Only on Linux, where
    // nice() lowers the calling thread alone; elsewhere it would lower the whole site.
    niceIncrement: lowerPriority && process.platform === 'linux' ? 10 : 0,
  });
}
