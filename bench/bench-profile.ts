/**
 * `npx tsx bench/bench-profile.ts <scenario> [postgres url]`: one server of the benchmark under
 * `node --cpu-prof`, loaded by autocannon (50 connections, BENCH_SECONDS, default 8), then the
 * functions that took the most CPU (self time, and the share of the run) printed from the
 * profile. The profile itself is left in bench/profiles/ for Chrome's DevTools or speedscope.
 *
 *   read        GET /api/polls/active by a returning visitor who has not voted (signed cookie)
 *   first       the same read with no cookie
 *   voted       the same read by a voter who voted
 *   vote        POST a vote, a new voter and one of 4,096 networks each
 *   page        GET / as HTML (gzip), a visitor who has not voted (needs `npm run build` first)
 *   breakdown   GET /api/polls/:id/breakdown after the close (BENCH_VOTES votes, default 1,000)
 *   search      the search flood of bench-floods.ts (16 connections, 365 past polls): /search
 *               and /api/search, every query new, half ranking every past poll
 *
 * With a postgres:// URL the app runs on PostgreSQL (a schema of its own, dropped after).
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { addPastPolls, prepareDatabase, preparePostgres } from './bench-data.js';

const [scenario = 'read', pgUrl] = process.argv.slice(2);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const profiles = path.join(import.meta.dirname, 'profiles', `${scenario}${pgUrl ? '-pg' : ''}`);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'hot-take-profile-'));
fs.rmSync(profiles, { recursive: true, force: true });
fs.mkdirSync(profiles, { recursive: true });

const sqliteFile = path.join(work, 'profile.sqlite');
const data = pgUrl
  ? await preparePostgres(pgUrl)
  : await prepareDatabase(sqliteFile, Number(process.env.BENCH_VOTES ?? 1_000));
if (scenario === 'search' && !pgUrl) await addPastPolls(sqliteFile, 365);
const target = pgUrl ? (data as Awaited<ReturnType<typeof preparePostgres>>).url : sqliteFile;
const notVoted = 'voterCookieFor' in data ? data.voterCookieFor('R'.repeat(22)) : undefined;

// Pages need the built client and its server build (`npm run build`): the page server draws them.
const [script, args] =
  scenario === 'page'
    ? ['bench-page-server.ts', [target, path.resolve('dist/client')]]
    : ['bench-server.ts', [scenario === 'breakdown' ? 'app-closed' : 'app', target]];
if (scenario === 'page' && !fs.existsSync('dist/ssr/entry-server.js'))
  throw new Error('page needs npm run build first');
const child = fork(path.join(import.meta.dirname, script), args, {
  execArgv: ['--import', 'tsx', '--cpu-prof', `--cpu-prof-dir=${profiles}`],
  stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
});
const port = await new Promise<number>((resolve) =>
  child.once('message', (m) => resolve((m as { port: number }).port)),
);
const url = `http://127.0.0.1:${port}`;

let voter = 0;
let network = 0;
const options: autocannon.Options = (() => {
  switch (scenario) {
    case 'read':
      if (!notVoted) throw new Error('read needs SQLite');
      return { url: `${url}/api/polls/active`, headers: { cookie: `voter_id=${notVoted}` } };
    case 'first':
      return { url: `${url}/api/polls/active` };
    case 'breakdown':
      return { url: `${url}/api/polls/${data.pollId}/breakdown` };
    case 'voted':
      return { url: `${url}/api/polls/active`, headers: { cookie: `voter_id=${data.voterCookie}` } };
    case 'page':
      return {
        url: `${url}/`,
        headers: { 'accept-encoding': 'gzip', ...(notVoted ? { cookie: `voter_id=${notVoted}` } : {}) },
      };
    case 'vote':
      return {
        url: `${url}/api/polls/${data.pollId}/vote`,
        method: 'POST',
        body: '{"optionIndex":1,"voterEmail":""}',
        headers: { 'content-type': 'application/json' },
        requests: [
          {
            setupRequest: (req: autocannon.Request) => {
              voter += 1;
              network = (network + 1) % 4096;
              return {
                ...req,
                headers: {
                  ...req.headers,
                  'x-forwarded-for': `10.${network >> 8}.${network & 255}.${(network * 7) % 250}`,
                  cookie: `v=${voter}`,
                },
              };
            },
          },
        ],
      };
    case 'search': {
      let n = 0;
      return {
        url,
        connections: 16,
        headers: { 'accept-encoding': 'br, gzip' },
        requests: [
          {
            setupRequest: (req: autocannon.Request) => {
              n += 1;
              const page = `/search?q=schools+start+later&page=${(n % 18) + 1}&n=${n}`;
              return { ...req, path: n % 2 === 0 ? page : `/api/search?q=teenagers+${n}` };
            },
          },
        ],
      };
    }
    default:
      throw new Error(`unknown scenario ${scenario}`);
  }
})();

// The scenario's own connections (the search flood's 16), else BENCH_CONNECTIONS or 50.
const result = await autocannon({
  connections: Number(process.env.BENCH_CONNECTIONS ?? 50),
  ...options,
  duration: SECONDS,
});
console.log(
  `${scenario}${pgUrl ? ' (PostgreSQL)' : ''}: ${Math.round(result.requests.average)} req/s, p99 ${result.latency.p99} ms, ` +
    `${result.non2xx} non-2xx, load average ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
);
const exited = new Promise((resolve) => child.once('exit', resolve));
child.send('exit');
await exited;
if ('drop' in data) await (data as { drop: () => Promise<void> }).drop();
fs.rmSync(work, { recursive: true, force: true });

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount: number;
  children?: number[];
}
// tsx's loader thread writes a profile of its own: the main thread's is the largest.
const [largest] = fs
  .readdirSync(profiles)
  .map((name) => path.join(profiles, name))
  .sort((a, b) => fs.statSync(b).size - fs.statSync(a).size);
if (!largest) throw new Error('no profile was written');
const profile = JSON.parse(fs.readFileSync(largest, 'utf8')) as {
  nodes: ProfileNode[];
};
const total = profile.nodes.reduce((sum, node) => sum + node.hitCount, 0);
const self = new Map<string, number>();
for (const node of profile.nodes) {
  const { functionName, url: file, lineNumber } = node.callFrame;
  const where = file ? `${file.replace(/^.*\/(node_modules|src)\//, '$1/')}:${lineNumber + 1}` : '';
  const key = `${functionName || '(anonymous)'} ${where}`.trim();
  self.set(key, (self.get(key) ?? 0) + node.hitCount);
}
console.log('Self time, top 30 (share of all samples):');
for (const [key, hits] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 30)) {
  console.log(`  ${((100 * hits) / total).toFixed(1).padStart(5)}%  ${key}`);
}

// Inclusive time of the site's own functions: each sample counts once for every function of
// src/ on its stack.
const parent = new Map<number, ProfileNode>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node);
const keyOf = (node: ProfileNode) => {
  const { functionName, url: file, lineNumber } = node.callFrame;
  return file.includes('/src/')
    ? `${functionName || '(anonymous)'} ${file.replace(/^.*\/src\//, 'src/')}:${lineNumber + 1}`
    : null;
};
const inclusive = new Map<string, number>();
for (const node of profile.nodes) {
  if (node.hitCount === 0) continue;
  const seen = new Set<string>();
  for (let at: ProfileNode | undefined = node; at; at = parent.get(at.id)) {
    const key = keyOf(at);
    if (key) seen.add(key);
  }
  for (const key of seen) inclusive.set(key, (inclusive.get(key) ?? 0) + node.hitCount);
}
console.log("The site's own functions, inclusive, top 20:");
for (const [key, hits] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, 20)) {
  console.log(`  ${((100 * hits) / total).toFixed(1).padStart(5)}%  ${key}`);
}
