/**
 * Staff actions at scale (issue 37 item 10): on a poll of 1,000,000 votes, a discount of one
 * network's votes, its restore, and the release of another network's held votes, each through
 * the admin API of the real app in its own process, while votes on that poll keep arriving
 * (BENCH_STAFF_VOTERS concurrent voters, each a fresh browser from a network of its own). For
 * each action: how long it took (target < 2 s), how many votes were acknowledged while it ran,
 * and the p95 of the votes' latency while it ran (against the p95 just before it). On SQLite, and
 * on PostgreSQL (the bench's server: a schema of its own, the votes written there in bulk,
 * dropped after). BENCH_STAFF_VOTES
 * changes the number of votes.
 */
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { withDefaultPostgresUser } from '../src/server/db/connection.js';
import { PROFILE_DIMENSIONS } from '../src/shared/profile.js';
import { BENCH_ADMIN_EMAIL, BENCH_ADMIN_PASSWORD, prepareDatabase, preparePostgres } from './bench-data.js';

const VOTES = Number(process.env.BENCH_STAFF_VOTES ?? 1_000_000);
const VOTERS = Number(process.env.BENCH_STAFF_VOTERS ?? 8);
const TARGET_SECONDS = 2;
/** The network whose votes are set aside: every 100th vote of the poll (10,000 at 1,000,000). */
const DISCOUNTED = 'a1a1a1a1a1a1a1a1';
/** The network whose held votes are released. */
const HELD = 'b2b2b2b2b2b2b2b2';
const HELD_VOTES = 2_000;

interface Server {
  url: string;
  child: ChildProcess;
}

async function startServer(file: string): Promise<Server> {
  const child = fork(path.join(import.meta.dirname, 'bench-server.ts'), ['app', file], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message) => resolve((message as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`app server exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, child };
}

const p95 = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] ?? 0;
};

/** Votes from fresh browsers, each from a network of its own, until stopped; each vote's start, end and status. */
function voters(url: string, pollId: number) {
  const done: { start: number; end: number; status: number }[] = [];
  let running = true;
  let n = 0;
  const one = async () => {
    while (running) {
      n += 1;
      const address = `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
      const start = performance.now();
      const response = await fetch(`${url}/api/polls/${pollId}/vote`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
        body: JSON.stringify({ optionIndex: n % 4 }),
      });
      await response.arrayBuffer();
      done.push({ start, end: performance.now(), status: response.status });
    }
  };
  const all = Promise.all(Array.from({ length: VOTERS }, one));
  return {
    done,
    async stop() {
      running = false;
      await all;
    },
  };
}

/** A SQLite file of VOTES votes on today's poll, every 100th from DISCOUNTED, and HELD_VOTES held ones from HELD. */
async function prepareSqlite(work: string): Promise<{ target: string; pollId: number; drop: () => Promise<void> }> {
  const file = path.join(work, 'staff-actions.sqlite');
  const { pollId } = await prepareDatabase(file, VOTES);
  const sqlite = new BetterSqlite3(file);
  sqlite.prepare(`update votes set bucket = ? where poll_id = ? and id % 100 = 0`).run(DISCOUNTED, pollId);
  const insertHeld = sqlite.prepare(
    `insert into votes (poll_id, voter_id, option_index, voted_on, created_at, status, bucket, page_ms)
     values (?, ?, ?, '2026-11-16', '2026-11-16T13:30:00.000Z', 'held', ?, 5000)`,
  );
  sqlite.transaction(() => {
    for (let i = 0; i < HELD_VOTES; i += 1) insertHeld.run(pollId, `held-voter-${i}`, i % 4, HELD);
  })();
  sqlite.pragma('wal_checkpoint(TRUNCATE)');
  sqlite.close();
  return { target: file, pollId, drop: async () => undefined };
}

/**
 * The same on PostgreSQL, in a schema of its own: the votes written by one statement each (the
 * tally triggers count them as they would any insert), every fourth voter with a profile as
 * prepareDatabase gives them, the same options in turn.
 */
async function preparePostgresVotes(
  serverUrl: string,
): Promise<{ target: string; pollId: number; drop: () => Promise<void> }> {
  const { url, pollId, drop } = await preparePostgres(serverUrl);
  const client = new pg.Client({ connectionString: withDefaultPostgresUser(url) });
  await client.connect();
  try {
    // A voter's profile from its number n (prepareDatabase's profileRows): each dimension's group
    // is the next digit of n in the mixed base of the dimensions' group counts.
    let divisor = 1;
    const groupOf = PROFILE_DIMENSIONS.map(({ groups }) => {
      const expression = `(${pgArray(groups.map((g) => g.id))})[((n / ${divisor}) % ${groups.length}) + 1]`;
      divisor *= groups.length;
      return expression;
    });
    await client.query(`insert into profile_answers (voter_id, dimension, group_value, updated_at)
      select 'voter-' || (n * 4), d.dimension, (array[${groupOf.join(', ')}])[d.k], '2026-11-16T13:00:00Z'
      from generate_series(0, ${Math.ceil(VOTES / 4) - 1}) as n,
        unnest(${pgArray(PROFILE_DIMENSIONS.map((d) => d.dimension))}::text[]) with ordinality as d(dimension, k)`);
    await client.query(
      `insert into votes (poll_id, voter_id, option_index, voted_on, created_at, bucket, voter_profile)
       select $1, 'voter-' || i,
         case when i % 7 < 3 then 0 when i % 7 < 5 then 1 when i % 7 < 6 then 2 else 3 end,
         '2026-11-16', '2026-11-16T13:00:00Z', case when i % 100 = 99 then $2 end,
         case when i % 4 = 0 then (select string_agg(group_value, '/' order by k) from profile_answers
           join unnest(${pgArray(PROFILE_DIMENSIONS.map((d) => d.dimension))}::text[]) with ordinality as d(dimension, k)
             on d.dimension = profile_answers.dimension
           where voter_id = 'voter-' || i) end
       from generate_series(0, ${VOTES - 1}) as i`,
      [pollId, DISCOUNTED],
    );
    await client.query(
      `insert into votes (poll_id, voter_id, option_index, voted_on, created_at, status, bucket, page_ms)
       select $1, 'held-voter-' || i, i % 4, '2026-11-16', '2026-11-16T13:30:00Z', 'held', $2, 5000
       from generate_series(0, ${HELD_VOTES - 1}) as i`,
      [pollId, HELD],
    );
    await client.query('analyze');
  } finally {
    await client.end();
  }
  return { target: url, pollId, drop };
}

const pgArray = (values: string[]) => `array[${values.map((v) => `'${v.replaceAll("'", "''")}'`).join(', ')}]`;

/** On SQLite, or on the PostgreSQL server at `pgUrl`. */
export async function measureStaffActions(work: string, pgUrl?: string): Promise<boolean> {
  console.log(
    `\nStaff actions on a ${VOTES.toLocaleString('en-US')}-vote poll while ${VOTERS} voters vote (${pgUrl ? 'PostgreSQL' : 'SQLite'}):`,
  );
  const started = Date.now();
  const { target, pollId, drop } = pgUrl ? await preparePostgresVotes(pgUrl) : await prepareSqlite(work);
  console.log(`  (votes ready in ${((Date.now() - started) / 1000).toFixed(0)} s)`);
  const server = await startServer(target);
  let ok = true;
  try {
    const signIn = await fetch(`${server.url}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: BENCH_ADMIN_EMAIL, password: BENCH_ADMIN_PASSWORD }),
    });
    const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const staff = (method: string, route: string, body?: unknown) =>
      fetch(`${server.url}/api/admin/polls/${pollId}${route}`, {
        method,
        headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const load = voters(server.url, pollId);
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    await pause(3_000);
    let discountId = 0;
    const actions: [string, () => Promise<Response>][] = [
      [
        'discount (10,000 votes of one network)',
        () =>
          staff('POST', '/discounts', {
            bucket: DISCOUNTED,
            from: '2026-11-16T12:00:00.000Z',
            to: '2026-11-16T14:00:00.000Z',
            reason: 'bench',
          }),
      ],
      ['restore of that discount', () => staff('DELETE', `/discounts/${discountId}`)],
      [
        `release (${HELD_VOTES.toLocaleString('en-US')} held votes of one network)`,
        () => staff('POST', '/held/release', { bucket: HELD }),
      ],
    ];
    for (const [label, act] of actions) {
      const started = performance.now();
      const response = await act();
      const body = (await response.json()) as { action?: { id: number; votes: number }; message?: string };
      const ended = performance.now();
      await pause(1_000);
      if (body.action && label.startsWith('discount')) discountId = body.action.id;
      const during = load.done.filter((vote) => vote.end > started && vote.start < ended);
      const baseline = load.done.filter((vote) => vote.end > started - 2_000 && vote.end <= started);
      const acknowledged = load.done.filter((vote) => vote.end > started && vote.end <= ended && vote.status === 201);
      const seconds = (ended - started) / 1000;
      const fine = response.ok && seconds < TARGET_SECONDS;
      ok &&= fine;
      console.log(
        `  ${label}: ${seconds.toFixed(2)} s, ${body.action?.votes ?? body.message} votes (target < ${TARGET_SECONDS} s) ` +
          `${fine ? 'ok' : 'MISSED'}; ${acknowledged.length} votes acknowledged meanwhile, p95 ${p95(during.map((v) => v.end - v.start)).toFixed(0)} ms ` +
          `(${p95(baseline.map((v) => v.end - v.start)).toFixed(0)} ms just before)`,
      );
    }
    await load.stop();
    const refused = load.done.filter((vote) => vote.status !== 201).length;
    if (refused > 0) {
      ok = false;
      console.log(`  ${refused} votes were not acknowledged with 201`);
    }
  } finally {
    const exited = new Promise((resolve) => server.child.once('exit', resolve));
    server.child.kill('SIGTERM');
    await exited;
    await drop();
  }
  return ok;
}
