import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Stats } from '../../shared/api.js';
import { insertVoteRow, seedPoll } from '../testing/fixtures.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { newYorkTime } from '../testing/test-clock.js';
import { testDatabaseKinds } from '../testing/test-database.js';
import { Visitor } from '../testing/visitor.js';

describe.each(testDatabaseKinds())('stats (%s)', (kind) => {
  let t: TestApp;

  beforeEach(async () => {
    t = await createTestApp(kind);
  });
  afterEach(() => t.close());

  /** Records a vote by this visitor on a past poll, as if cast on `day`. */
  async function votedOn(visitor: Visitor, day: string) {
    const poll = await seedPoll(t.db, { status: 'past', liveDate: day });
    await insertVoteRow(t.db, { pollId: poll.id, voterId: visitor.voterId ?? '', votedOn: day });
  }

  it('counts the polls that went live, and nothing for a browser that never voted', async () => {
    await seedPoll(t.db, { status: 'past', liveDate: '2026-11-19' });
    await seedPoll(t.db, { status: 'past', liveDate: '2026-11-20' });
    await seedPoll(t.db, { status: 'active' });
    await seedPoll(t.db, { status: 'scheduled', liveDate: '2026-11-22' });

    const response = await new Visitor(t.app).get('/api/stats');

    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ totalPolls: 3, totalVotes: 0, streak: 0 } satisfies Stats);
  });

  it("counts this browser's votes and its streak of consecutive days", async () => {
    const today = await seedPoll(t.db);
    const visitor = await new Visitor(t.app).holdVoterId(t.db, 'AAAAAAAAAAAAAAAAAAAAAA');
    await votedOn(visitor, '2026-11-17');
    await votedOn(visitor, '2026-11-19');
    await votedOn(visitor, '2026-11-20');

    // Before voting today, yesterday's streak still stands.
    expect((await visitor.get('/api/stats')).json()).toEqual({ totalPolls: 4, totalVotes: 3, streak: 2 });

    await visitor.vote(today.id, 0);
    expect((await visitor.get('/api/stats')).json()).toEqual({ totalPolls: 4, totalVotes: 4, streak: 3 });

    // Two days later without voting, the streak is gone; the votes stay.
    t.clock.set(newYorkTime('2026-11-23', '09:00'));
    expect((await visitor.get('/api/stats')).json()).toEqual({ totalPolls: 4, totalVotes: 4, streak: 0 });
  });

  it('counts streak days in New York time, not in UTC or the machine time zone', async () => {
    const visitor = await new Visitor(t.app).holdVoterId(t.db, 'BBBBBBBBBBBBBBBBBBBBBB');
    await votedOn(visitor, '2026-11-20');
    // 23:30 on Nov 21 in New York: already Nov 22 in UTC and in Adelaide.
    t.clock.set(newYorkTime('2026-11-21', '23:30'));
    expect((await visitor.get('/api/stats')).json<Stats>().streak).toBe(1);
  });

  it("POST answers the same, and never counts someone else's votes for a typed e-mail", async () => {
    const poll = await seedPoll(t.db);
    const owner = new Visitor(t.app);
    await owner.vote(poll.id, 0);
    await owner.post(`/api/polls/${poll.id}/update-vote`, { email: 'owner@example.org' });

    const own = await owner.post('/api/stats', { voterEmail: 'owner@example.org' });
    expect(own.json()).toEqual({ totalPolls: 1, totalVotes: 1, streak: 1 });

    const snoop = await new Visitor(t.app).post('/api/stats', { voterEmail: 'owner@example.org' });
    expect(snoop.statusCode).toBe(200);
    expect(snoop.json()).toEqual({ totalPolls: 1, totalVotes: 0, streak: 0 });
  });

  it('POST takes an empty body, and ignores an e-mail it cannot use; a body that is not an object is refused', async () => {
    const poll = await seedPoll(t.db);
    const visitor = new Visitor(t.app);
    await visitor.vote(poll.id, 0);
    expect((await visitor.post('/api/stats')).json()).toEqual({ totalPolls: 1, totalVotes: 1, streak: 1 });
    for (const voterEmail of ['', 'nope', 'a\u0000b@x.yz', 42, ['a@x.org'], null]) {
      const hinted = await visitor.post('/api/stats', { voterEmail });
      expect(hinted.statusCode, JSON.stringify(voterEmail)).toBe(200);
      expect(hinted.json()).toEqual({ totalPolls: 1, totalVotes: 1, streak: 1 });
    }
    const notObject = await visitor.request({
      method: 'POST',
      url: '/api/stats',
      headers: { 'content-type': 'application/json' },
      payload: '[1,2]',
    });
    expect(notObject.statusCode).toBe(400);
  });
});
