import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Breakdown } from '../../shared/api.js';
import { roleDimension, shownGroup } from '../testing/breakdowns.js';
import { seedPoll, seedProfiledVotes } from '../testing/fixtures.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { newYorkTime } from '../testing/test-clock.js';
import { testDatabaseKinds } from '../testing/test-database.js';
import { Visitor } from '../testing/visitor.js';

describe.each(testDatabaseKinds())('GET /api/polls/:id/breakdown (%s)', (kind) => {
  let t: TestApp;

  beforeEach(async () => {
    t = await createTestApp(kind);
  });
  afterEach(() => t.close());

  const get = (pollId: number | string) => new Visitor(t.app).get(`/api/polls/${pollId}/breakdown`);

  it('shows a past poll’s groups of 10 or more votes, withholds smaller ones, and counts who did not say', async () => {
    const past = await seedPoll(t.db, {
      status: 'past',
      liveDate: '2026-11-20',
      options: ['Yes', 'No'],
      votes: [5, 0],
    });
    await seedProfiledVotes(t.db, past, [
      { profile: { role: 'classroom-teacher', region: 'south' }, votes: [8, 2] },
      { profile: { role: 'school-leader', region: 'south' }, votes: [1, 8] },
      { profile: { gradeBand: 'high' }, votes: [3, 0] },
    ]);
    const response = await get(past.id);
    expect(response.statusCode).toBe(200);
    const breakdown = response.json<Breakdown>();
    expect(breakdown).toMatchObject({ pollId: past.id, pollNumber: past.pollNumber, totalVotes: 27, minGroupSize: 10 });
    const [role, gradeBand, region, experience] = breakdown.dimensions;
    expect(role).toEqual(
      roleDimension({
        groups: [shownGroup('classroom-teacher', 'Classroom teacher', { Yes: [8, 80], No: [2, 20] })],
        withheldVotes: 9, // the school leaders: one short of a group that may be shown
        notSaidVotes: 8,
      }),
    );
    expect(gradeBand).toMatchObject({ dimension: 'gradeBand', groups: [], withheldVotes: 3, notSaidVotes: 24 });
    expect(region).toMatchObject({ groups: [{ value: 'south', totalVotes: 19 }], withheldVotes: 0, notSaidVotes: 8 });
    expect(experience).toMatchObject({ groups: [], withheldVotes: 0, notSaidVotes: 27 });
  });

  it('opens today’s breakdown only at the close time, saying when before', async () => {
    const today = await seedPoll(t.db, { options: ['Yes', 'No'] });
    await seedProfiledVotes(t.db, today, [{ profile: { role: 'classroom-teacher' }, votes: [6, 6] }]);

    t.clock.set(newYorkTime('2026-11-21', '19:59'));
    const early = await get(today.id);
    expect(early.statusCode).toBe(403);
    expect(early.json()).toEqual({
      message: 'Breakdowns by role, grade and region open when voting closes at 8:00 PM Eastern Time.',
      code: 'forbidden',
    });

    t.clock.set(newYorkTime('2026-11-21', '20:00'));
    const open = await get(today.id);
    expect(open.statusCode).toBe(200);
    expect(open.json<Breakdown>().dimensions[0]?.groups[0]).toMatchObject({
      value: 'classroom-teacher',
      totalVotes: 12,
    });
  });

  it('words the wait with the configured close time', async () => {
    await t.close();
    t = await createTestApp(kind, { env: { VOTING_CLOSES_AT: '15:30' } });
    const today = await seedPoll(t.db);
    expect((await get(today.id)).json().message).toBe(
      'Breakdowns by role, grade and region open when voting closes at 3:30 PM Eastern Time.',
    );
  });

  it('answers 404 for scheduled and unknown polls, and 400 for an id that is not one', async () => {
    const scheduled = await seedPoll(t.db, { status: 'scheduled', liveDate: '2026-11-30', votes: [0, 0, 0] });
    for (const id of [scheduled.id, scheduled.id + 100]) {
      const response = await get(id);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: 'Poll not found', code: 'not-found' });
    }
    for (const id of ['abc', '0', '-1', '3000000000']) expect((await get(id)).statusCode).toBe(400);
  });
});
