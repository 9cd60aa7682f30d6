/**
 * `npm run bench`: how fast the site votes and reads, next to a bare Node server doing the least
 * possible work, and whether reading results costs the same at 1,000 votes and at 1,000,000.
 * Each server runs alone in its own process; autocannon runs here. Prints each figure and each
 * ratio against its target, and exits 1 when a target is missed.
 *
 *   BENCH_SECONDS      seconds per measured run (default 10)
 *   BENCH_CONNECTIONS  concurrent connections (default 10)
 */
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { prepareDatabase } from './bench-data.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const WARMUP_SECONDS = 3;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'hot-take-bench-'));

interface Measurement {
  label: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
}

interface Server {
  url: string;
  child: ChildProcess;
}

async function startServer(mode: string, file: string): Promise<Server> {
  const child = fork(path.join(import.meta.dirname, 'bench-server.ts'), [mode, file], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message) => resolve((message as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`${mode} server exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, child };
}

async function stopServer(server: Server) {
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await exited;
}

interface Request {
  path: string;
  method?: 'GET' | 'POST';
  body?: string;
  headers?: Record<string, string>;
}

async function load(url: string, request: Request, seconds: number): Promise<autocannon.Result> {
  return autocannon({
    url: `${url}${request.path}`,
    method: request.method ?? 'GET',
    ...(request.body === undefined ? {} : { body: request.body }),
    headers: request.headers ?? {},
    connections: CONNECTIONS,
    duration: seconds,
  });
}

/** Warms the server up, then measures it; any non-2xx answer spoils the run. */
async function measure(label: string, mode: string, file: string, request: Request): Promise<Measurement> {
  const server = await startServer(mode, file);
  try {
    await load(server.url, request, WARMUP_SECONDS);
    const result = await load(server.url, request, SECONDS);
    if (result.non2xx > 0 || result.errors > 0) {
      throw new Error(`${label}: ${result.non2xx} non-2xx answers and ${result.errors} errors`);
    }
    const measurement = {
      label,
      requestsPerSecond: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
    };
    console.log(
      `  ${label.padEnd(46)} ${Math.round(measurement.requestsPerSecond).toLocaleString('en-US').padStart(8)} req/s` +
        `   p50 ${String(measurement.p50).padStart(3)} ms   p99 ${String(measurement.p99).padStart(3)} ms`,
    );
    return measurement;
  } finally {
    await stopServer(server);
  }
}

const verdicts: boolean[] = [];
function ratio(name: string, value: number, target: string, met: boolean) {
  verdicts.push(met);
  console.log(`  ${`=> ${name}`.padEnd(46)} ${value.toFixed(2).padStart(8)}         target ${target}   ${met ? 'met' : 'MISSED'}\n`);
}

async function main() {
  console.log(
    `Teacher Hot Take benchmark: ${SECONDS} s per run after ${WARMUP_SECONDS} s warm-up, ${CONNECTIONS} connections,` +
      ` Node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'})\n`,
  );

  // Every database is filled before anything is measured, and flushed to disk, so no run
  // competes with the kernel writing back another's pages.
  const started = Date.now();
  const voteDb = path.join(work, 'votes.sqlite');
  const bareDb = path.join(work, 'bare.sqlite');
  const smallDb = path.join(work, 'small.sqlite');
  const largeDb = path.join(work, 'large.sqlite');
  const { pollId } = await prepareDatabase(voteDb, 0);
  await prepareDatabase(bareDb, 0);
  const small = await prepareDatabase(smallDb, 1_000);
  const large = await prepareDatabase(largeDb, 1_000_000);
  execFileSync('sync');
  console.log(`(databases ready in ${((Date.now() - started) / 1000).toFixed(1)} s: 0, 1,000 and 1,000,000 votes)\n`);

  console.log('Votes (POST, every request a new voter, no cookie):');
  const ballot = { method: 'POST' as const, body: '{"optionIndex":1,"voterEmail":""}', headers: { 'content-type': 'application/json' } };
  const appVotes = await measure('app: POST /api/polls/:id/vote', 'app', voteDb, { path: `/api/polls/${pollId}/vote`, ...ballot });
  const bareVotes = await measure('bare node:http + the same insert, better-sqlite3', 'bare-insert', bareDb, { path: '/', ...ballot });
  const voteRatio = appVotes.requestsPerSecond / bareVotes.requestsPerSecond;
  ratio('app / bare', voteRatio, '>= 0.60', voteRatio >= 0.6);

  const activeAs = (voterId?: string) => ({
    path: '/api/polls/active',
    ...(voterId === undefined ? {} : { headers: { cookie: `voter_id=${voterId}` } }),
  });
  const notVoted = 'R'.repeat(22);

  console.log('Reads: GET /api/polls/active, 1,000 votes stored (1,000,000 beside it):');
  const appVoted = await measure('app: a voter who voted (the 30 s refetch)', 'app', smallDb, activeAs(small.voterId));
  const largeVoted = await measure('   the same, 1,000,000 votes', 'app', largeDb, activeAs(large.voterId));
  const appReturning = await measure('app: a returning visitor, not voted yet', 'app', smallDb, activeAs(notVoted));
  const largeReturning = await measure('   the same, 1,000,000 votes', 'app', largeDb, activeAs(notVoted));
  await measure('app: a first visit, no cookie', 'app', smallDb, activeAs());
  const fixedJson = path.join(work, 'active.json');
  const answer = await fetchOnce('app', smallDb, activeAs(small.voterId));
  fs.writeFileSync(fixedJson, answer);
  const bare = await measure(`bare node:http, fixed JSON (${answer.length} bytes)`, 'bare-json', fixedJson, { path: '/' });
  const readRatio = appVoted.requestsPerSecond / bare.requestsPerSecond;
  ratio('app (voter who voted) / bare', readRatio, '>= 0.50', readRatio >= 0.5);
  console.log(
    `  (a returning visitor who has not voted: ${(appReturning.requestsPerSecond / bare.requestsPerSecond).toFixed(2)} of bare)\n`,
  );

  console.log('Reading at scale (1,000 votes against 1,000,000, same request):');
  const votedScale = appVoted.requestsPerSecond / largeVoted.requestsPerSecond;
  ratio('voter who voted: 1k reads/s / 1M reads/s', votedScale, '<= 1.20', votedScale <= 1.2);
  const returningScale = appReturning.requestsPerSecond / largeReturning.requestsPerSecond;
  ratio('returning visitor: 1k reads/s / 1M reads/s', returningScale, '<= 1.20', returningScale <= 1.2);

  fs.rmSync(work, { recursive: true, force: true });
  const missed = verdicts.filter((met) => !met).length;
  console.log(missed === 0 ? 'All targets met.' : `${missed} target(s) missed.`);
  process.exitCode = missed === 0 ? 0 : 1;
}

/** The app's answer to one request, to serve as the bare server's fixed JSON. */
async function fetchOnce(mode: string, file: string, request: Request): Promise<string> {
  const server = await startServer(mode, file);
  try {
    const response = await fetch(`${server.url}${request.path}`, { headers: request.headers ?? {} });
    return await response.text();
  } finally {
    await stopServer(server);
  }
}

await main();
