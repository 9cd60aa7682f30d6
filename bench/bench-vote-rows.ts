/**
 * `npx tsx bench/bench-vote-rows.ts`: what one vote's row costs SQLite, against the minimal bare
 * insert's row (issue 35 item 4: why votes stay under the minimal insert on a fast disk). Batches
 * of 50 in one transaction each, as the app's group commit writes them, into tables shaped like
 * `votes` with parts taken away, interleaved over 5 rounds, medians. No HTTP, no triggers (their
 * share is measured against the real table in docs/performance.md).
 */
import { randomBytes } from 'node:crypto';
import BetterSqlite3 from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { median } from '../src/shared/median.js';
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'rows-'));
const db = new BetterSqlite3(path.join(work, 'r.sqlite'));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
const cols = `poll_id integer not null, voter_id text not null, option_index integer not null, voter_email text, voted_on text not null, created_at text not null, status text default 'counted' not null, bucket text, page_ms integer, cookie_age_s integer, discount_id integer, voter_profile text`;
const variants: Record<string, string[]> = {
  minimal: [
    `create table t (id integer primary key, poll_id integer not null, voter_id text not null, option_index integer not null, created_at text not null, unique (poll_id, voter_id))`,
  ],
  'votes before 0027 (4 indexes, autoincrement)': [
    `create table t (id integer primary key autoincrement, ${cols}, unique (voter_id, poll_id), unique (poll_id, voter_email))`,
    `create index t_order on t (poll_id, id)`,
    `create index t_bucket on t (poll_id, bucket, created_at)`,
  ],
  'without autoincrement': [
    `create table t (id integer primary key, ${cols}, unique (voter_id, poll_id), unique (poll_id, voter_email))`,
    `create index t_order on t (poll_id, id)`,
    `create index t_bucket on t (poll_id, bucket, created_at)`,
  ],
  'e-mail index partial': [
    `create table t (id integer primary key autoincrement, ${cols}, unique (voter_id, poll_id))`,
    `create unique index t_email on t (poll_id, voter_email) where voter_email is not null`,
    `create index t_order on t (poll_id, id)`,
    `create index t_bucket on t (poll_id, bucket, created_at)`,
  ],
  // Migration 0027's row: what the votes table is now.
  'both (the votes table after 0027)': [
    `create table t (id integer primary key, ${cols}, unique (voter_id, poll_id))`,
    `create unique index t_email on t (poll_id, voter_email) where voter_email is not null`,
    `create index t_order on t (poll_id, id)`,
    `create index t_bucket on t (poll_id, bucket, created_at)`,
  ],
  'both, no poll_order index': [
    `create table t (id integer primary key, ${cols}, unique (voter_id, poll_id))`,
    `create unique index t_email on t (poll_id, voter_email) where voter_email is not null`,
    `create index t_bucket on t (poll_id, bucket, created_at)`,
  ],
};
const results: Record<string, number[]> = {};
const now = new Date().toISOString();
for (let round = 0; round < 5; round++) {
  for (const [label, ddl] of Object.entries(variants)) {
    db.exec('drop table if exists t');
    for (const s of ddl) db.exec(s);
    const minimal = label === 'minimal';
    const stmt = minimal
      ? db.prepare('insert into t (poll_id, voter_id, option_index, created_at) values (1, ?, ?, ?)')
      : db.prepare(
          `insert into t (poll_id, voter_id, option_index, voter_email, voted_on, created_at, status, bucket) values (1, ?, ?, null, ?, ?, 'counted', ?) on conflict do nothing`,
        );
    const rows = 30_000;
    const batch = 50;
    const insert = (j: number) => {
      const voterId = randomBytes(16).toString('base64url');
      if (minimal) stmt.run(voterId, j % 2, now);
      else stmt.run(voterId, j % 2, now.slice(0, 10), now, randomBytes(8).toString('hex'));
    };
    const started = process.hrtime.bigint();
    for (let i = 0; i < rows; i += batch) {
      db.transaction(() => {
        for (let j = 0; j < batch; j++) insert(j);
      })();
    }
    (results[label] ??= []).push(Number(process.hrtime.bigint() - started) / 1000 / rows);
  }
}

const base = median(results.minimal ?? []);
for (const [label, r] of Object.entries(results)) {
  console.log(`${label.padEnd(48)} ${median(r).toFixed(1)} µs/row, ${(median(r) / base).toFixed(2)}× minimal`);
}
fs.rmSync(work, { recursive: true, force: true });
