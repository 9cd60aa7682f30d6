/** Databases for the benchmark, filled straight through better-sqlite3 for speed. */
import { randomBytes } from 'node:crypto';
import BetterSqlite3 from 'better-sqlite3';
import { openDatabase } from '../src/server/db/connection.js';
import { migrateToLatest } from '../src/server/db/migrate.js';
import { insertPoll } from '../src/server/polls/polls.repository.js';

/** Staff sign in to export a poll's votes. */
export const BENCH_ADMIN_PASSWORD = 'bench staff password';

/** 10:00 in New York on a school day: voting is open. */
export const BENCH_NOW = '2026-11-16T15:00:00.000Z';
const BENCH_DAY = '2026-11-16';
/** When the stored votes were cast: 08:00 the same morning. */
const EARLIER_TODAY = '2026-11-16T13:00:00.000Z';

/**
 * A migrated database with today's poll (four options) and `votes` votes spread over them
 * (the tally trigger counts them). Returns the poll id and the voter id of the last voter,
 * for reading as someone who voted.
 */
export async function prepareDatabase(file: string, votes: number): Promise<{ pollId: number; voterId: string }> {
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
  await db.destroy();

  const sqlite = new BetterSqlite3(file);
  // A bulk load: keep the indexes in memory while building them.
  sqlite.pragma('cache_size = -262144');
  sqlite.pragma('synchronous = OFF');
  const insert = sqlite.prepare(
    'insert into votes (poll_id, voter_id, option_index, voter_email, voted_on, created_at) values (?, ?, ?, null, ?, ?)',
  );
  let voterId = '';
  sqlite.transaction(() => {
    for (let i = 0; i < votes; i += 1) {
      voterId = randomBytes(16).toString('base64url');
      insert.run(poll.id, voterId, i % 7 < 3 ? 0 : i % 7 < 5 ? 1 : i % 7 < 6 ? 2 : 3, BENCH_DAY, EARLIER_TODAY);
    }
  })();
  sqlite.pragma('wal_checkpoint(TRUNCATE)');
  sqlite.close();
  return { pollId: poll.id, voterId };
}
