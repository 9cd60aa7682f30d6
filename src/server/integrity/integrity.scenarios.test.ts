/**
 * Issue 25's scenarios, through the real app and database on a test clock: a naive stuffer is
 * challenged and held, a school behind one address is not, and instances judge one bucket
 * together.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Ballot, ProofOfWorkChallenge } from '../../shared/api.js';
import { solveInNode } from '../testing/proof-of-work-solver.js';
import { humanDelayMs, poissonTimes, random, voteAsTheApp } from '../testing/arrivals.js';
import { seedPoll } from '../testing/fixtures.js';
import { newYorkTime } from '../testing/test-clock.js';
import { FIRST_TIME_CEILING } from './detector.js';
import { createTestApp, createTestAppOn, type TestApp } from '../testing/test-app.js';
import { createTestDatabase, testDatabaseKinds } from '../testing/test-database.js';
import { Visitor } from '../testing/visitor.js';

const STATUSES = (t: TestApp, pollId: number) =>
  t.db
    .selectFrom('votes')
    .select(['status', 'created_at', 'bucket'])
    .where('poll_id', '=', pollId)
    .orderBy('id')
    .execute();

// The generic write limit counts real seconds, not the test clock's, and is not what these test.
const env = { RATE_LIMIT_WRITES_PER_MINUTE: '0' };
const START = newYorkTime('2026-11-21', '10:00');

describe.each(testDatabaseKinds())('vote integrity scenarios (%s)', (kind) => {
  let t: TestApp;
  let other: TestApp | undefined;
  afterEach(async () => {
    await other?.close();
    other = undefined;
    await t.close();
  });

  it('challenges a naive stuffer within 90 votes and holds at least 95% of the rest', async () => {
    t = await createTestApp(kind, { env, now: START });
    // The rest of the country is split.
    const poll = await seedPoll(t.db, { options: ['Yes', 'No'], votes: [150, 150] }, START);
    const address = '198.51.100.7';
    // No cookie kept, no page read, one address, 10 votes a second for 2 minutes.
    for (let i = 0; i < 1200; i += 1) {
      t.clock.advance(100);
      const response = await t.app.inject({
        method: 'POST',
        url: `/api/polls/${poll.id}/vote`,
        payload: { optionIndex: 0 },
        remoteAddress: address,
      });
      // Held or counted, the vote is recorded (a held one says it is counted after a check).
      expect(response.statusCode).toBe(201);
      expect(response.json()).toMatchObject({ pollId: poll.id, optionIndex: 0 });
    }
    const votes = (await STATUSES(t, poll.id)).filter((vote) => vote.bucket !== null);
    expect(votes).toHaveLength(1200);
    const firstHeld = votes.findIndex((vote) => vote.status === 'held');
    expect(firstHeld).toBeGreaterThanOrEqual(0);
    expect(firstHeld).toBeLessThan(90);
    const rest = votes.slice(firstHeld);
    expect(rest.filter((vote) => vote.status === 'held').length / rest.length).toBeGreaterThanOrEqual(0.95);
    // Held votes are in no tally, and the poll counts them as set aside.
    const held = votes.filter((vote) => vote.status === 'held').length;
    const tallies = await t.db.selectFrom('poll_options').select('vote_count').where('poll_id', '=', poll.id).execute();
    expect(tallies.reduce((sum, row) => sum + row.vote_count, 0)).toBe(300 + 1200 - held);
    const { set_aside_votes } = await t.db
      .selectFrom('polls')
      .select('set_aside_votes')
      .where('id', '=', poll.id)
      .executeTakeFirstOrThrow();
    expect(set_aside_votes).toBe(held);
  }, 60_000);

  it('never holds a school behind one address, nor asks a teacher more than one proof: 300 teachers over 10 minutes and a staff meeting of 120', async () => {
    // Tiny proofs of work, so that Node solves them in the test's time.
    t = await createTestApp(kind, { env, now: START, proofOfWorkBaseMaxNumber: 20 });
    const poll = await seedPoll(t.db, { options: ['Agree', 'Disagree'], votes: [150, 150] }, START);
    const next = random(2026);
    const schoolAddress = '203.0.113.20';
    const start = START.getTime();
    const arrivals = [
      ...poissonTimes(next, 300, 10 * 60_000, start),
      // The staff meeting: 120 in 2 minutes, from minute 4.
      ...poissonTimes(next, 120, 2 * 60_000, start + 4 * 60_000),
    ];
    // Each teacher loads the page, reads, then votes: two events on one timeline.
    type Step = { at: number; teacher: number; kind: 'read' | 'vote' };
    const steps: Step[] = arrivals.flatMap((at, teacher) => [
      { at, teacher, kind: 'read' as const },
      { at: at + humanDelayMs(next), teacher, kind: 'vote' as const },
    ]);
    steps.sort((a, b) => a.at - b.at);
    const teachers = arrivals.map(() => ({ visitor: new Visitor(t.app), readAt: 0, choice: next() < 0.85 ? 0 : 1 }));
    let proofs = 0;
    for (const step of steps) {
      t.clock.set(new Date(step.at));
      const teacher = teachers[step.teacher];
      if (!teacher) throw new Error('no such teacher');
      if (step.kind === 'read') {
        await teacher.visitor.request({ method: 'GET', url: '/api/polls/active', remoteAddress: schoolAddress });
        teacher.readAt = step.at;
        continue;
      }
      const { statusCode, solved } = await voteAsTheApp(teacher.visitor, {
        pollId: poll.id,
        optionIndex: teacher.choice,
        shownMs: step.at - teacher.readAt,
        remoteAddress: schoolAddress,
      });
      expect(statusCode).toBe(201);
      if (solved) proofs += 1;
    }
    const votes = (await STATUSES(t, poll.id)).filter((vote) => vote.bucket !== null);
    expect(votes).toHaveLength(420);
    // Every vote counted at once; past the first-time ceiling, a first-time teacher solved one proof.
    expect(votes.filter((vote) => vote.status !== 'counted')).toEqual([]);
    expect(proofs).toBeLessThanOrEqual(420 - FIRST_TIME_CEILING);
  }, 180_000);

  it('holds under 1% of a school’s votes when a stuffer shares its /24: the teachers’ browsers prove their work', async () => {
    // Tiny proofs of work, so that Node solves 300 of them in the test's time.
    t = await createTestApp(kind, { env, now: START, proofOfWorkBaseMaxNumber: 20 });
    const poll = await seedPoll(t.db, { options: ['Agree', 'Disagree'], votes: [150, 150] }, START);
    const next = random(99);
    const start = START.getTime();
    type Step = { at: number; who: number; kind: 'read' | 'vote' | 'stuff' };
    const arrivals = poissonTimes(next, 300, 10 * 60_000, start);
    const steps: Step[] = [
      ...arrivals.flatMap((at, who) => [
        { at, who, kind: 'read' as const },
        { at: at + humanDelayMs(next), who, kind: 'vote' as const },
      ]),
      // The stuffer: 5 votes a second for 2 minutes from minute 2, no page, no cookie.
      ...Array.from({ length: 600 }, (_, i) => ({ at: start + 2 * 60_000 + i * 200, who: -1, kind: 'stuff' as const })),
    ];
    steps.sort((a, b) => a.at - b.at);
    const teachers = arrivals.map((_, i) => ({
      visitor: new Visitor(t.app),
      readAt: 0,
      choice: next() < 0.85 ? 0 : 1,
      address: `203.0.113.${10 + (i % 200)}`,
    }));
    const honestIds = new Set<string>();
    for (const step of steps) {
      t.clock.set(new Date(step.at));
      if (step.kind === 'stuff') {
        await t.app.inject({
          method: 'POST',
          url: `/api/polls/${poll.id}/vote`,
          payload: { optionIndex: 1 },
          remoteAddress: '203.0.113.5',
        });
        continue;
      }
      const teacher = teachers[step.who];
      if (!teacher) throw new Error('no such teacher');
      const as = { remoteAddress: teacher.address };
      if (step.kind === 'read') {
        await teacher.visitor.request({ method: 'GET', url: '/api/polls/active', ...as });
        teacher.readAt = step.at;
        continue;
      }
      // As the app does (get-ballot.ts, cast-vote.ts): the ballot on the intent to vote, and a
      // proof of work when it asks for one.
      const ballot = (
        await teacher.visitor.request({
          method: 'GET',
          url: `/api/polls/${poll.id}/ballot?shown=${Math.round(step.at - teacher.readAt)}`,
          ...as,
        })
      ).json<Ballot>();
      let proof: string | undefined;
      if (ballot.proofOfWork) {
        const challenge = await teacher.visitor.request({
          method: 'GET',
          url: `/api/polls/${poll.id}/proof-of-work`,
          ...as,
        });
        proof = await solveInNode(challenge.json<ProofOfWorkChallenge>());
      }
      const response = await teacher.visitor.request({
        method: 'POST',
        url: `/api/polls/${poll.id}/vote`,
        payload: { optionIndex: teacher.choice, ballot: ballot.token, ...(proof ? { proof } : {}) },
        ...as,
      });
      expect(response.statusCode).toBe(201);
      honestIds.add(teacher.visitor.voterId ?? '');
    }
    const votes = await t.db
      .selectFrom('votes')
      .select(['status', 'voter_id'])
      .where('poll_id', '=', poll.id)
      .where('bucket', 'is not', null)
      .execute();
    const honest = votes.filter((vote) => honestIds.has(vote.voter_id));
    const stuffed = votes.filter((vote) => !honestIds.has(vote.voter_id));
    expect(honest).toHaveLength(300);
    expect(stuffed).toHaveLength(600);
    // Some teachers voted while the bucket was challenged: their proofs made them count.
    expect(honest.filter((vote) => vote.status === 'held').length / honest.length).toBeLessThan(0.01);
    expect(stuffed.filter((vote) => vote.status === 'held').length).toBeGreaterThan(500);
  }, 120_000);

  it('flags a smart stuffer, who reads pages and waits like a person, by volume and skew', async () => {
    t = await createTestApp(kind, { env, now: START });
    const poll = await seedPoll(t.db, { options: ['Yes', 'No'], votes: [150, 150] }, START);
    const next = random(7);
    // A new browser a second, each reading the page and voting 2 to 10 s later, almost all "No".
    for (let i = 0; i < 240; i += 1) {
      const visitor = new Visitor(t.app);
      t.clock.advance(1_000);
      await visitor.request({ method: 'GET', url: '/api/polls/active', remoteAddress: '198.51.100.200' });
      const readFor = 2_000 + next() * 8_000;
      t.clock.advance(readFor);
      const read = (
        await visitor.request({
          method: 'GET',
          url: `/api/polls/${poll.id}/ballot?shown=${Math.round(readFor)}`,
          remoteAddress: '198.51.100.200',
        })
      ).json<Ballot>();
      await visitor.request({
        method: 'POST',
        url: `/api/polls/${poll.id}/vote`,
        payload: { optionIndex: next() < 0.97 ? 1 : 0, ballot: read.token },
        remoteAddress: '198.51.100.200',
      });
    }
    const flagged = await t.db.selectFrom('integrity_buckets').select(['state', 'reasons']).execute();
    expect(flagged).toHaveLength(1);
    expect(flagged[0]?.reasons.split(',')).toEqual(expect.arrayContaining(['volume', 'skew']));
  }, 60_000);

  it('judges a burst split across two instances as one bucket', async () => {
    const database = await createTestDatabase(kind);
    t = await createTestAppOn(database, { env, now: START, keepDatabase: true });
    other = await createTestAppOn(database, { env, now: START });
    const poll = await seedPoll(t.db, { options: ['Yes', 'No'], votes: [150, 150] }, START);
    const instances = [t, other];
    for (let i = 0; i < 400; i += 1) {
      for (const instance of instances) instance.clock.advance(50);
      const instance = instances[i % 2] ?? t;
      await instance.app.inject({
        method: 'POST',
        url: `/api/polls/${poll.id}/vote`,
        payload: { optionIndex: 1 },
        // Two addresses of one /24: one bucket.
        remoteAddress: i % 2 === 0 ? '192.0.2.10' : '192.0.2.99',
      });
    }
    const votes = (await STATUSES(t, poll.id)).filter((vote) => vote.bucket !== null);
    expect(new Set(votes.map((vote) => vote.bucket)).size).toBe(1);
    const firstHeld = votes.findIndex((vote) => vote.status === 'held');
    expect(firstHeld).toBeGreaterThanOrEqual(0);
    expect(firstHeld).toBeLessThan(90);
    // Both instances hold the votes that came after.
    const late = votes.slice(120);
    expect(late.every((vote) => vote.status === 'held')).toBe(true);
  }, 60_000);
});
