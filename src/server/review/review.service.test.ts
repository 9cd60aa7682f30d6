import { describe, expect, it } from 'vitest';
import { pastPollsVersion } from '../polls/polls.repository.js';
import { createProfilesService } from '../profiles/profiles.service.js';
import { seedPoll } from '../testing/fixtures.js';
import {
  flagBucket,
  insertReviewVotes,
  keptTallies,
  talliesFromVotes,
  type ReviewVote,
} from '../testing/review-fixtures.js';
import { serviceDepsEachTest } from '../testing/service-deps.js';
import { snapshotDatabase } from '../testing/snapshot.js';
import { newYorkTime, TestClock } from '../testing/test-clock.js';
import { testDatabaseKinds } from '../testing/test-database.js';
import { createReviewService, type ReviewResult } from './review.service.js';

const STUFFER = '3f9a2c0011223344';
const SCHOOL = 'a1b2c3d4e5f60718';
const HOME = '0badc0ffee000001';

/** 2026-11-21 at hh:mm:ss UTC (New York is 5 hours behind: 15:00Z is 10:00 there). */
const at = (time: string) => `2026-11-21T${time}.000Z`;
const seconds = (start: string, n: number) => new Date(Date.parse(at(start)) + n * 1000).toISOString();

function done(result: ReviewResult) {
  if (result.outcome !== 'done') throw new Error(`refused: ${result.outcome}`);
  return result.action;
}

describe.each(testDatabaseKinds())('staff review of votes (%s)', (kind) => {
  const clock = new TestClock(newYorkTime('2026-11-21', '10:00'));
  const services = serviceDepsEachTest(kind, clock);
  const review = (deps = services.deps()) => createReviewService(deps);

  /**
   * Today's poll: a school of 60 (40/20 on options 0 and 1, most of them with a profile), a
   * home voter, and a stuffer: 50 counted votes on option 2 from 14:00:00, one a second, then
   * 10 held.
   */
  async function seedAttack(status: 'active' | 'past' = 'active') {
    const poll = await seedPoll(services.db, { options: ['Yes', 'No', 'Not sure'], status });
    const school: ReviewVote[] = Array.from({ length: 60 }, (_, i) => ({
      pollId: poll.id,
      optionIndex: i < 40 ? 0 : 1,
      createdAt: seconds('13:00:00', i * 30),
      bucket: SCHOOL,
      profile: i % 3 === 0 ? {} : { role: 'classroom-teacher', gradeBand: i % 2 ? 'high' : 'middle' },
    }));
    const stuffer: ReviewVote[] = Array.from({ length: 60 }, (_, i) => ({
      pollId: poll.id,
      optionIndex: i === 7 ? 0 : 2,
      createdAt: seconds('14:00:00', i),
      status: i < 50 ? 'counted' : 'held',
      bucket: STUFFER,
      pageMs: null,
      cookieAgeS: null,
      // A few of the stuffer's fresh voters fill in a profile too, so discounting touches groups.
      profile: i % 10 === 0 ? { role: 'school-leader' } : {},
    }));
    const home: ReviewVote[] = [
      { pollId: poll.id, optionIndex: 1, createdAt: at('14:00:30'), bucket: HOME, pageMs: 9000 },
    ];
    await insertReviewVotes(services.db, [...school, ...stuffer, ...home]);
    return poll;
  }

  const burst = (reason = '50 votes in a minute from one network, nearly all "Not sure", no ballots') => ({
    bucket: STUFFER,
    from: at('14:00:00'),
    to: at('14:00:59'),
    reason,
  });

  async function expectTalliesEqualVotes(pollId: number) {
    expect(await keptTallies(services.db, pollId)).toEqual(await talliesFromVotes(services.db, pollId, 3));
  }

  describe('discounting', () => {
    it('sets aside exactly the counted votes of that network in that time, in one logged action', async () => {
      const poll = await seedAttack();
      expect((await keptTallies(services.db, poll.id)).options).toEqual([41, 21, 49]);

      const action = done(await review().discount(poll.id, burst(), 'staff'));

      expect(action).toMatchObject({
        kind: 'discount',
        bucket: STUFFER,
        label: 'NET-3F9A2C',
        from: at('14:00:00'),
        to: at('14:00:59'),
        votes: 50,
        actor: 'staff',
        reason: '50 votes in a minute from one network, nearly all "Not sure", no ballots',
        undoesId: null,
        undoneById: null,
        createdAt: newYorkTime('2026-11-21', '10:00').toISOString(),
      });
      const votes = await services.db
        .selectFrom('votes')
        .select(['bucket', 'status', 'discount_id'])
        .where('poll_id', '=', poll.id)
        .execute();
      const discounted = votes.filter((vote) => vote.status === 'discounted');
      expect(discounted).toHaveLength(50);
      expect(discounted.every((vote) => vote.bucket === STUFFER && vote.discount_id === action.id)).toBe(true);
      // The held ten stay held; the home voter in the same minute and the school stay counted.
      expect(votes.filter((vote) => vote.status === 'held')).toHaveLength(10);
      expect(votes.filter((vote) => vote.status === 'counted')).toHaveLength(61);
      expect(await keptTallies(services.db, poll.id)).toMatchObject({ options: [40, 21, 0], setAside: 60 });
      await expectTalliesEqualVotes(poll.id);
    });

    it('takes only the time asked for, both ends included', async () => {
      const poll = await seedAttack();
      const action = done(
        await review().discount(poll.id, { ...burst(), from: at('14:00:10'), to: at('14:00:19') }, 'staff'),
      );
      expect(action.votes).toBe(10);
      await expectTalliesEqualVotes(poll.id);
    });

    it('takes the votes out of their voters’ groups and writes down exactly what it took', async () => {
      const poll = await seedAttack();
      const before = await keptTallies(services.db, poll.id);
      expect(before.groups).toContain('role/school-leader/2: 5');
      const action = done(await review().discount(poll.id, burst(), 'staff'));
      expect((await keptTallies(services.db, poll.id)).groups).not.toContain('role/school-leader/2: 5');
      const row = await services.db
        .selectFrom('integrity_actions')
        .select('group_changes')
        .where('id', '=', action.id)
        .executeTakeFirstOrThrow();
      expect(JSON.parse(row.group_changes)).toEqual([
        { dimension: 'role', group: 'school-leader', option: 2, votes: -5 },
      ]);
      await expectTalliesEqualVotes(poll.id);
    });

    it('refuses a time in which the network has no counted votes, and changes nothing', async () => {
      const poll = await seedAttack();
      const before = await snapshotDatabase(services.db);
      const service = review();
      expect(
        await service.discount(poll.id, { ...burst(), from: at('16:00:00'), to: at('17:00:00') }, 'staff'),
      ).toEqual({
        outcome: 'nothing-to-discount',
      });
      // Its held votes are not counted ones either.
      expect(
        await service.discount(poll.id, { ...burst(), from: at('14:00:50'), to: at('14:00:59') }, 'staff'),
      ).toEqual({
        outcome: 'nothing-to-discount',
      });
      expect(await service.discount(poll.id + 1, burst(), 'staff')).toEqual({ outcome: 'not-found' });
      expect(await snapshotDatabase(services.db)).toEqual(before);
    });
  });

  describe('restoring', () => {
    it('gives back identical tallies and group tallies, logged as its own action', async () => {
      const poll = await seedAttack();
      const before = await keptTallies(services.db, poll.id);
      const service = review();
      const discount = done(await service.discount(poll.id, burst(), 'staff'));
      const restore = done(await service.restore(poll.id, discount.id, 'staff'));

      expect(restore).toMatchObject({ kind: 'restore', undoesId: discount.id, votes: 50, bucket: STUFFER });
      expect(await keptTallies(services.db, poll.id)).toEqual(before);
      const votes = await services.db.selectFrom('votes').select(['status', 'discount_id']).execute();
      expect(votes.filter((vote) => vote.status === 'discounted')).toEqual([]);
      expect(votes.filter((vote) => vote.discount_id !== null)).toEqual([]);
      const log = (await service.report(poll.id))?.log;
      expect(log?.map((entry) => [entry.kind, entry.undoneById])).toEqual([
        ['restore', null],
        ['discount', restore.id],
      ]);
    });

    it('refuses to restore twice, or a discount that is not this poll’s, and changes nothing', async () => {
      const poll = await seedAttack();
      const other = await seedPoll(services.db, { status: 'past', liveDate: '2026-11-20' });
      const service = review();
      const discount = done(await service.discount(poll.id, burst(), 'staff'));
      done(await service.restore(poll.id, discount.id, 'staff'));
      const before = await snapshotDatabase(services.db);
      expect(await service.restore(poll.id, discount.id, 'staff')).toEqual({ outcome: 'already-restored' });
      expect(await service.restore(other.id, discount.id, 'staff')).toEqual({ outcome: 'no-such-discount' });
      expect(await service.restore(poll.id, discount.id + 1, 'staff')).toEqual({ outcome: 'no-such-discount' });
      expect(await snapshotDatabase(services.db)).toEqual(before);
    });

    /**
     * A voter who moved to another group after voting on a past poll is still counted in the old
     * one there; their profile now names the new one, which may hold nothing to take. The
     * discount takes what is there, and the restore gives back exactly that.
     */
    it('never takes a group below zero, and gives back exactly what it took', async () => {
      const poll = await seedPoll(services.db, { status: 'past', liveDate: '2026-11-20' });
      const voters = await insertReviewVotes(
        services.db,
        [0, 1, 2].map((i) => ({
          pollId: poll.id,
          optionIndex: 0,
          createdAt: seconds('14:00:00', i),
          bucket: STUFFER,
          profile: { role: 'classroom-teacher' },
        })),
      );
      await services.db
        .updateTable('profile_answers')
        .set({ group_value: 'school-leader' })
        .where('voter_id', '=', voters[0] ?? '')
        .execute();
      const before = await keptTallies(services.db, poll.id);
      expect(before.groups).toEqual(['role/classroom-teacher/0: 3']);

      const service = review();
      const discount = done(await service.discount(poll.id, burst(), 'staff'));
      expect((await keptTallies(services.db, poll.id)).groups).toEqual(['role/classroom-teacher/0: 1']);
      done(await service.restore(poll.id, discount.id, 'staff'));
      expect(await keptTallies(services.db, poll.id)).toEqual(before);
    });
  });

  describe('releasing held votes', () => {
    it('counts one network’s held votes, in their voters’ groups, and logs it', async () => {
      const poll = await seedAttack();
      await insertReviewVotes(services.db, [
        { pollId: poll.id, optionIndex: 1, createdAt: at('14:30:00'), bucket: HOME, status: 'held' },
      ]);
      const action = done(await review().release(poll.id, STUFFER, 'staff', 'A school assembly, checked with them'));
      expect(action).toMatchObject({
        kind: 'release',
        bucket: STUFFER,
        votes: 10,
        reason: 'A school assembly, checked with them',
      });
      expect(await keptTallies(services.db, poll.id)).toMatchObject({ options: [41, 21, 59], setAside: 1 });
      await expectTalliesEqualVotes(poll.id);
    });

    it('counts every held vote without a network named, and refuses when none is held', async () => {
      const poll = await seedAttack();
      await insertReviewVotes(services.db, [
        {
          pollId: poll.id,
          optionIndex: 1,
          createdAt: at('14:30:00'),
          bucket: HOME,
          status: 'held',
          profile: { region: 'west' },
        },
      ]);
      const service = review();
      expect(done(await service.release(poll.id, undefined, 'staff')).votes).toBe(11);
      expect(await keptTallies(services.db, poll.id)).toMatchObject({ options: [41, 22, 59], setAside: 0 });
      await expectTalliesEqualVotes(poll.id);
      const before = await snapshotDatabase(services.db);
      expect(await service.release(poll.id, undefined, 'staff')).toEqual({ outcome: 'nothing-held' });
      expect(await service.release(poll.id + 1, undefined, 'staff')).toEqual({ outcome: 'not-found' });
      expect(await snapshotDatabase(services.db)).toEqual(before);
    });
  });

  describe('profiles changed while votes are set aside', () => {
    /**
     * Today's vote follows its voter's profile change into the new groups, but only a counted
     * vote is in any group: moving a held or discounted one would take a vote from a group that
     * never had it.
     */
    it('leave held and discounted votes out of every group; released, a vote counts in its new groups', async () => {
      const poll = await seedAttack();
      const [held] = await insertReviewVotes(services.db, [
        {
          pollId: poll.id,
          optionIndex: 1,
          createdAt: at('14:30:00'),
          status: 'held',
          bucket: HOME,
          profile: { region: 'west' },
        },
      ]);
      const [discounted] = await insertReviewVotes(services.db, [
        { pollId: poll.id, optionIndex: 2, createdAt: at('14:40:00'), bucket: HOME, profile: { region: 'west' } },
      ]);
      const service = review();
      const discount = done(
        await service.discount(
          poll.id,
          { bucket: HOME, from: at('14:40:00'), to: at('14:40:00'), reason: 'Test' },
          'staff',
        ),
      );
      const before = await keptTallies(services.db, poll.id);
      const profiles = createProfilesService(services.deps());
      await profiles.save(held ?? '', { region: 'south' });
      await profiles.save(discounted ?? '', { region: 'south' });
      expect(await keptTallies(services.db, poll.id)).toEqual(before);

      done(await service.release(poll.id, HOME, 'staff'));
      expect((await keptTallies(services.db, poll.id)).groups).toContain('region/south/1: 1');
      // The restore gives back exactly what the discount took: its voter's group then.
      done(await service.restore(poll.id, discount.id, 'staff'));
      expect((await keptTallies(services.db, poll.id)).groups).toContain('region/west/2: 1');
    });
  });

  describe('the challenge for everyone', () => {
    it('turns on and off, logged only when it changes, and not on a poll whose voting is over', async () => {
      const poll = await seedAttack();
      const past = await seedPoll(services.db, { status: 'past', liveDate: '2026-11-20' });
      const service = review();
      const on = await service.setChallengeEveryone(poll.id, true, 'staff');
      expect(on).toMatchObject({ outcome: 'done', on: true, action: { kind: 'challenge-on', actor: 'staff' } });
      expect(await service.setChallengeEveryone(poll.id, true, 'staff')).toEqual({
        outcome: 'done',
        on: true,
        action: null,
      });
      expect((await service.report(poll.id))?.challengeEveryone).toBe(true);
      clock.advance(5 * 60_000);
      expect(await service.setChallengeEveryone(poll.id, false, 'staff')).toMatchObject({
        on: false,
        action: { kind: 'challenge-off' },
      });
      const report = await service.report(poll.id);
      expect(report?.challengeEveryone).toBe(false);
      expect(report?.marks.filter((mark) => mark.label === null)).toEqual([
        { state: 'challenge', label: null, from: at('15:00:00'), to: at('15:05:00') },
      ]);
      expect(await service.setChallengeEveryone(past.id, true, 'staff')).toEqual({ outcome: 'voting-over' });
      expect(await service.setChallengeEveryone(past.id + 1, true, 'staff')).toEqual({ outcome: 'not-found' });
      clock.set(newYorkTime('2026-11-21', '10:00'));
    });
  });

  describe('what everyone sees afterwards', () => {
    it('today’s poll, as this instance keeps it, shows the change at once', async () => {
      const poll = await seedAttack();
      const deps = services.deps();
      const service = review(deps);
      // The test's copy never gets old by itself: only the change can make it read again.
      expect((await deps.activePoll.get())?.options.map((o) => o.votes)).toEqual([41, 21, 49]);
      const discount = done(await service.discount(poll.id, burst(), 'staff'));
      expect(await deps.activePoll.get()).toMatchObject({
        options: [{ votes: 40 }, { votes: 21 }, { votes: 0 }],
        setAsideVotes: 60,
      });
      done(await service.restore(poll.id, discount.id, 'staff'));
      expect((await deps.activePoll.get())?.options.map((o) => o.votes)).toEqual([41, 21, 49]);
      done(await service.release(poll.id, undefined, 'staff'));
      expect((await deps.activePoll.get())?.setAsideVotes).toBe(0);
    });

    it('past polls are marked changed, so open data is built again, even when a restore puts every vote back', async () => {
      const poll = await seedAttack('past');
      const service = review();
      const versions = [await pastPollsVersion(services.db)];
      const discount = done(await service.discount(poll.id, burst(), 'staff'));
      versions.push(await pastPollsVersion(services.db));
      done(await service.restore(poll.id, discount.id, 'staff'));
      versions.push(await pastPollsVersion(services.db));
      expect(new Set(versions).size).toBe(3);
    });

    it("a change to today's poll leaves past polls' stamp alone: no instance builds the open data again", async () => {
      const poll = await seedAttack();
      const service = review();
      const before = await pastPollsVersion(services.db);
      const discount = done(await service.discount(poll.id, burst(), 'staff'));
      done(await service.restore(poll.id, discount.id, 'staff'));
      expect(await pastPollsVersion(services.db)).toBe(before);
    });
  });

  describe('the report', () => {
    it('gives votes per minute by option and status, the top networks with their signals, and flagged bursts with a preview', async () => {
      const poll = await seedAttack();
      await flagBucket(services.db, {
        pollId: poll.id,
        bucket: STUFFER,
        state: 'challenge',
        firstFlaggedAt: at('14:00:30'),
        challengedSince: at('14:00:50'),
        challengedUntil: at('14:31:00'),
        updatedAt: at('14:00:59'),
        reasons: 'volume,skew,no-ballot',
      });
      const report = await review().report(poll.id);
      if (!report) throw new Error('no report');

      expect(report).toMatchObject({
        pollId: poll.id,
        options: ['Yes', 'No', 'Not sure'],
        status: 'active',
        votes: { counted: 111, held: 10, discounted: 0 },
        challengeEveryone: false,
        votesWithoutBucket: 0,
        otherBuckets: { buckets: 0, votes: 0 },
      });
      expect(report.results.map((r) => r.votes)).toEqual([41, 21, 49]);
      expect(report.minutes.find((m) => m.at === at('14:00:00'))).toEqual({
        at: at('14:00:00'),
        counted: [1, 1, 49],
        held: [0, 0, 10],
        discounted: [0, 0, 0],
      });
      // The school: one vote every 30 s from 13:00, two a minute.
      expect(report.minutes.find((m) => m.at === at('13:10:00'))?.counted).toEqual([2, 0, 0]);

      const [stuffer, school, home] = report.buckets;
      expect(report.buckets.map((b) => b.label)).toEqual(['NET-3F9A2C', 'NET-A1B2C3', 'NET-0BADC0']);
      expect(stuffer).toEqual({
        bucket: STUFFER,
        label: 'NET-3F9A2C',
        votes: 60,
        firstVoteAt: at('14:00:00'),
        lastVoteAt: at('14:00:59'),
        peakPerMinute: 60,
        // 59 of 60 on "Not sure", which nobody else counted.
        topOption: { index: 2, share: 59 / 60, shareElsewhere: 0 },
        medianPageMs: null,
        withoutBallotShare: 1,
        freshCookieShare: 1,
        held: 10,
        discounted: 0,
        state: 'challenge',
      });
      expect(school).toMatchObject({
        votes: 60,
        peakPerMinute: 2,
        // 40 of 60 on "Yes"; everyone else counted 1 "Yes" of 51.
        topOption: { index: 0, share: 40 / 60, shareElsewhere: 1 / 51 },
        medianPageMs: 4000,
        withoutBallotShare: 0,
        freshCookieShare: 0,
        state: null,
      });
      expect(home).toMatchObject({ votes: 1, medianPageMs: 9000 });

      expect(report.bursts).toEqual([
        {
          bucket: STUFFER,
          label: 'NET-3F9A2C',
          state: 'challenge',
          reasons: ['volume', 'skew', 'no-ballot'],
          from: at('14:00:00'),
          to: at('14:00:59'),
          votes: { counted: 50, held: 10, discounted: 0 },
          preview: {
            totalVotes: 61,
            results: [
              { option: 'Yes', votes: 40, percentage: 66 },
              { option: 'No', votes: 21, percentage: 34 },
              { option: 'Not sure', votes: 0, percentage: 0 },
            ],
          },
        },
      ]);
      expect(report.marks).toEqual([
        { state: 'watch', label: 'NET-3F9A2C', from: at('14:00:30'), to: at('14:00:50') },
        { state: 'challenge', label: 'NET-3F9A2C', from: at('14:00:50'), to: at('14:31:00') },
      ]);
    });

    it('lists the top twenty networks and sums the rest; a median of an even count is the middle two’s mean', async () => {
      const poll = await seedPoll(services.db, { options: ['Yes', 'No'] });
      const votes: ReviewVote[] = [];
      for (let n = 0; n < 25; n += 1) {
        const bucket = n.toString(16).padStart(16, '0');
        for (let i = 0; i <= n; i += 1) {
          votes.push({
            pollId: poll.id,
            optionIndex: 0,
            createdAt: seconds('13:00:00', i),
            bucket,
            pageMs: 1000 * (i + 1),
          });
        }
      }
      votes.push({ pollId: poll.id, optionIndex: 1, createdAt: at('13:00:00'), bucket: null });
      await insertReviewVotes(services.db, votes);
      const report = await review().report(poll.id);
      expect(report?.buckets).toHaveLength(20);
      expect(report?.buckets[0]).toMatchObject({ bucket: '0000000000000018', votes: 25, medianPageMs: 13_000 });
      // 24 votes: 1 s to 24 s, the middle two 12 s and 13 s.
      expect(report?.buckets[1]).toMatchObject({ votes: 24, medianPageMs: 12_500 });
      expect(report?.otherBuckets).toEqual({ buckets: 5, votes: 1 + 2 + 3 + 4 + 5 });
      expect(report?.votesWithoutBucket).toBe(1);
    });

    it('is undefined for an unknown poll', async () => {
      expect(await review().report(12345)).toBeUndefined();
    });
  });
});
