/**
 * Floods in `npm run bench` (`BENCH_ONLY=floods` runs them alone; `npx tsx bench/bench-floods.ts`
 * too): what a flood of requests that the site cannot answer from memory, or once could not,
 * does to the rest of it. The site runs in its own process, with its pages, on a SQLite file of
 * today's poll and 365 past polls (a year, with every group's tallies); from here,
 * autocannon's FLOOD_CONNECTIONS connections ask for one kind of address as fast as they are
 * answered, while /healthz is timed one request after another at a visitor's pace from a
 * process of its own (bench-health.ts), and the server's memory is read from /proc each second. Each flood runs in a fresh server, BENCH_ROUNDS times
 * (default 3), interleaved; each figure is the median of the rounds.
 *
 * The floods:
 * - pages: `/` (one page, kept), to compare the others with;
 * - pages: `/?x=N` and unknown paths `/no-such-page-N`, every address a new one;
 * - unknown poll numbers (`/poll-N`, `/?vote=1&poll=N`, `/?redirect=poll-N`): one cached page
 *   (issue 35), while real pages (`/`, a past poll's) are timed too: each must answer 200, with
 *   a p95 within FLOOD_PAGE_P95_MS (100 ms);
 * - open data: /data/polls.json, /data/polls.csv and /feed.xml, half the requests taking
 *   Brotli or gzip as browsers do, half taking neither;
 * - preview images: /og/poll-N.png over the 365 past polls, more than the cache keeps;
 * - search (issue 39): a new query each request, half of them ranking every past poll.
 *
 * Target, for each flood but `/`'s (for information): /healthz's
 * p95 during the flood under FLOOD_HEALTH_P95_MS (50 ms).
 *
 *   BENCH_SECONDS       seconds of each flood (default 10)
 *   FLOOD_CONNECTIONS   concurrent requests of a flood (default 16)
 *   BENCH_ROUNDS        rounds (default 3)
 *   FLOOD_ONLY          only the floods whose name holds this word (kept, made-up, unknown, open, preview, search)
 */
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { addPastPolls, prepareDatabase } from './bench-data.js';
import { buildSite } from './bench-pages.js';
import { median } from '../src/shared/median.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.FLOOD_CONNECTIONS ?? 16);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ONLY = process.env.FLOOD_ONLY;
const PAST_POLLS = 365;
export const FLOOD_HEALTH_P95_MS = 50;
/** A /healthz that takes longer is counted as timed out (and as this long). */
const HEALTH_TIMEOUT_MS = 10_000;
/** /healthz is asked for this long apart: a visitor's pace, not a tight loop. */
const HEALTH_PACE_MS = 20;
const QUIET_SAMPLES = 100;

interface Flood {
  label: string;
  /** The address the `n`th request of the flood asks for, and its headers. */
  request: (n: number) => { path: string; headers?: Record<string, string> };
  target: boolean;
  /** Real pages are timed too: each answers 200, with a p95 within FLOOD_PAGE_P95_MS (issue 35). */
  pages?: boolean;
}

/** Real pages during a flood of poll numbers: their p95, and every one answered 200. */
export const FLOOD_PAGE_P95_MS = 100;
/** The real pages timed: today's and a past poll's. */
const REAL_PAGES = ['/', '/poll-2'];

const AS_BROWSERS = { 'accept-encoding': 'gzip, deflate, br, zstd' };
const OPEN_DATA = ['/data/polls.json', '/data/polls.csv', '/feed.xml'];

const ALL_FLOODS: Flood[] = [
  {
    label: 'pages: / again and again, kept (for comparison)',
    request: () => ({ path: '/', headers: AS_BROWSERS }),
    target: false,
  },
  {
    label: 'pages: made-up addresses, /?x=N and /no-such-page-N',
    request: (n) => ({ path: n % 2 === 0 ? `/?x=${n}` : `/no-such-page-${n}`, headers: AS_BROWSERS }),
    target: true,
  },
  {
    label: 'pages: unknown poll numbers /poll-N, ?vote=1&poll=N, ?redirect=poll-N',
    request: (n) => ({
      path:
        n % 3 === 0
          ? `/poll-${100_000 + n}`
          : n % 3 === 1
            ? `/?vote=1&poll=${100_000 + n}`
            : `/?redirect=poll-${100_000 + n}`,
      headers: AS_BROWSERS,
    }),
    target: true,
    pages: true,
  },
  {
    label: 'open data: polls.json, polls.csv, feed.xml',
    // Every other round of the three documents takes Brotli or gzip.
    request: (n) => ({
      path: OPEN_DATA[n % OPEN_DATA.length] ?? '/feed.xml',
      ...(Math.floor(n / OPEN_DATA.length) % 2 === 0 ? { headers: AS_BROWSERS } : {}),
    }),
    target: true,
  },
  {
    label: 'search: /search?q=… and /api/search?q=…, every query new',
    // Half match every past poll and are ranked in full (a page of them), half match one or none.
    request: (n) => ({
      path: n % 2 === 0 ? `/search?q=schools+start+later&page=${(n % 18) + 1}&n=${n}` : `/api/search?q=teenagers+${n}`,
      headers: AS_BROWSERS,
    }),
    target: true,
  },
  {
    label: 'preview images: /og/poll-N.png',
    // The past polls are numbered 2 to 366 (today's is 1).
    request: (n) => ({ path: `/og/poll-${(n % PAST_POLLS) + 2}.png` }),
    target: true,
  },
];

const FLOODS = ONLY ? ALL_FLOODS.filter((flood) => flood.label.includes(ONLY)) : ALL_FLOODS;

interface Run {
  quiet: number[];
  busy: number[];
  /** Real pages' times during the flood (empty unless the flood times them), and how many failed. */
  pages: number[];
  pageFailures: number;
  timeouts: number;
  /** Flood answers by status. */
  statuses: Map<number, number>;
  bytes: number;
  rssIdle: number;
  rssPeak: number;
}

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ?? 0;

async function start(db: string, clientDir: string): Promise<{ url: string; child: ChildProcess }> {
  const child = fork(path.join(import.meta.dirname, 'bench-page-server.ts'), [db, clientDir], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message) => resolve((message as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`the flood server exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, child };
}

function rssOf(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

/**
 * Times /healthz from a process of its own (bench-health.ts) until `stop` resolves, or for
 * `samples` requests.
 */
async function timeHealth(
  base: string,
  { samples, stop, paths }: { samples?: number; stop?: Promise<unknown>; paths?: string[] },
): Promise<{ times: number[]; timeouts: number }> {
  const args = [
    base,
    String(HEALTH_PACE_MS),
    String(HEALTH_TIMEOUT_MS),
    samples ? String(samples) : '',
    ...(paths ? [paths.join(',')] : []),
  ];
  const timer = fork(path.join(import.meta.dirname, 'bench-health.ts'), args, {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const result = new Promise<{ times: number[]; timeouts: number }>((resolve, reject) => {
    timer.once('message', (message) => resolve(message as { times: number[]; timeouts: number }));
    timer.once('exit', (code) => reject(new Error(`the /healthz timer exited with ${code}`)));
  });
  void stop?.then(() => timer.send('stop'));
  return result;
}

async function runFlood(flood: Flood, db: string, clientDir: string): Promise<Run> {
  execFileSync('sync');
  const server = await start(db, clientDir);
  const pid = server.child.pid ?? 0;
  try {
    // One request of each kind first: the page renderer, the image threads and the fonts are
    // loaded on first use, and are not what a flood costs.
    const { path: first, headers } = flood.request(0);
    await (await fetch(`${server.url}${first}`, { headers: headers ?? {} })).arrayBuffer();
    const rssIdle = rssOf(pid);
    const quiet = await timeHealth(server.url, { samples: QUIET_SAMPLES });

    let next = 0;
    let rssPeak = rssIdle;
    const memory = setInterval(() => {
      rssPeak = Math.max(rssPeak, rssOf(pid));
    }, 1000);
    const flooding = autocannon({
      url: server.url,
      connections: CONNECTIONS,
      duration: SECONDS,
      timeout: HEALTH_TIMEOUT_MS / 1000,
      requests: [
        {
          setupRequest: (request: autocannon.Request) => {
            const { path: address, headers } = flood.request((next += 1));
            return { ...request, path: address, headers: { ...request.headers, ...headers } };
          },
        },
      ],
    });
    const [busy, pages, result] = await Promise.all([
      timeHealth(server.url, { stop: flooding }),
      flood.pages ? timeHealth(server.url, { stop: flooding, paths: REAL_PAGES }) : { times: [], timeouts: 0 },
      flooding,
    ]);
    clearInterval(memory);
    rssPeak = Math.max(rssPeak, rssOf(pid));
    const statuses = new Map(
      Object.entries(result.statusCodeStats ?? {}).map(([status, { count = 0 }]) => [Number(status), count]),
    );
    if (result.errors > 0) statuses.set(0, result.errors);
    const bytes = result.throughput.total;
    return {
      quiet: quiet.times,
      busy: busy.times,
      timeouts: busy.timeouts,
      pages: pages.times,
      pageFailures: pages.timeouts,
      statuses,
      bytes,
      rssIdle,
      rssPeak,
    };
  } finally {
    const exited = new Promise((resolve) => server.child.once('exit', resolve));
    server.child.kill('SIGTERM');
    await exited;
  }
}

/** The database of the floods: today's poll, and a year of past polls before it. */
async function prepareFloodDatabase(work: string): Promise<string> {
  const db = path.join(work, 'floods.sqlite');
  await prepareDatabase(db, 1_000);
  await addPastPolls(db, PAST_POLLS);
  return db;
}

/** Runs every flood ROUNDS times and prints the medians; true when every target is met. */
export async function measureFloods(work: string): Promise<boolean> {
  console.log(
    `\nFloods: ${CONNECTIONS} connections for ${SECONDS} s each, /healthz timed every ${HEALTH_PACE_MS} ms, ` +
      `${PAST_POLLS} past polls (medians of ${ROUNDS} rounds):`,
  );
  const clientDir = await buildSite(path.join(work, 'site'));
  const db = await prepareFloodDatabase(work);
  const runs = new Map<string, Run[]>(FLOODS.map((flood) => [flood.label, []]));
  for (let round = 1; round <= ROUNDS; round += 1) {
    process.stdout.write(`  round ${round} of ${ROUNDS}...`);
    for (const flood of FLOODS) runs.get(flood.label)?.push(await runFlood(flood, db, clientDir));
    process.stdout.write(' done\n');
  }
  let met = true;
  const ms = (n: number) => `${n < 10 ? n.toFixed(1) : Math.round(n).toLocaleString('en-US')} ms`;
  for (const flood of FLOODS) {
    const floodRuns = runs.get(flood.label) ?? [];
    const of = (figure: (run: Run) => number) => median(floodRuns.map(figure));
    const answered = (run: Run) => [...run.statuses.values()].reduce((sum, n) => sum + n, 0);
    const statusText = [...new Set(floodRuns.flatMap((run) => [...run.statuses.keys()]))]
      .sort()
      .map((status) => `${Math.round(of((run) => run.statuses.get(status) ?? 0))} × ${status || 'failed'}`)
      .join(', ');
    const p95 = of((run) => percentile(run.busy, 0.95));
    console.log(`  ${flood.label}`);
    console.log(
      `    /healthz quiet: median ${ms(of((run) => median(run.quiet)))}, p95 ${ms(of((run) => percentile(run.quiet, 0.95)))}` +
        `; during the flood: median ${ms(of((run) => median(run.busy)))}, p95 ${ms(p95)}, ` +
        `max ${ms(of((run) => Math.max(...run.busy)))}, ${Math.round(of((run) => run.busy.length))} requests` +
        `, ${of((run) => run.timeouts)} timed out (runs' p95: ${floodRuns.map((run) => ms(percentile(run.busy, 0.95))).join(', ')})`,
    );
    console.log(
      `    answered ${Math.round(of((run) => answered(run) / SECONDS)).toLocaleString('en-US')}/s (in ${SECONDS} s: ${statusText}), ` +
        `${(of((run) => run.bytes / SECONDS) / 1_048_576).toFixed(1)} MB/s; server RSS ${Math.round(of((run) => run.rssIdle))} MB ` +
        `before, ${Math.round(of((run) => run.rssPeak))} MB at the peak`,
    );
    if (flood.target) {
      const ok = p95 < FLOOD_HEALTH_P95_MS;
      met &&= ok;
      console.log(
        `    /healthz p95 during the flood ${ms(p95)}   target < ${FLOOD_HEALTH_P95_MS} ms   ${ok ? 'met' : 'MISSED'}`,
      );
    } else {
      console.log('    (for information)');
    }
    if (flood.pages) {
      const pageP95 = of((run) => percentile(run.pages, 0.95));
      const failed = of((run) => run.pageFailures);
      const ok = pageP95 <= FLOOD_PAGE_P95_MS && failed === 0;
      met &&= ok;
      console.log(
        `    real pages (${REAL_PAGES.join(', ')}) during the flood: median ${ms(of((run) => median(run.pages)))}, ` +
          `p95 ${ms(pageP95)}, ${failed} not 200   target p95 <= ${FLOOD_PAGE_P95_MS} ms, all 200   ${ok ? 'met' : 'MISSED'}`,
      );
    }
  }
  return met;
}

// `tsx bench/bench-floods.ts` runs the floods alone.
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'hot-take-bench-floods-'));
  try {
    process.exitCode = (await measureFloods(work)) ? 0 : 1;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
