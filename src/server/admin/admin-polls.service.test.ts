import { describe, expect, it } from 'vitest';
import { createScheduleService } from '../polls/schedule.service.js';
import { seedPoll } from '../testing/fixtures.js';
import { serviceDepsEachTest } from '../testing/service-deps.js';
import { newYorkTime, TestClock } from '../testing/test-clock.js';
import { testDatabaseKinds } from '../testing/test-database.js';
import { insertVotes } from '../votes/votes.repository.js';
import { createAdminPollsService, VOTES_PAGE_SIZE } from './admin-polls.service.js';

describe.each(testDatabaseKinds())('exporting a poll’s votes (%s)', (kind) => {
  const clock = new TestClock(newYorkTime('2026-11-21', '10:00'));
  const services = serviceDepsEachTest(kind, clock);

  function adminPolls() {
    const deps = services.deps();
    return createAdminPollsService(deps, createScheduleService(deps));
  }

  const votes = (pollId: number, from: number, count: number) =>
    Array.from({ length: count }, (_, i) => ({
      pollId,
      voterId: `voter-${from + i}`,
      optionIndex: (from + i) % 2,
      voterEmail: null,
      votedOn: '2026-11-21',
      createdAt: new Date(Date.parse('2026-11-21T15:00:00.000Z') + (from + i) * 1000).toISOString(),
    }));

  /**
   * The CSV of a million votes must never be held whole, so it is written as the votes are
   * read, a page at a time. Seen from outside: votes cast while the first rows are being read
   * are in the rest of the file, which a CSV built before the first row was handed out could
   * not hold.
   */
  it('reads the votes a page at a time as the CSV is read, never all at once', async () => {
    const poll = await seedPoll(services.db, { options: ['Yes', 'No'] });
    const before = 2 * VOTES_PAGE_SIZE + 1;
    await insertVotes(services.db, votes(poll.id, 0, before));

    const csv = await adminPolls().votesCsv(poll.id);
    const chunks = csv?.chunks[Symbol.asyncIterator]();
    if (!chunks) throw new Error('the poll has no CSV');
    // The header, then the first page's rows.
    const read: string[] = [];
    for (let n = 0; n < 2; n += 1) {
      const next = await chunks.next();
      if (!next.done) read.push(next.value);
    }
    expect(read.join('').split('\r\n').slice(1, -1)).toHaveLength(VOTES_PAGE_SIZE);

    const later = 2 * VOTES_PAGE_SIZE;
    await insertVotes(services.db, votes(poll.id, before, later));
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) read.push(next.value);

    const rows = read.join('').split('\r\n').slice(1, -1);
    expect(rows).toHaveLength(before + later);
    // The last vote cast: voter 4000, at 15:00 UTC + 4,000 s, 11:06:40 in New York.
    expect(rows.at(-1)).toBe('Should homework be banned in elementary school?,Yes,,2026-11-21,11:06:40');
  });
});
