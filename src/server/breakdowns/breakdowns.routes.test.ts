import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ActivePoll, Breakdown } from '../../shared/api.js';
import { NONE_IN_SCOPE, roleDimension, shownGroup } from '../testing/breakdowns.js';
import { seedPoll, seedProfiledVotes } from '../testing/fixtures.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { newYorkTime } from '../testing/test-clock.js';
import { testDatabaseKinds } from '../testing/test-database.js';
import { Visitor } from '../testing/visitor.js';

// Every draw in the middle: each count is published as its nearest multiple of 5 (rounding.ts).
vi.mock('./rounding-draw.js', () => ({ roundingDraw: () => 0.5 }));

describe.each(testDatabaseKinds())('GET /api/polls/:id/breakdown (%s)', (kind) => {
  let t: TestApp;

  beforeEach(async () => {
    t = await createTestApp(kind);
  });
  afterEach(() => t.close());

  const get = (pollId: number | string) => new Visitor(t.app).get(`/api/polls/${pollId}/breakdown`);

  it('shows a past poll’s groups of 10 or more votes, withholds smaller ones, counts who did not say, all rounded to 5', async () => {
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
    expect(breakdown).toMatchObject({
      pollId: past.id,
      pollNumber: past.pollNumber,
      totalVotes: 27,
      minGroupSize: 10,
      roundedTo: 5,
      correction: null,
    });
    const [role, gradeBand, region, experience] = breakdown.dimensions;
    // The classroom teachers' 8 and 2 are published as 10 and 0, percentages from those.
    expect(role).toEqual(
      roleDimension({
        groups: [shownGroup('classroom-teacher', 'Classroom teacher', { Yes: [10, 100], No: [0, 0] }, NONE_IN_SCOPE)],
        withheldVotes: 10, // the 9 school leaders: one short of a group that may be shown
        notSaidVotes: 10, // 8
      }),
    );
    expect(gradeBand).toMatchObject({ dimension: 'gradeBand', groups: [], withheldVotes: 5, notSaidVotes: 25 });
    // South alone would leave the 8 who did not say to be read by subtraction: it is withheld too.
    expect(region).toMatchObject({
      groups: [],
      withheldVotes: 0,
      notSaidVotes: 10,
      alsoWithheld: { value: 'south', label: 'South', totalVotes: 20 },
    });
    expect(experience).toMatchObject({ groups: [], withheldVotes: 0, notSaidVotes: 25 });
  });

  it('leaves nobody to be read by taking the groups shown from today’s result: 12 classroom teachers, 2 support staff', async () => {
    const today = await seedPoll(t.db, { options: ['Yes', 'No', 'Unsure'], votes: [0, 0, 0] });
    await seedProfiledVotes(t.db, today, [
      { profile: { role: 'classroom-teacher', region: 'west' }, votes: [6, 6, 0] },
      { profile: { role: 'support-staff', region: 'west' }, votes: [0, 1, 1] },
    ]);
    t.clock.set(newYorkTime('2026-11-21', '20:00'));
    // What one of the support staff (who voted No) reads after the close.
    const active = (await new Visitor(t.app).get('/api/polls/active')).json<ActivePoll>();
    const overall = (active.results ?? []).map((result) => result.votes);
    expect(overall).toEqual([6, 7, 1]);
    const breakdown = (await get(today.id)).json<Breakdown>();
    const [role, , region] = breakdown.dimensions;
    expect(role).toEqual(
      roleDimension({
        groups: [],
        withheldVotes: 0, // 2, rounded
        notSaidVotes: 0,
        alsoWithheld: { value: 'classroom-teacher', label: 'Classroom teacher', totalVotes: 10 },
      }),
    );
    // All 14 in the West: listing them gives nothing away, and nothing else is withheld. Rounded,
    // [6, 7, 1] is [5, 5, 0]: subtraction leaves [1, 2, 1], the rounding's, nobody's votes.
    expect(region).toMatchObject({
      groups: [{ value: 'west', totalVotes: 15, results: [{ votes: 5 }, { votes: 5 }, { votes: 0 }] }],
      alsoWithheld: null,
    });
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
      totalVotes: 10, // 12, rounded
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
