/**
 * Issue 37's scenario 3, through the real app and database on a test clock: a distributed
 * stuffer (one vote per /24 from a proxy pool) is flagged as a surge of the whole poll, its
 * later first-time votes must prove work (it does not, so they are held), and staff set the
 * surge aside in one action and restore it exactly.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { IntegrityChange, IntegrityReport } from '../../shared/api.js';
import { poissonTimes, random, voteAsTheApp } from '../testing/arrivals.js';
import { insertVoteRow, seedPoll } from '../testing/fixtures.js';
import { keptTallies } from '../testing/review-fixtures.js';
import { newYorkTime } from '../testing/test-clock.js';
import { createTestApp, TEST_SIGN_IN, type TestApp } from '../testing/test-app.js';
import { testDatabaseKinds } from '../testing/test-database.js';
import { Visitor } from '../testing/visitor.js';
import { SURGE_KEY } from './detector.js';

// The generic write limit counts real seconds, not the test clock's, and is not what these test.
const env = { RATE_LIMIT_WRITES_PER_MINUTE: '0' };
const START = newYorkTime('2026-11-21', '10:00');
const MINUTE = 60_000;

describe.each(testDatabaseKinds())('a distributed stuffer (%s)', (kind) => {
  let t: TestApp;
  afterEach(() => t.close());

  it('3. flags 400 votes from 400 /24s as a surge within 2 minutes, holds its later votes, and staff set it aside and restore it in one action each', async () => {
    // Tiny proofs of work, so that Node solves the honest first-time voters' in the test's time.
    t = await createTestApp(kind, { env, now: START, proofOfWorkBaseMaxNumber: 20 });
    const yesterday = await seedPoll(t.db, { status: 'past', liveDate: '2026-11-20', options: ['A', 'B'] }, START);
    const poll = await seedPoll(t.db, { options: ['Yes', 'No'] }, START);
    const next = random(37);
    const start = START.getTime();
    const stuffFrom = start + 4 * MINUTE;
    const stuffTo = stuffFrom + 4 * MINUTE;
    type Step = { at: number; who: number; stuffer: boolean };
    // 150 honest votes from 100 /24s over 14 minutes, split evenly; half of them from browsers
    // that voted yesterday. 400 stuffed ones from 400 /24s in 4 minutes, 90% "Yes".
    const steps: Step[] = [
      ...poissonTimes(next, 150, 14 * MINUTE, start).map((at, who) => ({ at, who, stuffer: false })),
      ...poissonTimes(next, 400, 4 * MINUTE - 1_000, stuffFrom).map((at, who) => ({ at, who, stuffer: true })),
    ].sort((a, b) => a.at - b.at);
    const honestIds = new Set<string>();
    for (const step of steps) {
      t.clock.set(new Date(step.at));
      let visitor = new Visitor(t.app);
      if (!step.stuffer && Math.floor(step.who / 2) % 2 === 1) {
        const id = `returning-teacher-${String(step.who).padStart(4, '0')}`;
        visitor = await visitor.holdVoterId(t.db, id, start - 30 * 86_400_000);
        await insertVoteRow(t.db, { pollId: yesterday.id, voterId: visitor.voterId ?? '', votedOn: '2026-11-20' });
      }
      const { statusCode } = await voteAsTheApp(visitor, {
        pollId: poll.id,
        optionIndex: step.stuffer ? (next() < 0.9 ? 0 : 1) : step.who % 2,
        shownMs: 2_000 + next() * 8_000,
        remoteAddress: step.stuffer
          ? `10.${1 + (step.who >> 8)}.${step.who & 255}.7`
          : `172.16.${step.who % 100}.${10 + (step.who % 7)}`,
        // The stuffer solves no proof; honest browsers have scripts.
        scripts: !step.stuffer,
      });
      expect(statusCode).toBe(201);
      if (!step.stuffer) honestIds.add(visitor.voterId ?? '');
    }

    const surge = await t.db
      .selectFrom('integrity_buckets')
      .selectAll()
      .where('poll_id', '=', poll.id)
      .where('bucket', '=', SURGE_KEY)
      .executeTakeFirstOrThrow();
    const flaggedAt = new Date(String(surge.challenged_since)).getTime();
    expect(flaggedAt).toBeGreaterThan(stuffFrom);
    expect(flaggedAt).toBeLessThanOrEqual(stuffFrom + 2 * MINUTE);
    expect(surge.reasons.split(',')).toEqual(expect.arrayContaining(['first-time', 'split']));
    // The owner is told (through the outbox: integrity-alerts.test.ts sends it).
    const told = await t.db
      .selectFrom('email_outbox')
      .select('poll_id')
      .where('kind', '=', 'staff-integrity')
      .execute();
    expect(told).toEqual([{ poll_id: poll.id }]);

    const votes = await t.db
      .selectFrom('votes')
      .select(['status', 'voter_id', 'option_index'])
      .where('poll_id', '=', poll.id)
      .execute();
    const honest = votes.filter((vote) => honestIds.has(vote.voter_id));
    const stuffed = votes.filter((vote) => !honestIds.has(vote.voter_id));
    expect(honest).toHaveLength(150);
    expect(stuffed).toHaveLength(400);
    // Every honest vote counts (the first-time ones proved their work during the surge).
    expect(honest.filter((vote) => vote.status !== 'counted')).toEqual([]);
    const stuffedCounted = stuffed.filter((vote) => vote.status === 'counted').length;
    expect(stuffedCounted).toBeLessThan(200);

    // Staff see the surge, and set it aside in one action: first-time browsers in its time.
    const staff = new Visitor(t.app, { origin: t.config.site.publicUrl });
    expect((await staff.post('/api/admin/login', TEST_SIGN_IN)).statusCode).toBe(200);
    const report = (
      await staff.request({ method: 'GET', url: `/api/admin/polls/${poll.id}/integrity` })
    ).json<IntegrityReport>();
    expect(report.surge).toMatchObject({ signals: expect.arrayContaining(['first-time', 'split']) });
    expect(report.surge?.votes.counted).toBeGreaterThan(0);
    const tallies = async () => (await keptTallies(t.db, poll.id)).options;
    const before = await tallies();
    const discount = await staff.post(`/api/admin/polls/${poll.id}/discounts`, {
      signal: 'first-time',
      from: new Date(stuffFrom).toISOString(),
      to: new Date(stuffTo).toISOString(),
      reason: 'A surge of first-time browsers from hundreds of networks, 90% one option',
    });
    expect(discount.statusCode).toBe(201);
    const { action } = discount.json<IntegrityChange>();
    const after = await tallies();
    const share = (counts: number[]) => (counts[0] ?? 0) / counts.reduce((a, b) => a + b, 0);
    expect(Math.abs(share(after) - 0.5)).toBeLessThanOrEqual(0.03);
    const audit = await t.db.selectFrom('audit_log').select(['action', 'summary']).execute();
    expect(audit.some((row) => row.action === 'integrity.discount' && row.summary.includes('first-time'))).toBe(true);

    // Restored exactly.
    const restore = await staff.request({
      method: 'DELETE',
      url: `/api/admin/polls/${poll.id}/discounts/${action.id}`,
    });
    expect(restore.statusCode).toBe(200);
    expect(await tallies()).toEqual(before);
  }, 240_000);
});
