/**
 * `npx tsx bench/og-flood.ts`: what a flood of link-preview requests does to the rest of the
 * site. The real server runs in its own process on a SQLite file of 400 past polls; from here,
 * FLOOD_CONNECTIONS loops ask for different /og/poll-N.png images (more than the cache keeps,
 * so every one is drawn) for FLOOD_SECONDS while /healthz is timed one request after another
 * and the server's memory (RSS) is read from /proc. Prints /healthz latency with and without
 * the flood, the images served and refused, and the peak RSS.
 *
 *   FLOOD_SECONDS      seconds of flood (default 20)
 *   FLOOD_CONNECTIONS  concurrent image requests (default 16)
 *   FLOOD_BUILT=1      run the built server (dist/server, after `npm run build`) instead of src
 *   FLOOD_TRACE=1      also print the server's RSS each second
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { openDatabase } from '../src/server/db/connection.js';
import { migrateToLatest } from '../src/server/db/migrate.js';
import { seedPoll } from '../src/server/testing/fixtures.js';

const SECONDS = Number(process.env.FLOOD_SECONDS ?? 20);
const CONNECTIONS = Number(process.env.FLOOD_CONNECTIONS ?? 16);
const POLLS = 400;

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'hot-take-og-flood-'));
const file = path.join(work, 'flood.sqlite');
const db = openDatabase({ kind: 'sqlite', file });
await migrateToLatest(db);
for (let i = 0; i < POLLS; i += 1) {
  const day = new Date(Date.UTC(2025, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
  await seedPoll(db, {
    status: 'past',
    liveDate: day,
    question: `Flood poll ${i}: should schools start later?`,
    votes: [i % 7, 3, 1],
  });
}
await db.destroy();

const entry = process.env.FLOOD_BUILT
  ? [path.resolve(import.meta.dirname, '../dist/server/main.js')]
  : ['--import', 'tsx', path.resolve(import.meta.dirname, '../src/server/main.ts')];
const server = spawn(process.execPath, entry, {
  env: {
    PATH: process.env.PATH ?? '',
    PORT: '0',
    DATABASE_URL: file,
    LOG_LEVEL: 'info',
    ADMIN_PASSWORD: 'flood test password',
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const base = await new Promise<string>((resolve, reject) => {
  readline.createInterface({ input: server.stdout }).on('line', (line) => {
    const address = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line)?.[1];
    if (address) resolve(address);
  });
  server.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
});

const rss = () =>
  Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${server.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ?? 0;

async function timeHealth(until: () => boolean): Promise<number[]> {
  const times: number[] = [];
  while (until()) {
    const started = performance.now();
    const response = await fetch(`${base}/healthz`);
    await response.arrayBuffer();
    times.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return times;
}

await (await fetch(`${base}/og/poll-1.png`)).arrayBuffer(); // loads the renderer
const rssIdle = rss();
let quietCount = 0;
const quiet = await timeHealth(() => quietCount++ < 150);

const statuses = new Map<number, number>();
let next = 2;
let flooding = true;
let peak = rssIdle;
const trace: number[] = [];
const memory = setInterval(() => {
  peak = Math.max(peak, rss());
  trace.push(Math.round(rss()));
}, 1000);
const loops = Array.from({ length: CONNECTIONS }, async () => {
  while (flooding) {
    const response = await fetch(`${base}/og/poll-${(next++ % POLLS) + 1}.png`);
    await response.arrayBuffer();
    statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
  }
});
const ends = Date.now() + SECONDS * 1000;
const busy = await timeHealth(() => Date.now() < ends);
flooding = false;
await Promise.all(loops);
clearInterval(memory);

const row = (label: string, times: number[]) =>
  `${label}: ${times.length} requests, median ${percentile(times, 0.5).toFixed(1)} ms, p95 ${percentile(times, 0.95).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms`;
console.log(row('/healthz, quiet', quiet));
console.log(row(`/healthz, ${CONNECTIONS} connections asking for images for ${SECONDS} s`, busy));
console.log(`images: ${[...statuses].map(([status, count]) => `${count} × ${status}`).join(', ')}`);
if (process.env.FLOOD_TRACE) console.log(`RSS each second: ${trace.join(' ')}`);
console.log(
  `server RSS: ${rssIdle.toFixed(0)} MB after the first image, ${peak.toFixed(0)} MB at the peak of the flood`,
);

server.kill('SIGTERM');
await new Promise((resolve) => server.once('exit', resolve));
fs.rmSync(work, { recursive: true, force: true });
