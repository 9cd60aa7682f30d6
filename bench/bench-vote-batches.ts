/**
 * `npx tsx bench/bench-vote-batches.ts`: what one vote costs SQLite through the app's own batch
 * insert (votes.repository.ts insertVoteBatch, 50 votes a transaction as the group commit writes
 * them), on the real schema: before migration 0027 (0026), after it, and after it with the
 * votes triggers dropped (the floor any other way of keeping the tallies could reach). No HTTP.
 * Interleaved over 5 rounds, medians, against the minimal bare row of bench-vote-rows.ts.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Migrator, sql } from 'kysely';
import { openDatabase, sqliteHandleOf, type Db } from '../src/server/db/connection.js';
import { migrations } from '../src/server/db/migrations/index.js';
import { insertVoteBatch, type NewVote } from '../src/server/votes/votes.repository.js';
import { seedPoll } from '../src/server/testing/fixtures.js';
import { median } from '../src/shared/median.js';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'vote-batches-'));
const VOTES = 20_000;
const BATCH = 50;

async function open(name: string, migration: string, dropTriggers: boolean): Promise<{ db: Db; pollId: number }> {
  const db = openDatabase({ kind: 'sqlite', file: path.join(work, `${name}.sqlite`) } as never);
  const { error } = await new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
  }).migrateTo(migration);
  if (error) throw error instanceof Error ? error : new Error(`migrating to ${migration} failed`);
  const poll = await seedPoll(db, { votes: [10, 10, 10] });
  if (dropTriggers) {
    const { rows } = await sql<{ name: string }>`select name from sqlite_master
      where type = 'trigger' and tbl_name = 'votes'`.execute(db);
    for (const { name: trigger } of rows) await sql`drop trigger ${sql.id(trigger)}`.execute(db);
  }
  return { db, pollId: poll.id };
}

const variants = {
  'votes before 0027 (0026), triggers': await open('before', '0026-integrity-alerts', false),
  'votes after 0027, triggers': await open('after', '0027-cheaper-vote-row', false),
  'votes after 0027, no triggers': await open('bare', '0027-cheaper-vote-row', true),
};
const minimal = (() => {
  const sqlite = sqliteHandleOf(variants['votes after 0027, no triggers'].db);
  if (!sqlite) throw new Error('not opened by openDatabase');
  sqlite.exec(`create table minimal (id integer primary key, poll_id integer not null, voter_id text not null,
    option_index integer not null, created_at text not null, unique (poll_id, voter_id))`);
  const insert = sqlite.prepare(
    'insert into minimal (poll_id, voter_id, option_index, created_at) values (1, ?, ?, ?)',
  );
  const write = sqlite.transaction((n: number) => {
    for (let j = 0; j < n; j++) insert.run(randomBytes(16).toString('base64url'), j % 3, new Date().toISOString());
  });
  return () => {
    for (let i = 0; i < VOTES; i += BATCH) write(BATCH);
  };
})();

const results: Record<string, number[]> = { 'minimal bare row': [] };
for (let round = 0; round < 5; round++) {
  let started = process.hrtime.bigint();
  minimal();
  (results['minimal bare row'] ??= []).push(Number(process.hrtime.bigint() - started) / 1000 / VOTES);
  for (const [label, { db, pollId }] of Object.entries(variants)) {
    const now = new Date().toISOString();
    started = process.hrtime.bigint();
    for (let i = 0; i < VOTES; i += BATCH) {
      const batch: NewVote[] = Array.from({ length: BATCH }, (_, j) => ({
        pollId,
        voterId: randomBytes(16).toString('base64url'),
        optionIndex: j % 3,
        voterEmail: null,
        votedOn: now.slice(0, 10),
        createdAt: now,
        status: 'counted',
        bucket: randomBytes(8).toString('hex'),
        pageMs: 4000,
        cookieAgeS: null,
      }));
      await insertVoteBatch(db, batch);
    }
    (results[label] ??= []).push(Number(process.hrtime.bigint() - started) / 1000 / VOTES);
  }
}
const base = median(results['minimal bare row'] ?? []);
for (const [label, r] of Object.entries(results)) {
  console.log(`${label.padEnd(40)} ${median(r).toFixed(1)} µs/vote, ${(median(r) / base).toFixed(2)}× minimal`);
}
for (const { db } of Object.values(variants)) await db.destroy();
fs.rmSync(work, { recursive: true, force: true });
