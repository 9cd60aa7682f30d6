import type { KyselyPlugin } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../db/connection.js';
import { openDatabaseEachTest } from '../testing/database-per-test.js';
import { insertVoteRow, seedPoll } from '../testing/fixtures.js';
import { TestClock } from '../testing/test-clock.js';
import { testDatabaseKinds } from '../testing/test-database.js';
import { ActivePollCache, VoterChoices } from './active-poll-cache.js';

/** Counts the queries that reach the database. */
function queryCounter(): KyselyPlugin & { count: number } {
  return {
    count: 0,
    transformQuery(args) {
      this.count += 1;
      return args.node;
    },
    transformResult: (args) => Promise.resolve(args.result),
  };
}

describe.each(testDatabaseKinds())('ActivePollCache (%s)', (kind) => {
  let db: Db;
  let counter: ReturnType<typeof queryCounter>;
  let monotonic: number;
  const clock = new TestClock(new Date('2026-11-21T15:00:00.000Z'));
  let cache: ActivePollCache;

  openDatabaseEachTest(kind, (opened) => {
    db = opened;
  });
  beforeEach(() => {
    counter = queryCounter();
    monotonic = 0;
    cache = new ActivePollCache(db.withPlugin(counter), clock, 1000, () => monotonic);
  });

  const vote = (pollId: number, optionIndex: number) =>
    insertVoteRow(db, { pollId, optionIndex, createdAt: clock.now().toISOString() });

  it('serves one reading for up to a second, then reads again', async () => {
    const poll = await seedPoll(db, { options: ['A', 'B'], votes: [1, 0] });
    expect((await cache.get())?.options.map((o) => o.votes)).toEqual([1, 0]);
    const queriesForOneReading = counter.count;

    await vote(poll.id, 1);
    monotonic = 999;
    expect((await cache.get())?.options.map((o) => o.votes)).toEqual([1, 0]);
    expect(counter.count).toBe(queriesForOneReading);

    monotonic = 1000;
    expect((await cache.get())?.options.map((o) => o.votes)).toEqual([1, 1]);
    expect(counter.count).toBe(2 * queriesForOneReading);
  });

  it('reads again for a visitor whose vote the copy might not include', async () => {
    const poll = await seedPoll(db, { options: ['A', 'B'] });
    await cache.get();
    const votedAt = clock.now().getTime();
    await vote(poll.id, 0);
    expect((await cache.get(votedAt))?.options.map((o) => o.votes)).toEqual([1, 0]);

    // Once a reading has started well after the vote, the copy is good for that voter too.
    clock.advance(2001);
    monotonic = 5000;
    await cache.get();
    const count = counter.count;
    expect((await cache.get(votedAt))?.options.map((o) => o.votes)).toEqual([1, 0]);
    expect(counter.count).toBe(count);
  });

  it('lets readers who arrive together share one reading', async () => {
    await seedPoll(db);
    await Promise.all(Array.from({ length: 10 }, () => cache.get()));
    const single = queryCounter();
    const fresh = new ActivePollCache(db.withPlugin(single), clock, 1000, () => 0);
    await fresh.get();
    const queriesPerReading = single.count;
    expect(counter.count).toBe(queriesPerReading);
  });

  it('forgets the copy when told', async () => {
    await seedPoll(db, { question: 'First?' });
    expect((await cache.get())?.question).toBe('First?');
    await db.updateTable('polls').set({ question: 'Edited?' }).execute();
    cache.invalidate();
    expect((await cache.get())?.question).toBe('Edited?');
  });

  it('knows when there is no active poll', async () => {
    expect(await cache.get()).toBeUndefined();
  });
});

describe('VoterChoices', () => {
  it('remembers choices per poll and voter, dropping the oldest when full', () => {
    const choices = new VoterChoices(() => Promise.resolve(undefined), { capacity: 2 });
    choices.remember(1, 'a', 0, 100);
    choices.remember(1, 'b', 1, 200);
    expect(choices.get(1, 'a')).toEqual({ optionIndex: 0, votedAt: 100 });
    expect(choices.get(2, 'a')).toBeUndefined();
    choices.remember(1, 'c', 2, 300);
    expect(choices.get(1, 'a')).toBeUndefined();
    expect(choices.get(1, 'c')).toEqual({ optionIndex: 2, votedAt: 300 });
  });

  it('looks up a choice it does not know, and remembers it only if there is one', async () => {
    const lookedUp: string[] = [];
    const choices = new VoterChoices((pollId, voterId) => {
      lookedUp.push(voterId);
      return Promise.resolve(voterId === 'voted' ? { optionIndex: 1, votedAt: 100 } : undefined);
    });
    for (let i = 0; i < 2; i += 1) {
      expect(await choices.of(1, 'voted')).toEqual({ optionIndex: 1, votedAt: 100 });
      expect(await choices.of(1, 'not yet')).toBeUndefined();
    }
    expect(lookedUp).toEqual(['voted', 'not yet', 'not yet']);
  });

  describe('as the sole writer of votes (SQLite)', () => {
    it('remembers that a voter has not voted, until it counts their vote', async () => {
      const lookedUp: string[] = [];
      const choices = new VoterChoices(
        (pollId, voterId) => {
          lookedUp.push(`${pollId}:${voterId}`);
          return Promise.resolve(undefined);
        },
        { soleWriter: true },
      );
      expect(await choices.of(1, 'a')).toBeUndefined();
      expect(await choices.of(1, 'a')).toBeUndefined();
      expect(await choices.of(2, 'a')).toBeUndefined();
      expect(lookedUp).toEqual(['1:a', '2:a']);
      choices.remember(1, 'a', 3, 500);
      expect(await choices.of(1, 'a')).toEqual({ optionIndex: 3, votedAt: 500 });
      expect(choices.get(2, 'a')).toBeUndefined();
    });

    it('keeps a vote counted while the lookup ran, which read the database before it', async () => {
      let answer: (choice: undefined) => void = () => {};
      const choices = new VoterChoices(() => new Promise((resolve) => (answer = resolve)), { soleWriter: true });
      const looking = choices.of(1, 'a');
      choices.remember(1, 'a', 2, 700);
      answer(undefined);
      await looking;
      expect(await choices.of(1, 'a')).toEqual({ optionIndex: 2, votedAt: 700 });
    });

    it('counts its absences toward the same limit, dropping the oldest entry', async () => {
      const choices = new VoterChoices(() => Promise.resolve(undefined), { capacity: 2, soleWriter: true });
      await choices.of(1, 'a');
      choices.remember(1, 'b', 0, 100);
      await choices.of(1, 'c');
      expect(choices.get(1, 'b')).toEqual({ optionIndex: 0, votedAt: 100 });
      const lookedUp: string[] = [];
      const again = new VoterChoices(
        (_pollId, voterId) => {
          lookedUp.push(voterId);
          return Promise.resolve(undefined);
        },
        { capacity: 1, soleWriter: true },
      );
      await again.of(1, 'a');
      await again.of(1, 'b');
      await again.of(1, 'a');
      expect(lookedUp).toEqual(['a', 'b', 'a']);
    });
  });
});
