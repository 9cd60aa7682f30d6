/**
 * `npm run bench:guard`: a quick check (under 3 minutes) that the hottest paths have not become
 * slower, for CI. Four measures, each as a ratio against its bare server in the same round:
 *
 *   read, not voted   GET /api/polls/active, a returning visitor who has not voted / Fastify
 *                     alone (no plugins, one route) answering the same bytes
 *   read, voted       the same read by a voter who voted / the same
 *   votes (SQLite)    POST a vote, a new voter from one of 4,096 networks each, 50 connections
 *                     / node:http + the same insert into the real `votes` table (better-sqlite3)
 *   GET / (HTML)      the drawn page, brotli, a visitor who has not voted / Fastify alone
 *                     sending that page's very bytes
 *
 * Each is measured against a server doing the same database and network work, so that what the
 * guard sees is the app's own share: on 2026-12-07's VM a 7 KB answer cost the client and
 * loopback four times an 878-byte one, and a WAL commit almost nothing, which moved the ratios
 * against bare JSON and the minimal insert by half with the code unchanged (docs/performance.md).
 * The reads and the page are held against Fastify alone sending their bytes: on 2026-12-07 night
 * bare JSON answered 42% faster than at 17:05 and the reads' ratio fell from 0.88 to 0.40 while
 * the code read 28% faster than before (an interleaved A/B), and on 2026-12-08's VM the page's
 * ratio against node:http sending its bytes read 0.49-0.67 with and without that day's change
 * (0.84-0.92 on the VM before), under its floor. The full `npm run bench` still prints the ratios
 * against bare JSON, the minimal insert and the page's bytes sent bare.
 *
 * Three rounds (BENCH_GUARD_ROUNDS), interleaved; each ratio is the median of its rounds'. It
 * fails when a ratio falls more than 25% below the figure in bench/guard-baseline.json. A
 * change that moves a figure on purpose updates that file in the same commit, with the reason
 * in the message. `--write-baseline` writes the medians of this run into it.
 */
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { prepareDatabase } from './bench-data.js';
import { buildSite, rawBody } from './bench-pages.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const WARMUP_SECONDS = 1;
const ROUNDS = Number(process.env.BENCH_GUARD_ROUNDS ?? 3);
/** A ratio may fall this far below its baseline before the guard fails. */
const TOLERANCE = 0.25;
const BASELINE = path.join(import.meta.dirname, 'guard-baseline.json');

type Measure = 'readNotVoted' | 'readVoted' | 'votes' | 'page';
interface Baseline {
  measured: string;
  note: string;
  ratios: Record<Measure, number>;
}

interface Run {
  label: string;
  script: 'bench-server.ts' | 'bench-page-server.ts';
  args: string[];
  request: autocannon.Options;
  connections: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** A run's server, started once and measured in every round. */
interface Server {
  port: number;
  stop(): Promise<void>;
}

async function startServer(run: Run): Promise<Server> {
  const child: ChildProcess = fork(path.join(import.meta.dirname, run.script), run.args, {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.once('message', (message) => resolve((message as { port: number }).port));
      child.once('exit', (code) => reject(new Error(`${run.label}: the server exited with ${code}`)));
    });
    return { port, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function rateOf(run: Run, { port }: Server): Promise<number> {
  const url = `http://127.0.0.1:${port}${run.request.url}`;
  const options = { ...run.request, url, connections: run.connections };
  await autocannon({ ...options, duration: WARMUP_SECONDS });
  const result = await autocannon({ ...options, duration: SECONDS });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${run.label}: ${result.non2xx} non-2xx answers and ${result.errors} errors`);
  }
  return result.requests.average;
}

/** 4,096 networks in turn, a new voter each time (the voter cookie is issued by the vote). */
function newVoters(): autocannon.Options['requests'] {
  let network = 0;
  return [
    {
      setupRequest: (request: autocannon.Request) => {
        network = (network + 1) % 4096;
        const address = `10.${network >> 8}.${network & 255}.${(network * 7) % 250}`;
        return { ...request, headers: { ...request.headers, 'x-forwarded-for': address } };
      },
    },
  ];
}

async function main() {
  const started = Date.now();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'hot-take-guard-'));
  try {
    const clientDir = await buildSite(path.join(work, 'site'));
    const readDb = path.join(work, 'reads.sqlite');
    const reads = await prepareDatabase(readDb, 1_000);
    const json = path.join(work, 'active.json');
    const voted = { cookie: `voter_id=${reads.voterCookie}` };
    const notVoted = { cookie: `voter_id=${reads.voterCookieFor('R'.repeat(22))}` };
    // Fastify alone answers today's poll as the app answers it to a voter.
    const voteDb = path.join(work, 'votes.sqlite');
    const { pollId } = await prepareDatabase(voteDb, 0);
    const sameInsertDb = path.join(work, 'same-insert.sqlite');
    await prepareDatabase(sameInsertDb, 0);
    const pageBytes = path.join(work, 'page.bin');
    execFileSync('sync');

    const vote = {
      method: 'POST' as const,
      body: '{"optionIndex":1,"voterEmail":""}',
      headers: { 'content-type': 'application/json' },
      requests: newVoters(),
    };
    const appRead = (label: string, headers: Record<string, string>): Run => ({
      label,
      script: 'bench-server.ts',
      args: ['app', readDb],
      request: { url: '/api/polls/active', headers },
      connections: 10,
    });
    const runs = {
      fastifyJson: {
        label: 'Fastify alone, the same JSON',
        script: 'bench-server.ts',
        args: ['fastify-bytes', json],
        request: { url: '/' },
        connections: 10,
      },
      readNotVoted: appRead('app: GET active, not voted yet', notVoted),
      readVoted: appRead('app: GET active, a voter who voted', voted),
      page: {
        label: 'app: GET / (HTML, brotli), not voted yet',
        script: 'bench-page-server.ts',
        args: [readDb, clientDir],
        request: { url: '/', headers: { ...notVoted, 'accept-encoding': 'gzip, deflate, br, zstd' } },
        connections: 10,
      },
      fastifyPage: {
        label: 'Fastify alone, the same page’s bytes',
        script: 'bench-server.ts',
        args: ['fastify-bytes', pageBytes],
        request: { url: '/' },
        connections: 10,
      },
      bareInsert: {
        label: 'bare node:http + the same votes insert',
        script: 'bench-server.ts',
        args: ['bare-insert', sameInsertDb],
        request: { ...vote, url: '/' },
        connections: 50,
      },
      votes: {
        label: 'app: POST vote, SQLite',
        script: 'bench-server.ts',
        args: ['app', voteDb],
        request: { ...vote, url: `/api/polls/${pollId}/vote` },
        connections: 50,
      },
    } satisfies Record<string, Run>;
    const rates = new Map<keyof typeof runs, number[]>();
    // One server per run for all the rounds: each was forked (through tsx) afresh for every
    // measurement, 23 starts of 2-6 s each; the rounds still interleave, and each measurement
    // still warms its server for WARMUP_SECONDS first.
    const servers = new Map<keyof typeof runs, Server>();
    try {
      const start = async (keys: (keyof typeof runs)[]) => {
        const started = await Promise.allSettled(
          keys.map(async (key) => servers.set(key, await startServer(runs[key]))),
        );
        const failed = started.find((result) => result.status === 'rejected');
        if (failed) throw failed.reason;
      };
      const serverOf = (key: keyof typeof runs) => {
        const server = servers.get(key);
        if (!server) throw new Error(`${runs[key].label}: not started`);
        return server;
      };
      await start(['readNotVoted', 'readVoted', 'page', 'votes']);
      // Fastify alone sends the app's very bytes: read from the app's servers before it starts.
      fs.writeFileSync(json, await fetchRaw(runs.readVoted, serverOf('readVoted')));
      fs.writeFileSync(pageBytes, await fetchRaw(runs.page, serverOf('page')));
      await start(['fastifyJson', 'fastifyPage', 'bareInsert']);

      for (let round = 1; round <= ROUNDS; round += 1) {
        process.stdout.write(`round ${round} of ${ROUNDS}...`);
        for (const [key, run] of Object.entries(runs) as [keyof typeof runs, Run][]) {
          rates.set(key, [...(rates.get(key) ?? []), await rateOf(run, serverOf(key))]);
        }
        process.stdout.write(' done\n');
      }
    } finally {
      await Promise.all([...servers.values()].map((server) => server.stop()));
    }
    const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
    for (const [key, run] of Object.entries(runs) as [keyof typeof runs, Run][]) {
      console.log(
        `  ${run.label.padEnd(44)} ${fmt(median(rates.get(key) ?? [])).padStart(7)} req/s  (runs ${(rates.get(key) ?? []).map(fmt).join(', ')})`,
      );
    }
    // Each round's figure against its bare server's in the same round.
    const ratioOf = (key: Measure, bare: keyof typeof runs) =>
      median((rates.get(key) ?? []).map((rate, i) => rate / (rates.get(bare)?.[i] ?? Number.NaN)));
    const ratios: Record<Measure, number> = {
      readNotVoted: ratioOf('readNotVoted', 'fastifyJson'),
      readVoted: ratioOf('readVoted', 'fastifyJson'),
      votes: ratioOf('votes', 'bareInsert'),
      page: ratioOf('page', 'fastifyPage'),
    };
    const load = os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ');
    if (process.argv.includes('--write-baseline')) {
      const baseline: Baseline = {
        measured: new Date().toISOString().slice(0, 10),
        note: `npm run bench:guard -- --write-baseline, load average ${load}`,
        ratios: Object.fromEntries(Object.entries(ratios).map(([k, v]) => [k, Number(v.toFixed(2))])) as Record<
          Measure,
          number
        >,
      };
      fs.writeFileSync(BASELINE, `${JSON.stringify(baseline, null, 2)}\n`);
      console.log(`Wrote ${path.relative(process.cwd(), BASELINE)}.`);
    }
    const baseline = JSON.parse(fs.readFileSync(BASELINE, 'utf8')) as Baseline;
    let failed = 0;
    console.log(`Ratios against the bare servers (medians of ${ROUNDS} rounds; load average ${load}):`);
    for (const key of Object.keys(ratios) as Measure[]) {
      const floor = baseline.ratios[key] * (1 - TOLERANCE);
      const ok = ratios[key] >= floor;
      if (!ok) failed += 1;
      console.log(
        `  ${runs[key].label.padEnd(44)} ${ratios[key].toFixed(2)}  baseline ${baseline.ratios[key].toFixed(2)}, ` +
          `floor ${floor.toFixed(2)}  ${ok ? 'ok' : 'FELL'}`,
      );
    }
    console.log(`(${Math.round((Date.now() - started) / 1000)} s)`);
    process.exitCode = failed === 0 ? 0 : 1;
    if (failed > 0)
      console.log(`${failed} figure(s) fell more than ${TOLERANCE * 100}% below bench/guard-baseline.json.`);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** The answer's body as sent (compressed when the run asks for it). */
function fetchRaw(run: Run, { port }: Server): Promise<Buffer> {
  return rawBody(`http://127.0.0.1:${port}${run.request.url}`, (run.request.headers ?? {}) as Record<string, string>);
}

await main();
