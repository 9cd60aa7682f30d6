/**
 * The site with its pages (the built client and its server build) for bench-pages.ts, in its
 * own process, at 10:00 on the poll's day. Tells the parent its port over IPC.
 *
 *   bench-page-server <sqlite file> <client dir>     (the server build is in <client dir>/../ssr)
 */
import type { AddressInfo } from 'node:net';
import { buildApp } from '../src/server/app.js';
import { loadConfig } from '../src/server/config.js';
import { BENCH_ADMIN_EMAIL, BENCH_ADMIN_PASSWORD, BENCH_NOW } from './bench-data.js';

const [file, clientDir] = process.argv.slice(2);
if (!file || !clientDir) throw new Error('usage: bench-page-server <sqlite file> <client dir>');

const config = loadConfig({
  DATABASE_URL: file,
  RATE_LIMIT_WRITES_PER_MINUTE: '0',
  PORT: '0',
  ADMIN_EMAIL: BENCH_ADMIN_EMAIL,
  ADMIN_PASSWORD: BENCH_ADMIN_PASSWORD,
});
const offset = new Date(BENCH_NOW).getTime() - Date.now();
const app = await buildApp({
  config,
  clientDir,
  clock: { now: () => new Date(Date.now() + offset) },
  announceAdminPassword: () => undefined,
});
await app.listen({ port: 0, host: '127.0.0.1' });
process.send?.({ port: (app.server.address() as AddressInfo).port });
// bench-profile.ts asks it to exit, so that --cpu-prof writes its profile.
process.on('message', (message) => {
  if (message === 'exit') process.exit(0);
});
