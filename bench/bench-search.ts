/**
 * Search at 10,000 past polls (issue 39, item 2; `BENCH_ONLY=search`): the site on a SQLite file
 * of today's poll and SEARCH_PAST_POLLS past ones, each timed with autocannon in turn:
 *
 * - listing the archive, GET /api/polls (what the archive tab reads: every past poll);
 *   one request at a time (SEARCH_CONNECTIONS, default 1), since one answer takes seconds;
 * - search, GET /api/search?q=… and the page GET /search?q=…, every request a query of its own:
 *   a third of them matching every past poll (ranked in full, a page from 1 to 50), a third
 *   matching one poll, a third matching none.
 *
 * Target: search answers in the same order of time as listing the archive, as the ratio of
 * their median latencies (search ÷ archive) at most SEARCH_TARGET. Each figure is the median of
 * BENCH_ROUNDS rounds.
 */
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { median } from '../src/shared/median.js';
import { addPastPolls, prepareDatabase } from './bench-data.js';

export const SEARCH_PAST_POLLS = Number(process.env.BENCH_SEARCH_POLLS ?? 10_000);
/** Search's median latency over the archive listing's: no slower than listing the archive. */
export const SEARCH_TARGET = 1;

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
/**
 * One request at a time: the figure compared is how long one answer takes. Listing 10,000 past
 * polls takes seconds an answer, so 10 at once would leave none answered within a run.
 */
const CONNECTIONS = Number(process.env.SEARCH_CONNECTIONS ?? 1);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

/** The n-th distinct query: words every bench poll has, one poll's number, or a word none has. */
export function distinctQuery(n: number): string {
  switch (n % 3) {
    case 0:
      return `q=schools+start+later&page=${(n % 50) + 1}&x=${n}`;
    case 1:
      return `q=past+poll+${(n % SEARCH_PAST_POLLS) + 1}+teenagers`;
    default:
      return `q=zebra${n}`;
  }
}

interface Target {
  label: string;
  path: (n: number) => string;
}

const TARGETS: Target[] = [
  { label: 'archive: GET /api/polls (every past poll)', path: () => '/api/polls' },
  { label: 'search: GET /api/search?q=…, every query new', path: (n) => `/api/search?${distinctQuery(n)}` },
  { label: 'search: GET /search?q=… (the page), every query new', path: (n) => `/search?${distinctQuery(n)}` },
];

async function start(file: string): Promise<{ url: string; child: ChildProcess }> {
  const child = fork(path.join(import.meta.dirname, 'bench-server.ts'), ['app-closed', file], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message) => resolve((message as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`the search server exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, child };
}

async function time(url: string, target: Target, seconds: number) {
  let n = 0;
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: seconds,
    // Listing 10,000 past polls takes seconds an answer: waited for, not counted as errors.
    timeout: 120,
    requests: [
      {
        setupRequest: (request: autocannon.Request) => ({ ...request, path: target.path((n += 1)) }),
      },
    ],
  });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${target.label}: ${result.non2xx} non-2xx answers and ${result.errors} errors`);
  }
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

/** Measures and prints the figures; true when the target is met. */
export async function measureSearch(work: string): Promise<boolean> {
  const file = path.join(work, 'search.sqlite');
  if (!fs.existsSync(file)) {
    await prepareDatabase(file, 0);
    await addPastPolls(file, SEARCH_PAST_POLLS);
  }
  const figures = TARGETS.map(() => ({ rps: [] as number[], p50: [] as number[], p99: [] as number[] }));
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [i, target] of TARGETS.entries()) {
      const server = await start(file);
      try {
        await time(server.url, target, 2);
        const { rps, p50, p99 } = await time(server.url, target, SECONDS);
        figures[i]?.rps.push(rps);
        figures[i]?.p50.push(p50);
        figures[i]?.p99.push(p99);
      } finally {
        const exited = new Promise((resolve) => server.child.once('exit', resolve));
        server.child.kill('SIGTERM');
        await exited;
      }
    }
  }
  console.log(`\nSearch at ${SEARCH_PAST_POLLS.toLocaleString('en-US')} past polls (median of ${ROUNDS} rounds):`);
  const medians = figures.map((f) => ({ rps: median(f.rps), p50: median(f.p50), p99: median(f.p99) }));
  for (const [i, target] of TARGETS.entries()) {
    const m = medians[i];
    if (m) console.log(`  ${target.label}: ${m.rps.toFixed(0)} req/s, p50 ${m.p50} ms, p99 ${m.p99} ms`);
  }
  const archive = medians[0]?.p50 ?? 1;
  let met = true;
  for (const i of [1, 2]) {
    const ratio = (medians[i]?.p50 ?? 0) / Math.max(archive, 1);
    const ok = ratio <= SEARCH_TARGET;
    met &&= ok;
    console.log(
      `  ${TARGETS[i]?.label.split(',')[0]} p50 ÷ archive p50: ${ratio.toFixed(2)} (target ≤ ${SEARCH_TARGET}) ${ok ? 'ok' : 'MISSED'}`,
    );
  }
  return met;
}
