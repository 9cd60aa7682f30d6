import { describe, expect, it } from 'vitest';
import { openDatabaseEachTest } from '../testing/database-per-test.js';
import { seedPoll } from '../testing/fixtures.js';
import { testDatabaseKinds } from '../testing/test-database.js';
import type { Db } from './connection.js';
import { precompiled } from './precompiled.js';

describe.each(testDatabaseKinds())('precompiled (%s)', (kind) => {
  let db: Db;

  openDatabaseEachTest(kind, (opened) => {
    db = opened;
  });

  it('runs the query with each call’s values, keeping the values written into it', async () => {
    await seedPoll(db, { question: 'Active?', status: 'active' });
    await seedPoll(db, { question: 'Past?', status: 'past', liveDate: '2026-11-20' });
    const byNumberAndStatus = precompiled(1, (q: Db, pollNumber: number) =>
      q.selectFrom('polls').select('question').where('poll_number', '=', pollNumber).where('status', '=', 'past'),
    );
    expect(await byNumberAndStatus(db, 2)).toEqual([{ question: 'Past?' }]);
    expect(await byNumberAndStatus(db, 1)).toEqual([]); // poll 1 is active, not past
  });

  it('refuses a query that does not take each argument as one plain parameter', async () => {
    const transformed = precompiled(1, (q: Db, pollNumber: number) =>
      q
        .selectFrom('polls')
        .select('id')
        .where('poll_number', '=', pollNumber * 2),
    );
    await expect(transformed(db, 1)).rejects.toThrow(/uses 0 of its 1 arguments/);
  });
});
