/**
 * Issue 37's scenario 4 in full, through the real app and database on a test clock: 300
 * teachers behind one address over 10 minutes while a griefer in the same /24 bursts 90
 * ballot-less votes every 30 minutes for 2 hours. Returning teachers are never asked nor held,
 * first-time teachers with scripts count, and those without scripts, held, are counted without
 * staff action when the challenge ends; the griefer's votes stay held.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { humanDelayMs, poissonTimes, random, voteAsTheApp } from '../testing/arrivals.js';
import { insertVoteRow, seedPoll } from '../testing/fixtures.js';
import { newYorkTime } from '../testing/test-clock.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { testDatabaseKinds } from '../testing/test-database.js';
import { Visitor } from '../testing/visitor.js';
import { SITE_ACTOR } from '../review/review.service.js';

// The generic write limit counts real seconds, not the test clock's, and is not what these test.
const env = { RATE_LIMIT_WRITES_PER_MINUTE: '0' };
const START = newYorkTime('2026-11-21', '10:00');
const MINUTE = 60_000;

type Teacher = 'returning' | 'scripts' | 'no-scripts';

describe.each(testDatabaseKinds())('the school and the griefer (%s)', (kind) => {
  let t: TestApp;
  afterEach(() => t.close());

  it('4. counts every teacher, those held without scripts when the challenge ends, and keeps the griefer’s votes held', async () => {
    t = await createTestApp(kind, { env, now: START, proofOfWorkBaseMaxNumber: 20 });
    const yesterday = await seedPoll(t.db, { status: 'past', liveDate: '2026-11-20', options: ['A', 'B'] }, START);
    const poll = await seedPoll(t.db, { options: ['Yes', 'No'], votes: [150, 150] }, START);
    const next = random(404);
    const start = START.getTime();
    type Step = { at: number; who: number; griefer: boolean };
    const steps: Step[] = [
      ...poissonTimes(next, 300, 10 * MINUTE, start + MINUTE).map((at, who) => ({ at, who, griefer: false })),
      ...Array.from({ length: 5 }, (_, burst) =>
        Array.from({ length: 90 }, (__, i) => ({ at: start + burst * 30 * MINUTE + i * 300, who: -1, griefer: true })),
      ).flat(),
    ].sort((a, b) => a.at - b.at);
    const kinds = new Map<string, Teacher>();
    let proofs = 0;
    for (const step of steps) {
      t.clock.set(new Date(step.at));
      if (step.griefer) {
        await t.app.inject({
          method: 'POST',
          url: `/api/polls/${poll.id}/vote`,
          payload: { optionIndex: 1 },
          remoteAddress: '203.0.113.66',
        });
        continue;
      }
      const teacher: Teacher = (['returning', 'scripts', 'no-scripts'] as const)[step.who % 3] ?? 'scripts';
      let visitor = new Visitor(t.app);
      if (teacher === 'returning') {
        const id = `returning-teacher-${String(step.who).padStart(4, '0')}`;
        visitor = await visitor.holdVoterId(t.db, id, start - 30 * 86_400_000);
        await insertVoteRow(t.db, { pollId: yesterday.id, voterId: id, votedOn: '2026-11-20' });
      }
      const { statusCode, solved } = await voteAsTheApp(visitor, {
        pollId: poll.id,
        optionIndex: next() < 0.6 ? 0 : 1,
        shownMs: humanDelayMs(next),
        remoteAddress: '203.0.113.20',
        scripts: teacher !== 'no-scripts',
      });
      expect(statusCode).toBe(201);
      if (solved) proofs += 1;
      kinds.set(visitor.voterId ?? '', teacher);
    }
    const statuses = async () => {
      const votes = await t.db
        .selectFrom('votes')
        .select(['voter_id', 'status'])
        .where('poll_id', '=', poll.id)
        .where('bucket', 'is not', null)
        .execute();
      const of = (who: Teacher | 'griefer', status: string) =>
        votes.filter((vote) => (kinds.get(vote.voter_id) ?? 'griefer') === who && vote.status === status).length;
      return {
        returning: { counted: of('returning', 'counted'), held: of('returning', 'held') },
        scripts: { counted: of('scripts', 'counted'), held: of('scripts', 'held') },
        noScripts: { counted: of('no-scripts', 'counted'), held: of('no-scripts', 'held') },
        griefer: { counted: of('griefer', 'counted'), held: of('griefer', 'held') },
      };
    };
    const during = await statuses();
    // At most one proof per first-time teacher with scripts; none for anyone else.
    expect(proofs).toBeGreaterThan(0);
    expect(proofs).toBeLessThanOrEqual(100);
    expect(during.returning).toEqual({ counted: 100, held: 0 });
    expect(during.scripts).toEqual({ counted: 100, held: 0 });
    expect(during.noScripts.held).toBeGreaterThan(0);
    expect(during.griefer.held).toBeGreaterThan(300);

    // Still challenged at 12:20 (the last burst was at 12:00): nothing is released yet.
    t.clock.set(new Date(start + 140 * MINUTE));
    await t.app.jobs.tick();
    expect(await statuses()).toEqual(during);
    // The challenge ends 30 quiet minutes after the last burst; the next run of the jobs counts
    // the teachers, and not the griefer.
    t.clock.set(new Date(start + 151 * MINUTE));
    await t.app.jobs.tick();
    const after = await statuses();
    expect(after.noScripts).toEqual({ counted: 100, held: 0 });
    expect(after.griefer).toEqual(during.griefer);
    const log = await t.db.selectFrom('integrity_actions').select(['kind', 'actor', 'votes']).execute();
    expect(log).toEqual([{ kind: 'release', actor: SITE_ACTOR, votes: during.noScripts.held }]);
    // Released votes are in the tallies.
    const tallies = await t.db.selectFrom('poll_options').select('vote_count').where('poll_id', '=', poll.id).execute();
    const counted = after.returning.counted + after.scripts.counted + after.noScripts.counted + after.griefer.counted;
    expect(tallies.reduce((sum, row) => sum + row.vote_count, 0)).toBe(300 + counted);
    // A second run finds nothing more to count.
    await t.app.jobs.tick();
    expect(await t.db.selectFrom('integrity_actions').select('id').execute()).toHaveLength(1);
  }, 300_000);
});
