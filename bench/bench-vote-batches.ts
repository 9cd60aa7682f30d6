/**
 * `npx tsx bench/bench-vote-batches.ts`: what one vote costs SQLite, 50 votes a transaction as the
 * group commit writes them, on the real schema: before migration 0027 (0026) and after it with
 * the batch insert as it was (one statement per vote, the row triggers counting), after it
 * through the app's own insertVoteBatch (the tallies added once per batch), and after it with
 * no triggers and no tallies (the floor). No HTTP.
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
import { voterProfileSql } from '../src/server/weighting/profile-copy.js';

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

/** The batch insert before 0027: one statement per vote in one transaction, the row triggers counting. */
function perRowWriter(db: Db): (votes: NewVote[]) => void {
  const sqlite = sqliteHandleOf(db);
  if (!sqlite) throw new Error('not opened by openDatabase');
  const insert = sqlite.prepare(
    `insert into votes (poll_id, voter_id, option_index, voter_email, voted_on, created_at,
       status, bucket, page_ms, cookie_age_s, voter_profile)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ${voterProfileSql('?')}) on conflict do nothing returning id`,
  );
  const write = sqlite.transaction((votes: NewVote[]) => {
    for (const v of votes) {
      insert.get(
        v.pollId,
        v.voterId,
        v.optionIndex,
        v.voterEmail,
        v.votedOn,
        v.createdAt,
        v.status ?? 'counted',
        v.bucket ?? null,
        v.pageMs ?? null,
        v.cookieAgeS ?? null,
        v.voterId,
      );
    }
  });
  return (votes) => write.immediate(votes);
}

const before = await open('before', '0026-integrity-alerts', false);
const after = await open('after', '0027-cheaper-vote-row', false);
const batched = await open('batched', '0027-cheaper-vote-row', false);
const bare = await open('bare', '0027-cheaper-vote-row', true);
const variants: Record<string, { pollId: number; write: (votes: NewVote[]) => Promise<unknown> }> = {
  'before 0027 (0026), row triggers': { pollId: before.pollId, write: async (v) => perRowWriter(before.db)(v) },
  '0027 row, row triggers': { pollId: after.pollId, write: async (v) => perRowWriter(after.db)(v) },
  '0027 row, tallies per batch (the app)': { pollId: batched.pollId, write: (v) => insertVoteBatch(batched.db, v) },
  '0027 row, no triggers, no tallies': { pollId: bare.pollId, write: async (v) => perRowWriter(bare.db)(v) },
};
const minimal = (() => {
  const sqlite = sqliteHandleOf(bare.db);
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
  for (const [label, { pollId, write }] of Object.entries(variants)) {
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
      await write(batch);
    }
    (results[label] ??= []).push(Number(process.hrtime.bigint() - started) / 1000 / VOTES);
  }
}
const base = median(results['minimal bare row'] ?? []);
for (const [label, r] of Object.entries(results)) {
  console.log(`${label.padEnd(40)} ${median(r).toFixed(1)} µs/vote, ${(median(r) / base).toFixed(2)}× minimal`);
}
for (const { db } of [before, after, batched, bare]) await db.destroy();
fs.rmSync(work, { recursive: true, force: true });
