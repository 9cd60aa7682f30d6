/**
 * Held votes at the close of voting, through the real app and database on a test clock: a
 * network still challenged when voting closes has its held votes counted by the site when they
 * split like the rest of the poll (teachers without scripts, whose challenge outlasted the day),
 * and a skewed block (a careful stuffer without proofs) stays held for staff, at the end of its
 * challenge and at the close.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { humanDelayMs, poissonTimes, random, voteAsTheApp } from '../testing/arrivals.js';
import { seedPoll } from '../testing/fixtures.js';
import { newYorkTime } from '../testing/test-clock.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { testDatabaseKinds } from '../testing/test-database.js';
import { Visitor } from '../testing/visitor.js';
import { SITE_ACTOR } from '../review/review.service.js';

// The generic write limit counts real seconds, not the test clock's, and is not what these test.
const env = { RATE_LIMIT_WRITES_PER_MINUTE: '0' };
const START = newYorkTime('2026-11-21', '10:00');
/** The site's default close is 20:00 in New York. */
const AFTER_CLOSE = newYorkTime('2026-11-21', '20:01');
const MINUTE = 60_000;

const statusCounts = async (t: TestApp, pollId: number) => {
  const rows = await t.db
    .selectFrom('votes')
    .select('status')
    .where('poll_id', '=', pollId)
    .where('bucket', 'is not', null)
    .execute();
  return {
    counted: rows.filter((row) => row.status === 'counted').length,
    held: rows.filter((row) => row.status === 'held').length,
  };
};
const tallyOf = async (t: TestApp, pollId: number) =>
  (
    await t.db
      .selectFrom('poll_options')
      .select('vote_count')
      .where('poll_id', '=', pollId)
      .orderBy('position')
      .execute()
  ).map((row) => row.vote_count);

describe.each(testDatabaseKinds())('held votes at the close (%s)', (kind) => {
  let t: TestApp;
  afterEach(() => t.close());

  it('a careful stuffer’s skewed held block stays held when its challenge ends and at the close', async () => {
    t = await createTestApp(kind, { env, now: START });
    const poll = await seedPoll(t.db, { options: ['Yes', 'No'], votes: [150, 150] }, START);
    const next = random(2002);
    // Fresh cookie and fresh ballot each, page-to-vote 2–10 s, exponential gaps, 85% one option,
    // and no proof of work when asked (issue 37 item 1).
    for (const at of poissonTimes(next, 300, 5 * MINUTE, START.getTime())) {
      const readMs = 2_000 + next() * 8_000;
      t.clock.set(new Date(at + readMs));
      const { statusCode } = await voteAsTheApp(new Visitor(t.app), {
        pollId: poll.id,
        optionIndex: next() < 0.85 ? 1 : 0,
        shownMs: readMs,
        remoteAddress: `198.51.100.${Math.floor(next() * 250)}`,
        scripts: false,
      });
      expect(statusCode).toBe(201);
    }
    const during = await statusCounts(t, poll.id);
    expect(during.counted + during.held).toBe(300);
    expect(during.counted).toBeLessThanOrEqual(110);
    expect(during.held).toBeGreaterThanOrEqual(190);
    const tallies = await tallyOf(t, poll.id);
    expect(tallies.reduce((sum, n) => sum + n, 0)).toBe(300 + during.counted);

    // Its challenge ends 30 quiet minutes after its last votes: the held block is no teacher
    // without scripts (it splits 85/15 against everyone else's 50/50), so it stays held.
    t.clock.set(new Date(START.getTime() + 45 * MINUTE));
    await t.app.jobs.tick();
    expect(await statusCounts(t, poll.id)).toEqual(during);
    // Nor is it counted at the close: a skewed block waits for staff.
    t.clock.set(AFTER_CLOSE);
    await t.app.jobs.tick();
    expect(await statusCounts(t, poll.id)).toEqual(during);
    expect(await tallyOf(t, poll.id)).toEqual(tallies);
    expect(await t.db.selectFrom('integrity_actions').select('id').execute()).toEqual([]);
  }, 240_000);

  it('counts a still-challenged school’s held teachers at the close when they split like the poll, once', async () => {
    t = await createTestApp(kind, { env, now: START, proofOfWorkBaseMaxNumber: 20 });
    const poll = await seedPoll(t.db, { options: ['Yes', 'No'], votes: [150, 150] }, START);
    const next = random(2003);
    // 300 first-time teachers behind one address in the last 10 minutes before the close, split
    // like the poll; one in three without scripts.
    const lastTen = newYorkTime('2026-11-21', '19:49').getTime();
    const steps = poissonTimes(next, 300, 10 * MINUTE, lastTen)
      .map((at) => ({ at, read: humanDelayMs(next) }))
      .sort((a, b) => a.at + a.read - (b.at + b.read));
    for (const [index, step] of steps.entries()) {
      t.clock.set(new Date(Math.min(step.at + step.read, newYorkTime('2026-11-21', '19:59').getTime())));
      const { statusCode } = await voteAsTheApp(new Visitor(t.app), {
        pollId: poll.id,
        optionIndex: next() < 0.5 ? 0 : 1,
        shownMs: step.read,
        remoteAddress: '203.0.113.20',
        scripts: index % 3 !== 0,
      });
      expect(statusCode).toBe(201);
    }
    const during = await statusCounts(t, poll.id);
    expect(during.counted + during.held).toBe(300);
    expect(during.held).toBeGreaterThan(0);
    expect(during.held).toBeLessThanOrEqual(100);

    // The challenge has not ended by the close (no 30 quiet minutes); at the close the site counts
    // them, with no one on staff doing anything; once.
    t.clock.set(AFTER_CLOSE);
    await t.app.jobs.tick();
    expect(await statusCounts(t, poll.id)).toEqual({ counted: 300, held: 0 });
    const tallies = await tallyOf(t, poll.id);
    expect(tallies.reduce((sum, n) => sum + n, 0)).toBe(600);
    const log = await t.db.selectFrom('integrity_actions').select(['kind', 'actor', 'votes']).execute();
    expect(log).toEqual([{ kind: 'release', actor: SITE_ACTOR, votes: during.held }]);
    await t.app.jobs.tick();
    expect(await t.db.selectFrom('integrity_actions').select('id').execute()).toHaveLength(1);
  }, 240_000);
});
