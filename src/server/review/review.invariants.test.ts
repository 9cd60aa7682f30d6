/**
 * The rule staff review must never break, over sequences of actions no one wrote by hand: after
 * any sequence of discounts, restores, releases, switches and new votes, every option tally
 * equals the count of counted votes, the set-aside count equals the count of the others, and
 * each group tally equals the counted votes of that group's voters; and a discount followed by
 * its restore leaves every tally as it found it.
 */
import { describe, expect, it } from 'vitest';
import type { Profile } from '../../shared/profile.js';
import { seededRandom } from '../demo/seeded-random.js';
import { seedPoll } from '../testing/fixtures.js';
import { insertReviewVotes, keptTallies, talliesFromVotes, type ReviewVote } from '../testing/review-fixtures.js';
import { serviceDepsEachTest } from '../testing/service-deps.js';
import { newYorkTime, TestClock } from '../testing/test-clock.js';
import { testDatabaseKinds } from '../testing/test-database.js';
import { createReviewService } from './review.service.js';
import { HOUR_MS } from '../../shared/time.js';

const BUCKETS = ['00000000000000aa', '00000000000000bb', '00000000000000cc', '00000000000000dd'];
const START = Date.parse('2026-11-21T13:00:00.000Z');
const PROFILES: Partial<Profile>[] = [
  {},
  { role: 'classroom-teacher' },
  { role: 'classroom-teacher', gradeBand: 'high' },
  { role: 'school-leader', region: 'west' },
  { gradeBand: 'elementary', experience: '3-5' },
];

describe.each(testDatabaseKinds())('staff review keeps every tally true (%s)', (kind) => {
  const clock = new TestClock(newYorkTime('2026-11-21', '10:00'));
  const services = serviceDepsEachTest(kind, clock);
  /** Fewer rounds on PostgreSQL, whose round trips cost more; the same cases, the first ones. */
  const SEQUENCES = kind === 'postgres' ? 8 : 30;
  const STEPS = 14;

  it(`holds over ${SEQUENCES} random sequences of ${STEPS} actions`, async () => {
    for (let seed = 1; seed <= SEQUENCES; seed += 1) {
      const random = seededRandom(seed);
      const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
      // Each sequence on a poll of its own, today's (the switch is only for a poll still open).
      await services.db.updateTable('polls').set({ status: 'past' }).where('status', '=', 'active').execute();
      const poll = await seedPoll(services.db, { options: ['A', 'B', 'C'] });
      const votes = (n: number): ReviewVote[] =>
        Array.from({ length: n }, () => ({
          pollId: poll.id,
          optionIndex: Math.floor(random() * 3),
          createdAt: new Date(START + Math.floor(random() * HOUR_MS)).toISOString(),
          status: random() < 0.2 ? 'held' : 'counted',
          bucket: pick(BUCKETS),
          profile: pick(PROFILES),
        }));
      await insertReviewVotes(services.db, votes(60));
      const service = createReviewService(services.deps());
      const discounts: number[] = [];
      const steps: string[] = [];

      for (let step = 0; step < STEPS; step += 1) {
        const op = pick(['discount', 'discount-and-restore', 'restore', 'release', 'switch', 'votes'] as const);
        const bucket = pick(BUCKETS);
        const from = START + Math.floor(random() * HOUR_MS);
        const range = {
          bucket,
          from: new Date(from).toISOString(),
          to: new Date(from + Math.floor(random() * HOUR_MS)).toISOString(),
          reason: `seed ${seed} step ${step}`,
        };
        steps.push(`${op} ${bucket.slice(-2)}`);
        if (op === 'discount' || op === 'discount-and-restore') {
          const before = await keptTallies(services.db, poll.id);
          const result = await service.discount(poll.id, range, 'staff');
          if (result.outcome === 'done') {
            if (op === 'discount') discounts.push(result.action.id);
            else {
              expect((await service.restore(poll.id, result.action.id, 'staff')).outcome).toBe('done');
              expect(await keptTallies(services.db, poll.id), steps.join(', ')).toEqual(before);
            }
          } else expect(result.outcome).toBe('nothing-to-discount');
        } else if (op === 'restore' && discounts.length > 0) {
          const outcome = (await service.restore(poll.id, pick(discounts), 'staff')).outcome;
          expect(['done', 'already-restored']).toContain(outcome);
        } else if (op === 'release') {
          const outcome = (await service.release(poll.id, random() < 0.5 ? bucket : undefined, 'staff')).outcome;
          expect(['done', 'nothing-held']).toContain(outcome);
        } else if (op === 'switch') {
          expect((await service.setChallengeEveryone(poll.id, random() < 0.5, 'staff')).outcome).toBe('done');
        } else {
          await insertReviewVotes(services.db, votes(1 + Math.floor(random() * 5)));
        }
        expect(await keptTallies(services.db, poll.id), `seed ${seed}: ${steps.join(', ')}`).toEqual(
          await talliesFromVotes(services.db, poll.id, 3),
        );
      }
    }
  }, 120_000);

  /**
   * Votes keep arriving while staff act, on another connection (PostgreSQL), into the very
   * network and minutes being discounted: each change counts the tallies again under the locks
   * the vote triggers take, in their order, so no vote is lost or counted twice, and nothing
   * deadlocks.
   */
  it('holds while votes arrive during discounts, restores and releases', async () => {
    const poll = await seedPoll(services.db, { options: ['A', 'B', 'C'] });
    const random = seededRandom(99);
    const votes = (n: number): ReviewVote[] =>
      Array.from({ length: n }, (_, i) => ({
        pollId: poll.id,
        optionIndex: i % 3,
        createdAt: new Date(START + Math.floor(random() * HOUR_MS)).toISOString(),
        status: i % 4 === 0 ? 'held' : 'counted',
        bucket: BUCKETS[0],
        profile: PROFILES[i % PROFILES.length],
      }));
    await insertReviewVotes(services.db, votes(200));
    const service = createReviewService(services.deps());
    const range = {
      bucket: BUCKETS[0] ?? '',
      from: new Date(START).toISOString(),
      to: new Date(START + HOUR_MS).toISOString(),
    };

    const arriving = (async () => {
      for (let round = 0; round < 30; round += 1) await insertReviewVotes(services.db, votes(20));
    })();
    const staff = (async () => {
      for (let round = 0; round < 10; round += 1) {
        const discount = await service.discount(poll.id, { ...range, reason: `round ${round}` }, 'staff');
        if (discount.outcome === 'done') await service.restore(poll.id, discount.action.id, 'staff');
        if (round % 3 === 0) await service.release(poll.id, BUCKETS[0], 'staff');
      }
    })();
    await Promise.all([arriving, staff]);

    const kept = await keptTallies(services.db, poll.id);
    expect(kept).toEqual(await talliesFromVotes(services.db, poll.id, 3));
    expect(kept.options.reduce((a, b) => a + b, 0) + kept.setAside).toBe(200 + 30 * 20);
  }, 120_000);
});
