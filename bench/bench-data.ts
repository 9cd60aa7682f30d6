/** Databases for the benchmark, filled straight through better-sqlite3 for speed. */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { systemClock } from '../src/server/clock.js';
import { openDatabase, withDefaultPostgresUser, type Db } from '../src/server/db/connection.js';
import { migrateToLatest } from '../src/server/db/migrate.js';
import { insertPoll } from '../src/server/polls/polls.repository.js';
import { PROFILE_DIMENSIONS } from '../src/shared/profile.js';
import { createVoterIds } from '../src/server/voters/voter-ids.service.js';

/** Staff sign in to export a poll's votes. */
export const BENCH_ADMIN_PASSWORD = 'bench staff password';
export const BENCH_ADMIN_EMAIL = 'owner@bench.example';

/** 10:00 in New York on a school day: voting is open. */
export const BENCH_NOW = '2026-11-16T15:00:00.000Z';
/** 21:00 the same day: voting has closed, and today's breakdown is open. */
export const BENCH_AFTER_CLOSE = '2026-11-17T02:00:00.000Z';
const BENCH_DAY = '2026-11-16';
/** When the stored votes were cast: 08:00 the same morning. */
const EARLIER_TODAY = '2026-11-16T13:00:00.000Z';

/**
 * A full profile, varied by `n`: every combination of groups gets voters (each dimension counts
 * `n` in a digit of its own), so classroom teachers span every grade level, region and band,
 * and a poll of 1,000,000 votes has a weighted line.
 */
function profileRows(voterId: string, n: number): [string, string, string, string][] {
  let rest = n;
  return PROFILE_DIMENSIONS.map(({ dimension, groups }) => {
    const group = groups[rest % groups.length]?.id ?? groups[0].id;
    rest = Math.floor(rest / groups.length);
    return [voterId, dimension, group, EARLIER_TODAY];
  });
}

/**
 * Voter cookies as the site signs them, issued this morning, under the database's key (made
 * here, before the site first starts on it): browsers the site knows, so their requests go the
 * way of every browser's, not the path of cookies from before signing.
 */
async function voterCookieSigner(db: Db): Promise<(voterId: string) => string> {
  const voterIds = await createVoterIds({ db, clock: systemClock, secureCookies: false });
  return (voterId) => voterIds.sign(voterId, Date.parse(EARLIER_TODAY));
}

/**
 * A migrated database with today's poll (four options) and `votes` votes spread over them
 * (the tally trigger counts them); every fourth voter described themselves first, so the
 * group tallies are real. With `profiledVoters`, that many more voters have a profile and no
 * vote yet, for casting votes with a profile. Returns the poll id, the voter cookie of the last
 * voter (for reading as someone who voted), the cookies of the voters waiting to vote, and the
 * cookie of any voter id, signed with this database's key.
 */
/**
 * A copy of a prepared database in which its poll has closed for good (a past poll), for the
 * open-data feeds, which list past polls only.
 */
export function pastCopyOf(file: string, copy: string): string {
  fs.copyFileSync(file, copy);
  const sqlite = new BetterSqlite3(copy);
  sqlite.prepare("update polls set status = 'past'").run();
  sqlite.close();
  return copy;
}

export async function prepareDatabase(
  file: string,
  votes: number,
  { profiledVoters = 0 }: { profiledVoters?: number } = {},
): Promise<{ pollId: number; voterCookie: string; waitingVoters: string[]; voterCookieFor: (id: string) => string }> {
  const db = openDatabase({ kind: 'sqlite', file });
  await migrateToLatest(db);
  const poll = await db.transaction().execute((trx) =>
    insertPoll(
      trx,
      {
        question: 'Should cell phones be banned during the school day?',
        description: 'Several states now require it.',
        options: ['Yes, all day', 'Only during class', 'Leave it to each teacher', 'No'],
        liveDate: BENCH_DAY,
        status: 'active',
      },
      new Date(BENCH_NOW),
    ),
  );
  const voterCookieFor = await voterCookieSigner(db);
  await db.destroy();

  const sqlite = new BetterSqlite3(file);
  // A bulk load: keep the indexes in memory while building them.
  sqlite.pragma('cache_size = -262144');
  sqlite.pragma('synchronous = OFF');
  // Each vote keeps its voter's profile as the vote path copies it (weighting/profile-copy.ts):
  // the ids in PROFILE_DIMENSIONS' order, '/' between them.
  const insert = sqlite.prepare(
    `insert into votes (poll_id, voter_id, option_index, voter_email, voted_on, created_at, voter_profile)
     values (?, ?, ?, null, ?, ?, ?)`,
  );
  const answer = sqlite.prepare(
    'insert into profile_answers (voter_id, dimension, group_value, updated_at) values (?, ?, ?, ?)',
  );
  let voterId = '';
  const waitingVoters: string[] = [];
  sqlite.transaction(() => {
    for (let i = 0; i < votes; i += 1) {
      voterId = randomBytes(16).toString('base64url');
      const profile = i % 4 === 0 ? profileRows(voterId, i / 4) : [];
      for (const row of profile) answer.run(...row);
      const copy = profile.length > 0 ? profile.map((row) => row[2]).join('/') : null;
      insert.run(poll.id, voterId, i % 7 < 3 ? 0 : i % 7 < 5 ? 1 : i % 7 < 6 ? 2 : 3, BENCH_DAY, EARLIER_TODAY, copy);
    }
    for (let i = 0; i < profiledVoters; i += 1) {
      const waiting = randomBytes(16).toString('base64url');
      for (const row of profileRows(waiting, i)) answer.run(...row);
      waitingVoters.push(waiting);
    }
  })();
  sqlite.pragma('wal_checkpoint(TRUNCATE)');
  sqlite.close();
  return {
    pollId: poll.id,
    voterCookie: voterCookieFor(voterId),
    waitingVoters: waitingVoters.map(voterCookieFor),
    voterCookieFor,
  };
}

/**
 * A schema of its own on the PostgreSQL server at `serverUrl`, migrated, with today's poll and
 * one vote (for reading as someone who voted). `drop` removes the schema.
 */
export async function preparePostgres(
  serverUrl: string,
): Promise<{ url: string; pollId: number; voterCookie: string; drop: () => Promise<void> }> {
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: withDefaultPostgresUser(serverUrl) });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const db = openDatabase({ kind: 'postgres', url: url.href });
  await migrateToLatest(db);
  const poll = await db.transaction().execute((trx) =>
    insertPoll(
      trx,
      {
        question: 'Should cell phones be banned during the school day?',
        description: 'Several states now require it.',
        options: ['Yes, all day', 'Only during class', 'Leave it to each teacher', 'No'],
        liveDate: BENCH_DAY,
        status: 'active',
      },
      new Date(BENCH_NOW),
    ),
  );
  const voterId = randomBytes(16).toString('base64url');
  await db
    .insertInto('votes')
    .values({
      poll_id: poll.id,
      voter_id: voterId,
      option_index: 0,
      voter_email: null,
      voted_on: BENCH_DAY,
      created_at: EARLIER_TODAY,
    })
    .execute();
  const voterCookie = (await voterCookieSigner(db))(voterId);
  await db.destroy();
  return {
    url: url.href,
    pollId: poll.id,
    voterCookie,
    drop: async () => {
      const client = new pg.Client({ connectionString: withDefaultPostgresUser(serverUrl) });
      await client.connect();
      await client.query(`drop schema ${schema} cascade`);
      await client.end();
    },
  };
}

/**
 * Adds `count` past polls to a prepared database, one a day before the poll's day (a year of
 * them for 365), each with four options, its tallies and a tally for every group of every
 * dimension, most of them large enough to be shown: what the open data and the archive hold
 * after a year. Written straight into the tallies, as the votes' triggers would have left them.
 */
export async function addPastPolls(file: string, count: number): Promise<void> {
  const db = openDatabase({ kind: 'sqlite', file });
  const start = Date.parse(`${BENCH_DAY}T12:00:00.000Z`);
  const day = (i: number) => new Date(start - (count - i) * 86_400_000).toISOString().slice(0, 10);
  const polls: { id: number; n: number }[] = [];
  for (let i = 0; i < count; i += 1) {
    const poll = await db.transaction().execute((trx) =>
      insertPoll(
        trx,
        {
          question: `Past poll ${i + 1}: should schools ${'really '.repeat(i % 5)}start later for teenagers?`,
          description: i % 3 === 0 ? null : 'Several districts have tried it; the results are mixed.',
          options: ['Yes', 'No', 'Only for high school', 'Not sure'],
          liveDate: day(i),
          status: 'past',
          wentLiveAt: `${day(i)}T05:00:00.000Z`,
        },
        new Date(`${day(i)}T05:00:00.000Z`),
      ),
    );
    polls.push({ id: poll.id, n: i });
  }
  await db.destroy();
  const sqlite = new BetterSqlite3(file);
  const tally = sqlite.prepare(
    'insert into poll_group_tallies (poll_id, dimension, group_value, option_index, vote_count) values (?, ?, ?, ?, ?)',
  );
  const option = sqlite.prepare('update poll_options set vote_count = ? where poll_id = ? and position = ?');
  sqlite.transaction(() => {
    for (const { id, n } of polls) {
      const totals = [0, 0, 0, 0];
      PROFILE_DIMENSIONS.forEach(({ dimension, groups }, d) =>
        groups.forEach(({ id: group }, g) => {
          for (let o = 0; o < 4; o += 1) {
            const votes = (n * 7 + d * 5 + g * 3 + o * 11) % 40;
            tally.run(id, dimension, group, o, votes);
            if (d === 0) totals[o] = (totals[o] ?? 0) + votes;
          }
        }),
      );
      totals.forEach((votes, o) => option.run(votes + 20, id, o));
    }
  })();
  sqlite.pragma('wal_checkpoint(TRUNCATE)');
  sqlite.close();
}
