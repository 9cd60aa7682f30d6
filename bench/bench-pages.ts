/**
 * Server-drawn pages in `npm run bench`: GET / as HTML for a visitor who voted and one who has
 * not, against a bare node:http server returning today's poll as JSON, all in the same run,
 * interleaved. Each round gives each page's ratio to the bare server's figure of that round; the
 * ratio reported is the median of the rounds' ratios, over 5 rounds unless BENCH_ROUNDS says.
 * The pages are asked for as Chromium asks (Accept-Encoding: gzip, deflate, br, zstd); for
 * information, also as a client that takes no compression.
 * Target: pages at 0.35 or more of the bare JSON server's requests per second.
 */
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import autocannon from 'autocannon';
import { build } from 'vite';
import { prepareDatabase } from './bench-data.js';
import { median } from '../src/shared/median.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const WARMUP_SECONDS = 3;
export const PAGE_TARGET = 0.35;

interface Server {
  url: string;
  child: ChildProcess;
}

export async function start(script: string, args: string[]): Promise<Server> {
  const child = fork(path.join(import.meta.dirname, script), args, {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message) => resolve((message as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, child };
}

export async function stop(server: Server) {
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await exited;
}

/**
 * The browser's and the server's builds of the app, into `dir`/client and `dir`/ssr, built once
 * per run of the benchmark (the floods draw pages with it too).
 */
export async function buildSite(dir: string): Promise<string> {
  const outDir = path.join(dir, 'client');
  if (fs.existsSync(path.join(dir, 'ssr', 'entry-server.js'))) return outDir;
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    const config = { configFile: path.resolve('vite.config.ts'), mode: 'production', logLevel: 'warn' as const };
    await build({ ...config, build: { outDir, emptyOutDir: true } });
    await build({ ...config, build: { ssr: 'entry-server.tsx', outDir: path.join(dir, 'ssr'), emptyOutDir: true } });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  return outDir;
}

/** A server to measure: its process, and the request autocannon repeats (GET `path`, default /). */
export interface RoundScenario {
  label: string;
  script: string;
  args: string[];
  headers: Record<string, string>;
  path?: string;
}

/**
 * Each scenario measured once per round, in turn, each on a fresh server after a warm-up: the
 * requests per second of every round, and the bytes of one answer.
 */
export async function measureRounds(
  scenarios: readonly RoundScenario[],
): Promise<{ runs: Map<string, number[]>; bytes: Map<string, number> }> {
  const runs = new Map<string, number[]>(scenarios.map((s) => [s.label, []]));
  const bytes = new Map<string, number>();
  for (let round = 1; round <= ROUNDS; round += 1) {
    process.stdout.write(`  round ${round} of ${ROUNDS}...`);
    for (const scenario of scenarios) {
      execFileSync('sync');
      const server = await start(scenario.script, scenario.args);
      try {
        const url = `${server.url}${scenario.path ?? '/'}`;
        const options = { url, headers: scenario.headers, connections: CONNECTIONS };
        await autocannon({ ...options, duration: WARMUP_SECONDS });
        const result = await autocannon({ ...options, duration: SECONDS });
        if (result.non2xx > 0 || result.errors > 0) {
          throw new Error(`${scenario.label}: ${result.non2xx} non-2xx answers and ${result.errors} errors`);
        }
        runs.get(scenario.label)?.push(result.requests.average);
        bytes.set(scenario.label, Math.round(result.throughput.average / result.requests.average));
      } finally {
        await stop(server);
      }
    }
    process.stdout.write(' done\n');
  }
  return { runs, bytes };
}

/** Measures and prints the pages' figures; true when the target is met. */
export async function measurePages(work: string): Promise<boolean> {
  console.log('\nServer-drawn pages (GET / as HTML), against bare JSON in the same run:');
  const clientDir = await buildSite(path.join(work, 'site'));
  const db = path.join(work, 'pages.sqlite');
  const { voterCookie, voterCookieFor } = await prepareDatabase(db, 1_000);
  execFileSync('sync');

  // The bare server returns today's poll exactly as the app's API answers it to a voter.
  const app = await start('bench-page-server.ts', [db, clientDir]);
  const json = path.join(work, 'pages-active.json');
  const voted = { cookie: `voter_id=${voterCookie}` };
  const asBrowsers = { 'accept-encoding': 'gzip, deflate, br, zstd' };
  const notVoted = { cookie: `voter_id=${voterCookieFor('R'.repeat(22))}` };
  const sameBytes = path.join(work, 'pages-voted-page.bin');
  try {
    fs.writeFileSync(json, await (await fetch(`${app.url}/api/polls/active`, { headers: voted })).text());
    // The voter's page exactly as a browser gets it (compressed), for a bare server to send.
    fs.writeFileSync(sameBytes, await rawBody(`${app.url}/`, { ...voted, ...asBrowsers }));
    for (const headers of [voted, notVoted]) {
      const page = await fetch(`${app.url}/`, { headers });
      const html = await page.text();
      if (page.status !== 200 || !html.includes('class="poll-card'))
        throw new Error('GET / did not answer the drawn page');
    }
  } finally {
    await stop(app);
  }

  const scenarios = [
    {
      label: 'bare node:http, today’s poll as JSON',
      script: 'bench-server.ts',
      args: ['bare-json', json],
      headers: {},
      target: false,
    },
    {
      // The client's and the kernel's share of a page's cost grows with its size: a bare server
      // sending the very bytes the app sends a voter shows what is left to the app.
      label: 'bare node:http, the voter’s page’s bytes',
      script: 'bench-server.ts',
      args: ['bare-json', sameBytes],
      headers: {},
      target: false,
    },
    {
      label: 'app: GET / (HTML), a voter who voted',
      script: 'bench-page-server.ts',
      args: [db, clientDir],
      headers: { ...voted, ...asBrowsers },
      target: true,
    },
    {
      label: 'app: GET / (HTML), not voted yet',
      script: 'bench-page-server.ts',
      args: [db, clientDir],
      headers: { ...notVoted, ...asBrowsers },
      target: true,
    },
    {
      label: 'app: GET / (HTML), voted, no compression',
      script: 'bench-page-server.ts',
      args: [db, clientDir],
      headers: voted,
      target: false,
    },
  ];
  const { runs, bytes } = await measureRounds(scenarios);
  const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
  const rate = (label: string) => median(runs.get(label) ?? []);
  for (const { label } of scenarios) {
    const rates = runs.get(label) ?? [];
    console.log(
      `  ${label.padEnd(48)} ${fmt(rate(label)).padStart(8)} req/s  (runs ${fmt(Math.min(...rates))}-${fmt(Math.max(...rates))}, ${fmt(bytes.get(label) ?? 0)} bytes each)`,
    );
  }
  // Each round's page figure against the bare server's in the same round, a few seconds apart:
  // the VM's speed drifts more between rounds than within one.
  const bareRuns = runs.get(scenarios[0]?.label ?? '') ?? [];
  let met = true;
  const sameBytesRuns = runs.get(scenarios[1]?.label ?? '') ?? [];
  const ratioLine = (label: string, against: string, pageRuns: number[], bare: number[], target: number | null) => {
    const ratios = pageRuns.map((pageRate, i) => pageRate / (bare[i] ?? Number.NaN));
    const ratio = median(ratios);
    const verdict =
      target === null ? '(for information)' : `target >= ${target.toFixed(2)}   ${ratio >= target ? 'met' : 'MISSED'}`;
    console.log(
      `  ${`${label.slice(5)} / ${against}`.padEnd(58)} ${ratio.toFixed(2).padStart(6)}   ${verdict}` +
        `   (rounds ${ratios.map((r) => r.toFixed(2)).join(', ')})`,
    );
    return target === null || ratio >= target;
  };
  for (const scenario of scenarios.slice(2)) {
    const pageRuns = runs.get(scenario.label) ?? [];
    met = ratioLine(scenario.label, 'bare JSON', pageRuns, bareRuns, scenario.target ? PAGE_TARGET : null) && met;
  }
  const voterPage = scenarios[2]?.label ?? '';
  ratioLine(voterPage, 'the same bytes, bare', runs.get(voterPage) ?? [], sameBytesRuns, null);
  return met;
}

// `tsx bench/bench-pages.ts` measures the pages alone.
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const work = fs.mkdtempSync(path.join((await import('node:os')).tmpdir(), 'hot-take-bench-pages-'));
  try {
    process.exitCode = (await measurePages(work)) ? 0 : 1;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** A response's body as it came over the wire (not decompressed, as fetch would). */
export function rawBody(url: string, headers: Record<string, string>): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve(Buffer.concat(chunks)));
        response.on('error', reject);
      })
      .on('error', reject);
  });
}
