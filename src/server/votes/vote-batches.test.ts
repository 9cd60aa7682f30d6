/**
 * Group commit: votes that arrive together are written in one batch, and every rule still
 * holds for each vote inside it (one vote per voter, one per e-mail, the tallies and the
 * group tallies), on one instance and on two sharing a database.
 */
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { PROFILE_DIMENSIONS } from '../../shared/profile.js';
import type { Db } from '../db/connection.js';
import { newVoterId, seedPoll } from '../testing/fixtures.js';
import { createTestAppOn, type TestApp } from '../testing/test-app.js';
import { createTestDatabase, openTestDatabase, testDatabaseKinds } from '../testing/test-database.js';
import { Visitor } from '../testing/visitor.js';
import { VoteBatcher } from './vote-batcher.js';
import { insertVoteBatch, type BatchResult, type NewVote } from './votes.repository.js';

/** The option tallies and group tallies as stored, and as counted afresh from the vote rows. */
async function talliesAndRecount(db: Db, pollId: number) {
  const stored = await db
    .selectFrom('poll_options')
    .select(['position', 'vote_count'])
    .where('poll_id', '=', pollId)
    .orderBy('position')
    .execute();
  const counted = await sql<{ position: number; n: number }>`select option_index as position, count(*) as n
    from votes where poll_id = ${pollId} group by option_index order by option_index`.execute(db);
  const groups = await sql<{
    key: string;
    n: number;
  }>`select dimension || '/' || group_value || '/' || option_index as key,
    vote_count as n from poll_group_tallies where poll_id = ${pollId} order by key`.execute(db);
  const groupsCounted = await sql<{
    key: string;
    n: number;
  }>`select p.dimension || '/' || p.group_value || '/' || v.option_index as key,
    count(*) as n from votes v join profile_answers p on p.voter_id = v.voter_id where v.poll_id = ${pollId}
    group by p.dimension, p.group_value, v.option_index order by key`.execute(db);
  return {
    stored: stored.filter((row) => row.vote_count > 0).map((row): [number, number] => [row.position, row.vote_count]),
    counted: counted.rows.map((row): [number, number] => [row.position, row.n]),
    groups: groups.rows.map((row): [string, number] => [row.key, row.n]),
    groupsCounted: groupsCounted.rows.map((row): [string, number] => [row.key, row.n]),
  };
}

/** A voter with a full profile, varied by n, stored as the profile page would store it. */
async function profiledVoter(db: Db, n: number): Promise<string> {
  const voterId = newVoterId();
  await db
    .insertInto('profile_answers')
    .values(
      PROFILE_DIMENSIONS.map(({ dimension, groups }) => ({
        voter_id: voterId,
        dimension,
        group_value: groups[(n * 7 + dimension.length) % groups.length]?.id ?? groups[0].id,
        updated_at: new Date().toISOString(),
      })),
    )
    .execute();
  return voterId;
}

describe.each(testDatabaseKinds())('group-committed votes (%s)', (kind) => {
  const closing: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closing.splice(0).reverse()) await close();
  });

  async function twoInstances(): Promise<[TestApp, TestApp]> {
    const database = await createTestDatabase(kind);
    const first = await createTestAppOn(database, { keepDatabase: true });
    const second = await createTestAppOn(database);
    closing.push(
      () => second.close(),
      () => first.close(),
    );
    return [first, second];
  }

  it('counts 200 votes sent at once to two instances, with profiles, keeping every tally exact', async () => {
    const [first, second] = await twoInstances();
    const poll = await seedPoll(first.db, { options: ['A', 'B', 'C', 'D'] });
    const voters = await Promise.all(Array.from({ length: 200 }, (_, n) => profiledVoter(first.db, n)));
    const responses = await Promise.all(
      voters.map(async (voterId, n) => {
        const visitor = await new Visitor(n % 2 === 0 ? first.app : second.app).holdVoterId(first.db, voterId);
        return visitor.vote(poll.id, (n * 3) % 4);
      }),
    );
    expect(responses.map((r) => r.statusCode)).toEqual(voters.map(() => 201));
    const { stored, counted, groups, groupsCounted } = await talliesAndRecount(first.db, poll.id);
    expect(counted.reduce((sum, [, n]) => sum + n, 0)).toBe(200);
    expect(stored).toEqual(counted);
    expect(groups).toEqual(groupsCounted);
    expect(groups.length).toBeGreaterThan(4);
  });

  it('refuses within one batch a second vote by a voter and a second vote with an e-mail, each with its own 409', async () => {
    const [first, second] = await twoInstances();
    const poll = await seedPoll(first.db, { options: ['A', 'B'] });
    const sameVoter = newVoterId();
    const requests = [
      ...Array.from({ length: 6 }, (_, i) => ({ app: i % 2 ? first : second, voterId: sameVoter, email: '' })),
      ...Array.from({ length: 6 }, (_, i) => ({
        app: i % 2 ? first : second,
        voterId: newVoterId(),
        email: 'x@example.org',
      })),
      ...Array.from({ length: 6 }, (_, i) => ({ app: i % 2 ? first : second, voterId: newVoterId(), email: '' })),
    ];
    const responses = await Promise.all(
      requests.map(async ({ app, voterId, email }, i) => {
        const visitor = await new Visitor(app.app).holdVoterId(first.db, voterId);
        return visitor.vote(poll.id, i % 2, email);
      }),
    );
    const codes = responses.map((r) => (r.statusCode === 201 ? 'counted' : r.json<{ code: string }>().code));
    expect(codes.slice(0, 6).sort()).toEqual([
      'already-voted',
      'already-voted',
      'already-voted',
      'already-voted',
      'already-voted',
      'counted',
    ]);
    expect(codes.slice(6, 12).sort()).toEqual([
      'counted',
      'email-already-voted',
      'email-already-voted',
      'email-already-voted',
      'email-already-voted',
      'email-already-voted',
    ]);
    expect(codes.slice(12)).toEqual(Array(6).fill('counted'));
    const { stored, counted } = await talliesAndRecount(first.db, poll.id);
    expect(counted.reduce((sum, [, n]) => sum + n, 0)).toBe(8);
    expect(stored).toEqual(counted);
  });

  it('fails only the vote whose poll is gone when a batch holds it, and records the others, held ones too', async () => {
    const { db, close } = await openTestDatabase(kind);
    closing.push(close);
    const poll = await seedPoll(db, { options: ['A', 'B'] });
    const vote = (pollId: number, optionIndex: number): NewVote => ({
      pollId,
      voterId: newVoterId(),
      optionIndex,
      voterEmail: null,
      votedOn: '2026-11-21',
      createdAt: new Date().toISOString(),
    });
    const held: NewVote = { ...vote(poll.id, 0), status: 'held' };
    const results = await insertVoteBatch(db, [vote(poll.id, 0), vote(poll.id + 1000, 0), vote(poll.id, 1), held]);
    // A held vote is written like the others ('recorded') and stays out of the tallies.
    expect(results).toEqual([
      { outcome: 'recorded' },
      { outcome: 'poll-gone' },
      { outcome: 'recorded' },
      { outcome: 'recorded' },
    ]);
    const { stored } = await talliesAndRecount(db, poll.id);
    expect(stored).toEqual([
      [0, 1],
      [1, 1],
    ]);
  });
});

describe('the vote batcher', () => {
  const vote = (voterId: string, voterEmail: string | null = null): NewVote => ({
    pollId: 1,
    voterId,
    optionIndex: 0,
    voterEmail,
    votedOn: '2026-11-21',
    createdAt: '2026-11-21T15:00:00.000Z',
  });

  /** A writer that records each batch and lets the test decide when each commits. */
  function recordingWriter() {
    const batches: { votes: NewVote[]; commit: () => void }[] = [];
    const waiting: (() => void)[] = [];
    const write = (votes: NewVote[]) =>
      new Promise<BatchResult[]>((resolve) => {
        batches.push({ votes, commit: () => resolve(votes.map(() => ({ outcome: 'recorded' }))) });
        for (const wake of waiting.splice(0)) wake();
      });
    const nextBatch = async (n: number) => {
      while (batches.length < n) await new Promise<void>((resolve) => waiting.push(resolve));
      return batches[n - 1]!;
    };
    return { write, batches, nextBatch };
  }

  it('writes the votes of one tick in one batch, and answers each only when it has committed', async () => {
    const writer = recordingWriter();
    const batcher = new VoteBatcher(writer.write, { maxBatch: 100, maxInFlight: 1, maxWaitMs: 5 });
    let answered = 0;
    const outcomes = ['a', 'b', 'c'].map((id) => batcher.add(vote(id)).then((o) => ((answered += 1), o)));
    const batch = await writer.nextBatch(1);
    expect(batch.votes.map((v) => v.voterId)).toEqual(['a', 'b', 'c']);
    await new Promise((resolve) => setImmediate(resolve));
    expect(answered).toBe(0);
    batch.commit();
    expect(await Promise.all(outcomes)).toEqual(['recorded', 'recorded', 'recorded']);
  });

  it('puts a second vote of one voter, or of one e-mail, in the next batch', async () => {
    const writer = recordingWriter();
    const batcher = new VoteBatcher(writer.write, { maxBatch: 100, maxInFlight: 1, maxWaitMs: 5 });
    const all = [vote('a'), vote('a'), vote('b', 'x@example.org'), vote('c', 'x@example.org'), vote('d')].map((v) =>
      batcher.add(v),
    );
    const first = await writer.nextBatch(1);
    expect(first.votes.map((v) => v.voterId)).toEqual(['a', 'b', 'd']);
    first.commit();
    const second = await writer.nextBatch(2);
    expect(second.votes.map((v) => v.voterId)).toEqual(['a', 'c']);
    second.commit();
    await Promise.all(all);
    await batcher.drained();
  });

  it('starts a waiting vote on its own batch when the one under way is slow, instead of queueing behind it', async () => {
    const writer = recordingWriter();
    const batcher = new VoteBatcher(writer.write, { maxBatch: 100, maxInFlight: 1, maxWaitMs: 5 });
    const slow = batcher.add(vote('a'));
    const first = await writer.nextBatch(1);
    const waiting = batcher.add(vote('b'));
    // The first batch never commits until the second has started.
    const second = await writer.nextBatch(2);
    expect(second.votes.map((v) => v.voterId)).toEqual(['b']);
    second.commit();
    expect(await waiting).toBe('recorded');
    first.commit();
    expect(await slow).toBe('recorded');
  });
});
