/**
 * Issue 37 item 7: a ballot is bound to the browser (voter cookie) it was issued to, issued at a
 * bounded rate per network (past it, it reads as none, and is never refused), and single-use
 * across instances and restarts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Ballot } from '../../shared/api.js';
import { seedPoll } from '../testing/fixtures.js';
import { createTestAppOn, type TestApp } from '../testing/test-app.js';
import { createTestDatabase, testDatabaseKinds } from '../testing/test-database.js';
import { Visitor } from '../testing/visitor.js';
import { BALLOTS_PER_MINUTE } from './ballot.js';

const env = { RATE_LIMIT_WRITES_PER_MINUTE: '0' };

describe.each(testDatabaseKinds())('ballots (%s)', (kind) => {
  const apps: TestApp[] = [];
  afterEach(async () => {
    for (const app of apps.splice(0).reverse()) await app.close();
  });
  const start = async (keepDatabase: boolean, database?: Awaited<ReturnType<typeof createTestDatabase>>) => {
    const t = await createTestAppOn(database ?? (await createTestDatabase(kind)), { env, keepDatabase });
    apps.push(t);
    return t;
  };

  const ballotOf = async (visitor: Visitor, pollId: number, remoteAddress = '203.0.113.9') =>
    (
      await visitor.request({ method: 'GET', url: `/api/polls/${pollId}/ballot?shown=4000`, remoteAddress })
    ).json<Ballot>();
  const vote = (visitor: Visitor, pollId: number, ballot: string, remoteAddress = '203.0.113.9') =>
    visitor.request({
      method: 'POST',
      url: `/api/polls/${pollId}/vote`,
      payload: { optionIndex: 0, ballot },
      remoteAddress,
    });
  const pageTimes = async (t: TestApp, pollId: number) =>
    (await t.db.selectFrom('votes').select('page_ms').where('poll_id', '=', pollId).orderBy('id').execute()).map(
      (row) => row.page_ms,
    );

  it('are bound to the browser they were issued to: the ballot sets the cookie, and another browser’s vote reads it as none', async () => {
    const t = await start(false);
    const poll = await seedPoll(t.db, { options: ['Yes', 'No'] });
    const teacher = new Visitor(t.app);
    const ballot = await ballotOf(teacher, poll.id);
    expect(teacher.voterId).toBeDefined();
    t.clock.advance(3_000);
    expect((await vote(teacher, poll.id, ballot.token)).statusCode).toBe(201);
    // A script reusing it with a fresh cookie: the vote counts as one without a page.
    expect((await vote(new Visitor(t.app), poll.id, ballot.token)).statusCode).toBe(201);
    expect(await pageTimes(t, poll.id)).toEqual([7_000, null]);
    // A first-time teacher whose cookie came with the ballot is still a first-time browser.
    const ages = await t.db.selectFrom('votes').select('cookie_age_s').where('poll_id', '=', poll.id).execute();
    expect(ages.map((row) => row.cookie_age_s)).toEqual([null, null]);
  });

  it('are single-use across instances and restarts: the browser they are bound to has one vote', async () => {
    const database = await createTestDatabase(kind);
    const first = await start(true, database);
    const poll = await seedPoll(first.db, { options: ['Yes', 'No'] });
    const teacher = new Visitor(first.app);
    const ballot = await ballotOf(teacher, poll.id);
    expect((await vote(teacher, poll.id, ballot.token)).statusCode).toBe(201);
    // The same browser (its cookie) on another instance.
    const onInstance = (t: TestApp) =>
      t.app.inject({
        method: 'POST',
        url: `/api/polls/${poll.id}/vote`,
        payload: { optionIndex: 1, ballot: ballot.token },
        headers: { cookie: [...teacher.cookies].map(([name, value]) => `${name}=${value}`).join('; ') },
        remoteAddress: '203.0.113.9',
      });
    const second = await start(false, database);
    expect((await onInstance(second)).statusCode).toBe(409);
    // Restarted: a new instance on the same database refuses it the same.
    await first.close();
    apps.splice(apps.indexOf(first), 1);
    const restarted = await start(true, database);
    expect((await onInstance(restarted)).statusCode).toBe(409);
    expect(await pageTimes(restarted, poll.id)).toHaveLength(1);
  });

  it(
    `count as ballots up to ${BALLOTS_PER_MINUTE} a minute per network, and past it read as none, never refused`,
    { timeout: 120_000 },
    async () => {
      const t = await start(false);
      const poll = await seedPoll(t.db, { options: ['Yes', 'No'] });
      for (let i = 0; i < BALLOTS_PER_MINUTE + 5; i += 1) {
        const teacher = new Visitor(t.app);
        // Addresses of one /24: one network.
        const address = `198.51.100.${i % 250}`;
        const ballot = await ballotOf(teacher, poll.id, address);
        expect((await vote(teacher, poll.id, ballot.token, address)).statusCode).toBe(201);
        t.clock.advance(100);
      }
      const times = await pageTimes(t, poll.id);
      expect(times.slice(0, BALLOTS_PER_MINUTE).every((time) => time !== null)).toBe(true);
      expect(times.slice(BALLOTS_PER_MINUTE)).toEqual([null, null, null, null, null]);
      // Another network is not affected, and the next minute the network's ballots count again.
      t.clock.advance(60_000);
      const teacher = new Visitor(t.app);
      const ballot = await ballotOf(teacher, poll.id, '198.51.100.7');
      await vote(teacher, poll.id, ballot.token, '198.51.100.7');
      expect((await pageTimes(t, poll.id)).at(-1)).not.toBeNull();
    },
  );
});
