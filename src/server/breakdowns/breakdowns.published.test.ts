/**
 * Issue 34, item 14: after the close a breakdown is published once and kept. Staff releasing a
 * held vote or discounting a network after the close move everyone's result, and the breakdown
 * says so in a note; its groups stay as published. Both attacks of the issue are replayed, with
 * the breakdown read before the change and without; so is publishing from two instances at once.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ActivePoll, Breakdown } from '../../shared/api.js';
import type { PollRecord } from '../polls/poll.js';
import { seedPoll } from '../testing/fixtures.js';
import { insertReviewVotes, type ReviewVote } from '../testing/review-fixtures.js';
import { createTestApp, createTestAppOn, TEST_SIGN_IN, type TestApp } from '../testing/test-app.js';
import { newYorkTime } from '../testing/test-clock.js';
import { createTestDatabase, testDatabaseKinds } from '../testing/test-database.js';
import { Visitor } from '../testing/visitor.js';

const draws = vi.hoisted(() => ({ next: (): number => 0.5 }));
// Draws in the middle (each count published as its nearest multiple of 5) unless a test says otherwise.
vi.mock('./rounding-draw.js', () => ({ roundingDraw: () => draws.next() }));

const SCHOOL = 'a1b2c3d4e5f60718';
const LEADERS = 'b2c3d4e5f6071829';
const STUFFER = '3f9a2c0011223344';
const at = (time: string) => `2026-11-21T${time}.000Z`;

describe.each(testDatabaseKinds())('a breakdown after the close (%s)', (kind) => {
  let t: TestApp;

  beforeEach(async () => {
    draws.next = () => 0.5;
    t = await createTestApp(kind);
  });
  afterEach(() => t.close());

  const breakdownOf = async (app: TestApp, poll: PollRecord) => {
    const response = await new Visitor(app.app).get(`/api/polls/${poll.id}/breakdown`);
    expect(response.statusCode).toBe(200);
    return response.json<Breakdown>();
  };
  const role = (breakdown: Breakdown) => breakdown.dimensions.find((d) => d.dimension === 'role');

  async function signedInStaff(): Promise<Visitor> {
    const staff = new Visitor(t.app, { origin: t.config.site.publicUrl });
    expect((await staff.post('/api/admin/login', TEST_SIGN_IN)).statusCode).toBe(200);
    return staff;
  }

  /** `count` votes from one network, for `options` in turn, as voters who said this much of themselves. */
  const votes = (
    poll: PollRecord,
    count: number,
    vote: Omit<ReviewVote, 'pollId' | 'optionIndex' | 'createdAt'> & { options: number[]; from: string },
  ): ReviewVote[] =>
    Array.from({ length: count }, (_, i) => ({
      pollId: poll.id,
      optionIndex: vote.options[i % vote.options.length] ?? 0,
      createdAt: new Date(Date.parse(at(vote.from)) + i * 60_000).toISOString(),
      bucket: vote.bucket,
      status: vote.status,
      profile: vote.profile,
    }));

  /**
   * Today's poll: 13 classroom teachers and 9 school leaders in the West, and one more school
   * leader's "No" held (a challenged network, no proof of work).
   */
  async function seedHeldLeader(): Promise<PollRecord> {
    const poll = await seedPoll(t.db, { options: ['Yes', 'No', 'Unsure'], votes: [0, 0, 0] });
    await insertReviewVotes(t.db, [
      ...votes(poll, 13, {
        options: [0, 1, 2],
        from: '14:00:00',
        bucket: SCHOOL,
        profile: { role: 'classroom-teacher', region: 'west' },
      }),
      ...votes(poll, 9, {
        options: [0, 1, 2],
        from: '15:00:00',
        bucket: LEADERS,
        profile: { role: 'school-leader', region: 'west' },
      }),
      ...votes(poll, 1, {
        options: [1],
        from: '16:00:00',
        bucket: STUFFER,
        status: 'held',
        profile: { role: 'school-leader', region: 'west', gradeBand: 'high' },
      }),
    ]);
    return poll;
  }

  it('never counts a held vote toward a group’s size: 9 school leaders and 1 held stay withheld', async () => {
    const poll = await seedHeldLeader();
    t.clock.set(newYorkTime('2026-11-21', '20:00'));
    const breakdown = await breakdownOf(t, poll);
    expect(breakdown).toMatchObject({ totalVotes: 22, setAsideVotes: 1, roundedTo: 5, correction: null });
    expect(role(breakdown)?.groups.map((g) => g.value)).toEqual([]);
    expect(role(breakdown)?.alsoWithheld).toMatchObject({ value: 'classroom-teacher' });
    expect(role(breakdown)?.withheldVotes).toBe(10); // the 9 school leaders, rounded
  });

  it('replays the release after the close: everyone’s result moves, the groups and their counts do not', async () => {
    const poll = await seedHeldLeader();
    t.clock.set(newYorkTime('2026-11-21', '20:00'));
    const before = await breakdownOf(t, poll);

    t.clock.set(newYorkTime('2026-11-21', '20:10'));
    const staff = await signedInStaff();
    const release = await staff.post(`/api/admin/polls/${poll.id}/held/release`, {
      bucket: STUFFER,
      reason: 'Checked',
    });
    expect(release.statusCode).toBe(200);
    const today = (await new Visitor(t.app).get('/api/polls/active')).json<ActivePoll>();
    expect(today.results?.map((r) => r.votes)).toEqual([8, 8, 7]); // "No" 7 → 8: the release counts

    const after = await breakdownOf(t, poll);
    // Not a figure moves: the school leaders stay withheld, no count tells which questions the
    // released voter answered (grade level: "not said" would have dropped by one).
    expect(after.dimensions).toEqual(before.dimensions);
    expect(after).toEqual({
      ...before,
      correction:
        'Votes were reviewed after voting closed: the result for everyone now counts 23 votes. ' +
        'The groups stay as they were published at the close, so that no change can be traced to a group.',
    });
  });

  it('publishes what the close showed before a release nobody read the breakdown ahead of', async () => {
    const poll = await seedHeldLeader();
    t.clock.set(newYorkTime('2026-11-21', '20:10'));
    const staff = await signedInStaff();
    expect((await staff.post(`/api/admin/polls/${poll.id}/held/release`, { bucket: STUFFER })).statusCode).toBe(200);
    const breakdown = await breakdownOf(t, poll);
    // The release made 10 school leaders: counted then, they would be a group shown.
    expect(breakdown).toMatchObject({ totalVotes: 22, setAsideVotes: 1 });
    expect(role(breakdown)?.groups.map((g) => g.value)).toEqual([]);
    expect(breakdown.correction).toContain('now counts 23 votes');
  });

  it('replays the discount after the close: the school leaders, withheld as the smallest group, stay withheld', async () => {
    const poll = await seedPoll(t.db, { options: ['Yes', 'No', 'Unsure'], votes: [0, 0, 0] });
    await insertReviewVotes(t.db, [
      ...votes(poll, 20, {
        options: [0, 1, 2],
        from: '13:00:00',
        bucket: SCHOOL,
        profile: { role: 'classroom-teacher' },
      }),
      ...votes(poll, 10, { options: [0, 1], from: '14:00:00', bucket: LEADERS, profile: { role: 'school-leader' } }),
      // Three votes from a network that said nothing of itself: 1 to 9 not shown, so the
      // smallest group (the school leaders) is withheld too.
      ...votes(poll, 3, { options: [2], from: '15:00:00', bucket: STUFFER }),
    ]);
    const published = async () => role(await breakdownOf(t, poll));
    const discount = async () =>
      (await signedInStaff()).post(`/api/admin/polls/${poll.id}/discounts`, {
        bucket: STUFFER,
        from: at('15:00:00'),
        to: at('15:05:00'),
        reason: 'Three votes from a network with no page',
      });

    t.clock.set(newYorkTime('2026-11-21', '20:05'));
    // Nobody has read the breakdown yet: the discount publishes it first, as the close left it.
    expect((await discount()).statusCode).toBe(201);
    const after = await published();
    expect(after?.groups.map((g) => g.value)).toEqual(['classroom-teacher']);
    expect(after?.alsoWithheld).toMatchObject({ value: 'school-leader', totalVotes: 10 });
    expect(after?.notSaidVotes).toBe(5); // the 3 discounted votes, as published at the close
  });

  it('is published once, whichever instance asks first, and read afterwards without the tallies', async () => {
    // Every draw different: two instances publishing on their own would not agree.
    let n = 0;
    draws.next = () => ((n += 1) * 0.618_033_988_75) % 1;
    const database = await createTestDatabase(kind);
    const instances = [
      await createTestAppOn(database, { keepDatabase: true, now: newYorkTime('2026-11-21', '20:00') }),
      await createTestAppOn(database, { now: newYorkTime('2026-11-21', '20:00') }),
    ];
    try {
      const today = await seedPoll(instances[0]!.db, { options: ['Yes', 'No'], votes: [0, 0] });
      await insertReviewVotes(
        instances[0]!.db,
        votes(today, 40, { options: [0, 1], from: '14:00:00', profile: { role: 'classroom-teacher', region: 'west' } }),
      );
      const [first, second] = await Promise.all(instances.map((instance) => breakdownOf(instance, today)));
      expect(second).toEqual(first);
      const rows = await instances[0]!.db.selectFrom('poll_breakdowns').selectAll().execute();
      expect(rows.map((row) => row.poll_id)).toEqual([today.id]);
      // The published row is all a reader reads: without the tallies the answer is the same.
      await instances[0]!.db.deleteFrom('poll_group_tallies').where('poll_id', '=', today.id).execute();
      expect(await breakdownOf(instances[1]!, today)).toEqual(first);
    } finally {
      for (const instance of instances.reverse()) await instance.close();
    }
  });

  it('publishes a poll left active for another day again at that day’s close, not before', async () => {
    const poll = await seedPoll(t.db, { options: ['Yes', 'No'], votes: [0, 0] });
    await insertReviewVotes(
      t.db,
      votes(poll, 12, { options: [0], from: '14:00:00', profile: { role: 'classroom-teacher' } }),
    );
    t.clock.set(newYorkTime('2026-11-21', '20:00'));
    expect(role(await breakdownOf(t, poll))?.groups[0]?.results.map((r) => r.votes)).toEqual([10, 0]);

    // Nothing was scheduled for the 22nd: the poll opens again, and its breakdown closes again.
    await insertReviewVotes(
      t.db,
      votes(poll, 12, { options: [1], from: '14:00:00', profile: { role: 'classroom-teacher' } }),
    );
    t.clock.set(newYorkTime('2026-11-22', '12:00'));
    expect((await new Visitor(t.app).get(`/api/polls/${poll.id}/breakdown`)).statusCode).toBe(403);
    t.clock.set(newYorkTime('2026-11-22', '20:00'));
    expect(role(await breakdownOf(t, poll))?.groups[0]?.results.map((r) => r.votes)).toEqual([10, 10]);
  });
});
