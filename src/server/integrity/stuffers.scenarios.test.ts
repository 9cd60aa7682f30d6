/**
 * Issue 37's scenarios 0 and 1, through the real app and database on a test clock: the school
 * promise (a staff meeting of first-time teachers behind one /24 is counted at once, all of it),
 * and the ceiling on first-time votes per network a careful stuffer meets, and a naive flood.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { humanDelayMs, poissonTimes, random, voteAsTheApp } from '../testing/arrivals.js';
import { insertVoteRow, seedPoll } from '../testing/fixtures.js';
import { newYorkTime } from '../testing/test-clock.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { testDatabaseKinds } from '../testing/test-database.js';
import { Visitor } from '../testing/visitor.js';
import { SURGE_KEY } from './detector.js';

// The generic write limit counts real seconds, not the test clock's, and is not what these test.
const env = { RATE_LIMIT_WRITES_PER_MINUTE: '0' };
const START = newYorkTime('2026-11-21', '10:00');

const statusesOf = async (t: TestApp, pollId: number) =>
  (
    await t.db
      .selectFrom('votes')
      .select('status')
      .where('poll_id', '=', pollId)
      .where('bucket', 'is not', null)
      .orderBy('id')
      .execute()
  ).map((row) => row.status);
const counted = (statuses: string[]) => statuses.filter((status) => status === 'counted').length;

describe.each(testDatabaseKinds())('stuffers and schools (%s)', (kind) => {
  let t: TestApp;
  afterEach(() => t.close());

  it('0. counts a staff meeting of 100 first-time teachers behind one /24 in 2 minutes at once, all of it', async () => {
    t = await createTestApp(kind, { env, now: START, proofOfWorkBaseMaxNumber: 20 });
    const poll = await seedPoll(t.db, { options: ['Agree', 'Disagree'], votes: [150, 150] }, START);
    const next = random(100);
    const arrivals = poissonTimes(next, 100, 2 * 60_000, START.getTime());
    const steps = arrivals
      .map((at, i) => ({ at, read: humanDelayMs(next), i }))
      .sort((a, b) => a.at + a.read - (b.at + b.read));
    for (const step of steps) {
      t.clock.set(new Date(step.at + step.read));
      const { statusCode } = await voteAsTheApp(new Visitor(t.app), {
        pollId: poll.id,
        optionIndex: next() < 0.85 ? 0 : 1,
        shownMs: step.read,
        // Four addresses of the school's /24: one network.
        remoteAddress: `203.0.113.${20 + (step.i % 4)}`,
      });
      expect(statusCode).toBe(201);
    }
    const statuses = await statusesOf(t, poll.id);
    expect(statuses).toHaveLength(100);
    expect(counted(statuses)).toBe(100);
    // One network, however loud: a school is never a surge of the poll (detector.ts, judgeSurge).
    const surges = await t.db
      .selectFrom('integrity_buckets')
      .select('bucket')
      .where('bucket', '=', SURGE_KEY)
      .execute();
    expect(surges).toEqual([]);
  }, 120_000);

  it('1. counts at most 110 of a careful stuffer’s 300 votes in 5 minutes from one /24 without proofs of work', async () => {
    t = await createTestApp(kind, { env, now: START });
    const poll = await seedPoll(t.db, { options: ['Yes', 'No'], votes: [150, 150] }, START);
    const next = random(300);
    // Fresh cookie and fresh ballot each, page-to-vote 2–10 s, exponential gaps, 85% one option.
    for (const at of poissonTimes(next, 300, 5 * 60_000, START.getTime())) {
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
    const statuses = await statusesOf(t, poll.id);
    expect(statuses).toHaveLength(300);
    expect(counted(statuses)).toBeLessThanOrEqual(110);
  }, 180_000);

  it('1. counts at most 110 of a naive flood at the write limit (600 a minute, no ballot, no cookie) over 2 minutes', async () => {
    t = await createTestApp(kind, { env, now: START });
    const poll = await seedPoll(t.db, { options: ['Yes', 'No'], votes: [150, 150] }, START);
    for (let i = 0; i < 1200; i += 1) {
      t.clock.advance(100);
      const response = await t.app.inject({
        method: 'POST',
        url: `/api/polls/${poll.id}/vote`,
        payload: { optionIndex: 0 },
        remoteAddress: '198.51.100.7',
      });
      expect(response.statusCode).toBe(201);
    }
    const statuses = await statusesOf(t, poll.id);
    expect(statuses).toHaveLength(1200);
    expect(counted(statuses)).toBeLessThanOrEqual(110);
  }, 180_000);

  it('4. never asks nor holds a browser that voted on an earlier poll for a griefer’s burst in its /24', async () => {
    t = await createTestApp(kind, { env, now: START });
    const yesterday = await seedPoll(t.db, { status: 'past', liveDate: '2026-11-20', options: ['A', 'B'] }, START);
    const poll = await seedPoll(t.db, { options: ['Yes', 'No'], votes: [150, 150] }, START);
    // The griefer: 90 ballot-less votes in 30 s from the school's /24.
    for (let i = 0; i < 90; i += 1) {
      t.clock.advance(333);
      await t.app.inject({
        method: 'POST',
        url: `/api/polls/${poll.id}/vote`,
        payload: { optionIndex: 1 },
        remoteAddress: '203.0.113.66',
      });
    }
    t.clock.advance(2_000);
    // 40 teachers who voted yesterday (cookies a month old), scripts off: no proof to give.
    const next = random(4);
    for (let i = 0; i < 40; i += 1) {
      const teacher = await new Visitor(t.app).holdVoterId(
        t.db,
        `returning-teacher-${String(i).padStart(4, '0')}`,
        START.getTime() - 30 * 86_400_000,
      );
      await insertVoteRow(t.db, { pollId: yesterday.id, voterId: teacher.voterId ?? '', votedOn: '2026-11-20' });
      t.clock.advance(1_000);
      const ballot = await teacher.request({
        method: 'GET',
        url: `/api/polls/${poll.id}/ballot?shown=5000`,
        remoteAddress: '203.0.113.20',
      });
      expect(ballot.json<{ proofOfWork: boolean }>().proofOfWork).toBe(false);
      const { statusCode } = await voteAsTheApp(teacher, {
        pollId: poll.id,
        optionIndex: next() < 0.5 ? 0 : 1,
        shownMs: 5_000,
        remoteAddress: '203.0.113.20',
        scripts: false,
      });
      expect(statusCode).toBe(201);
    }
    const statuses = await statusesOf(t, poll.id);
    // The griefer's burst was challenged and its later votes held; every teacher counted.
    expect(statuses.slice(0, 90).filter((status) => status === 'held').length).toBeGreaterThan(0);
    expect(statuses.slice(90)).toEqual(Array.from({ length: 40 }, () => 'counted'));
  }, 120_000);
});
