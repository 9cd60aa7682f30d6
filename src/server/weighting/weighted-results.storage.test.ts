/**
 * What the weighted line is raked from stays exact: the profile tallies always equal the counted
 * votes counted by their copies of their voters' profiles, through staff discounts, restores and
 * releases and profile changes (a forgotten browser's votes count unprofiled from the next recount);
 * and a staff change forgets the kept line.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { createProfilesService } from '../profiles/profiles.service.js';
import { createReviewService, type ReviewResult } from '../review/review.service.js';
import { seedPoll } from '../testing/fixtures.js';
import { insertReviewVotes, type ReviewVote } from '../testing/review-fixtures.js';
import { serviceDepsEachTest } from '../testing/service-deps.js';
import { newYorkTime, TestClock } from '../testing/test-clock.js';
import { testDatabaseKinds } from '../testing/test-database.js';
import { keptProfileTallies, profileTalliesFromVotes } from '../testing/weighting-fixtures.js';
import { findPollById } from '../polls/polls.repository.js';
import { createWeightingService } from './weighted.service.js';

const STUFFER = '3f9a2c0011223344';
const SCHOOL = 'a1b2c3d4e5f60718';
const at = (time: string) => `2026-11-21T${time}.000Z`;

function done(result: ReviewResult) {
  if (result.outcome !== 'done') throw new Error(`refused: ${result.outcome}`);
  return result.action;
}

const teacher = (gradeBand: 'elementary' | 'high', region: 'south' | 'west') =>
  ({ role: 'classroom-teacher', gradeBand, region, experience: '11-20' }) as const;

describe.each(testDatabaseKinds())('the weighted line’s tallies (%s)', (kind) => {
  const clock = new TestClock(newYorkTime('2026-11-21', '10:00'));
  const services = serviceDepsEachTest(kind, clock);
  beforeEach(() => clock.set(newYorkTime('2026-11-21', '10:00')));

  /** A school's 40 profiled teachers, and a stuffer's 30 profiled votes, 10 of them held. */
  async function seed(status: 'active' | 'past') {
    const poll = await seedPoll(services.db, { options: ['Yes', 'No'], status });
    const school: ReviewVote[] = Array.from({ length: 40 }, (_, i) => ({
      pollId: poll.id,
      optionIndex: i % 2,
      createdAt: at(`13:${String(i).padStart(2, '0')}:00`),
      bucket: SCHOOL,
      profile: teacher(i % 4 < 2 ? 'elementary' : 'high', 'south'),
    }));
    const stuffer: ReviewVote[] = Array.from({ length: 30 }, (_, i) => ({
      pollId: poll.id,
      optionIndex: 0,
      createdAt: at(`14:00:${String(i).padStart(2, '0')}`),
      status: i < 20 ? 'counted' : 'held',
      bucket: STUFFER,
      profile: teacher('high', 'west'),
    }));
    const voterIds = await insertReviewVotes(services.db, [...school, ...stuffer]);
    return { poll, stufferIds: voterIds.slice(40) };
  }

  const exact = async (pollId: number) =>
    expect(await keptProfileTallies(services.db, pollId)).toEqual(await profileTalliesFromVotes(services.db, pollId));

  it('stays equal to the counted votes through discounts, restores and releases, whatever voters did since', async () => {
    const { poll, stufferIds } = await seed('past');
    const original = await keptProfileTallies(services.db, poll.id);
    expect(original).toEqual([
      'classroom-teacher/elementary/south/11-20/0: 10',
      'classroom-teacher/elementary/south/11-20/1: 10',
      'classroom-teacher/high/south/11-20/0: 10',
      'classroom-teacher/high/south/11-20/1: 10',
      'classroom-teacher/high/west/11-20/0: 20',
    ]);
    // Since voting, one stuffer forgot their browser and another says they teach elementary now.
    const profiles = createProfilesService(services.deps());
    await profiles.forget(stufferIds[0] ?? '');
    await profiles.save(stufferIds[1] ?? '', { gradeBand: 'elementary' });
    // A kept line, to be forgotten by the first staff change.
    const weighting = createWeightingService(services.deps());
    const read = async () => weighting.ofPoll((await findPollById(services.db, poll.id))!);
    await read();
    expect(await services.db.selectFrom('poll_weighting').select('scope').execute()).toEqual([{ scope: 'poll' }]);

    const review = createReviewService(services.deps());
    const discount = done(
      await review.discount(
        poll.id,
        { bucket: STUFFER, from: at('14:00:00'), to: at('14:00:59'), reason: 'burst' },
        's',
      ),
    );
    await exact(poll.id);
    // Every one of the 20 counted stuffer votes left, the forgotten and the changed ones too.
    expect(await keptProfileTallies(services.db, poll.id)).toEqual(original.slice(0, 4));
    expect(await services.db.selectFrom('poll_weighting').selectAll().execute()).toEqual([]);

    // Restored, the votes count again with the profiles they carry: the forgotten browser's vote
    // carries none any more (privacy page, "Forget this browser"), so it counts unprofiled.
    done(await review.restore(poll.id, discount.id, 's'));
    await exact(poll.id);
    expect(await keptProfileTallies(services.db, poll.id)).toEqual([
      ...original.slice(0, 4),
      'classroom-teacher/high/west/11-20/0: 19',
    ]);

    done(await review.release(poll.id, STUFFER, 's', 'a school after all'));
    await exact(poll.id);
    expect(await keptProfileTallies(services.db, poll.id)).toContain('classroom-teacher/high/west/11-20/0: 29');
  });

  it('computes a closed poll’s line once for everyone who asks for it at the same time', async () => {
    const { poll } = await seed('past');
    const weighting = createWeightingService(services.deps());
    const record = (await findPollById(services.db, poll.id))!;
    const [first, second] = await Promise.all([weighting.ofPoll(record), weighting.ofPoll(record)]);
    // One computation in this process, handed to both readers; a later reader gets the kept line.
    expect(second).toBe(first);
    const later = await weighting.ofPoll(record);
    expect(later).not.toBe(first);
    expect(later).toEqual(first);
  });

  it("moves today's vote with its voter's profile while voting is open, never after, nor a past poll's", async () => {
    const past = await seedPoll(services.db, { options: ['Yes', 'No'], status: 'past', liveDate: '2026-11-20' });
    const { poll, stufferIds } = await seed('active');
    const voterId = stufferIds[2] ?? '';
    await insertReviewVotes(services.db, [{ pollId: past.id, optionIndex: 1, createdAt: at('01:00:00'), voterId }]);
    const profiles = createProfilesService(services.deps());
    await profiles.save(voterId, { region: 'south' });
    await exact(poll.id);
    await exact(past.id);
    expect(await keptProfileTallies(services.db, poll.id)).toContain('classroom-teacher/high/south/11-20/0: 11');
    expect(await keptProfileTallies(services.db, past.id)).toEqual(['classroom-teacher/high/west/11-20/1: 1']);
    // A held vote follows too, uncounted until released.
    await profiles.save(stufferIds[25] ?? '', { region: 'south' });
    await exact(poll.id);

    clock.set(newYorkTime('2026-11-21', '20:00'));
    const before = await keptProfileTallies(services.db, poll.id);
    await profiles.save(voterId, { region: 'west' });
    expect(await keptProfileTallies(services.db, poll.id)).toEqual(before);
    await exact(poll.id);
  });
});
