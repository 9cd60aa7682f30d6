/**
 * One server of the benchmark, in its own process: the real app, or a bare Node `http` server
 * as the yardstick. Prints nothing; tells the parent its port over IPC.
 *
 *   app <sqlite file>            the site, as `npm start` runs it (logging on, to /dev/null),
 *                                at 10:00 on the poll's day, voting open
 *   app-closed <sqlite file>     the same at 21:00, after the close
 *   bare-insert <sqlite file>    node:http + one better-sqlite3 insert per request, into the
 *                                same migrated votes table (same indexes, same tally trigger)
 *   bare-minimal <sqlite file>   node:http + one better-sqlite3 insert per request into a table
 *                                of its own with one unique index and no trigger (WAL,
 *                                synchronous=NORMAL): the least a vote can cost
 *   bare-pg <postgres url>       node:http + pg (a pool of 10) + one insert per request into such
 *                                a table on PostgreSQL
 *   bare-json <json file>        node:http returning fixed JSON
 *   fastify-bytes <file>         Fastify with no plugins, one route sending that file's bytes as
 *                                they are: the framework's own floor, which the guard holds the
 *                                reads (today's poll as JSON) and the page (its brotli bytes) against
 *
 * The app modes take a postgres:// URL as well as a SQLite file.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import BetterSqlite3 from 'better-sqlite3';
import Fastify from 'fastify';
import pg from 'pg';
import { withDefaultPostgresUser } from '../src/server/db/connection.js';
import { buildApp } from '../src/server/app.js';
import { loadConfig } from '../src/server/config.js';
import { BENCH_ADMIN_EMAIL, BENCH_ADMIN_PASSWORD, BENCH_AFTER_CLOSE, BENCH_NOW } from './bench-data.js';

const [mode, file] = process.argv.slice(2);
if (!mode || !file) throw new Error('usage: bench-server <mode> <file>');

function ready(port: number) {
  process.send?.({ port });
}

// "exit" over IPC ends the process cleanly, so `--cpu-prof` writes its profile (bench-profile.ts).
process.on('message', (message) => {
  if (message === 'exit') process.exit(0);
});

if (mode === 'app' || mode === 'app-closed') {
  const config = loadConfig({
    DATABASE_URL: file,
    RATE_LIMIT_WRITES_PER_MINUTE: '0',
    // The load generator stands for a proxy, naming each vote's network (bench.ts), so votes
    // come from many address buckets as real traffic does, not all from 127.0.0.1.
    TRUST_PROXY: '127.0.0.1',
    PORT: '0',
    ADMIN_EMAIL: BENCH_ADMIN_EMAIL,
    ADMIN_PASSWORD: BENCH_ADMIN_PASSWORD,
  });
  // The clock runs from 10:00 in New York, so votes are open whenever the benchmark runs (or
  // from 21:00, when they have closed).
  const offset = new Date(mode === 'app' ? BENCH_NOW : BENCH_AFTER_CLOSE).getTime() - Date.now();
  const app = await buildApp({
    config,
    clock: { now: () => new Date(Date.now() + offset) },
    announceAdminPassword: () => undefined,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  ready((app.server.address() as AddressInfo).port);
} else if (mode === 'bare-insert') {
  const db = new BetterSqlite3(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  const pollId = (db.prepare("select id from polls where status = 'active'").get() as { id: number }).id;
  const insert = db.prepare(
    `insert into votes (poll_id, voter_id, option_index, voter_email, voted_on, created_at)
     values (?, ?, ?, null, ?, ?) on conflict do nothing`,
  );
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString()) as { optionIndex: number };
      const now = new Date();
      insert.run(
        pollId,
        randomBytes(16).toString('base64url'),
        body.optionIndex,
        now.toISOString().slice(0, 10),
        now.toISOString(),
      );
      response.writeHead(201, { 'content-type': 'application/json' });
      response.end('{"message":"Vote recorded"}');
    });
  });
  server.listen(0, '127.0.0.1', () => ready((server.address() as AddressInfo).port));
} else if (mode === 'bare-minimal') {
  const db = new BetterSqlite3(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(`create table if not exists bare_votes (id integer primary key, poll_id integer not null,
    voter_id text not null, option_index integer not null, created_at text not null, unique (poll_id, voter_id))`);
  const insert = db.prepare('insert into bare_votes (poll_id, voter_id, option_index, created_at) values (1, ?, ?, ?)');
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString()) as { optionIndex: number };
      insert.run(randomBytes(16).toString('base64url'), body.optionIndex, new Date().toISOString());
      response.writeHead(201, { 'content-type': 'application/json' });
      response.end('{"message":"Vote recorded"}');
    });
  });
  server.listen(0, '127.0.0.1', () => ready((server.address() as AddressInfo).port));
} else if (mode === 'bare-pg') {
  const pool = new pg.Pool({ connectionString: withDefaultPostgresUser(file), max: 10 });
  await pool.query(`create table if not exists bare_votes (id bigserial primary key, poll_id integer not null,
    voter_id text not null, option_index integer not null, created_at timestamptz not null, unique (poll_id, voter_id))`);
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString()) as { optionIndex: number };
      pool
        .query('insert into bare_votes (poll_id, voter_id, option_index, created_at) values (1, $1, $2, $3)', [
          randomBytes(16).toString('base64url'),
          body.optionIndex,
          new Date(),
        ])
        .then(
          () => {
            response.writeHead(201, { 'content-type': 'application/json' });
            response.end('{"message":"Vote recorded"}');
          },
          () => {
            response.writeHead(500);
            response.end();
          },
        );
    });
  });
  server.listen(0, '127.0.0.1', () => ready((server.address() as AddressInfo).port));
} else if (mode === 'bare-json') {
  const body = fs.readFileSync(file);
  const server = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    response.end(body);
  });
  server.listen(0, '127.0.0.1', () => ready((server.address() as AddressInfo).port));
} else if (mode === 'fastify-bytes') {
  const body = fs.readFileSync(file);
  const app = Fastify({ logger: false });
  app.get('/*', (_request, reply) => {
    void reply.header('content-type', 'application/json; charset=utf-8').send(body);
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  ready((app.server.address() as AddressInfo).port);
} else {
  throw new Error(`unknown mode ${mode}`);
}
