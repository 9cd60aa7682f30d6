import { describe, expect, it } from 'vitest';
import type { ActivePoll } from '../../shared/api.js';
import { newVoterId, seedPoll } from '../testing/fixtures.js';
import { serviceDepsEachTest, testVoteIntegrity } from '../testing/service-deps.js';
import { newYorkTime, TestClock } from '../testing/test-clock.js';
import { testDatabaseKinds } from '../testing/test-database.js';
import { createVotesService } from '../votes/votes.service.js';
import { createPollsService } from './polls.service.js';

describe.each(testDatabaseKinds())('reading the active poll (%s)', (kind) => {
  const clock = new TestClock(newYorkTime('2026-11-21', '10:00'));
  const services = serviceDepsEachTest(kind, clock);

  /**
   * The services of one server instance, whose copy of the active poll never gets old by
   * itself: only the rule that a vote may be newer than the copy makes it read again.
   */
  function instance() {
    const deps = services.deps();
    return {
      polls: createPollsService(deps),
      votes: createVotesService(deps, { emailTriesPerAddressPerHour: 0 }, testVoteIntegrity(deps)),
    };
  }

  it('a voter always sees their own vote', async () => {
    const poll = await seedPoll(services.db, { options: ['A', 'B'], votes: [2, 0] });
    const [one, other] = [instance(), instance()];
    const seenOn = async (server: typeof one, voterId: string) =>
      JSON.parse(await server.polls.activePollJson({ voterId, emailHint: undefined })) as ActivePoll;
    const here = newVoterId();
    const there = newVoterId();
    // Both instances hold a copy read before anyone below voted.
    expect((await seenOn(one, here)).totalVotes).toBe(2);
    expect((await seenOn(other, there)).totalVotes).toBe(2);

    // A vote on this instance, and one on the other.
    expect(
      await one.votes.castVote(poll.id, { id: here, address: '192.0.2.1' }, { optionIndex: 1, voterEmail: undefined }),
    ).toBe('counted');
    expect(
      await other.votes.castVote(
        poll.id,
        { id: there, address: '192.0.2.2' },
        { optionIndex: 1, voterEmail: undefined },
      ),
    ).toBe('counted');

    for (const voterId of [here, there]) {
      expect(await seenOn(one, voterId)).toMatchObject({
        userVoted: true,
        userVoteOption: 1,
        totalVotes: 4,
        results: [
          { option: 'A', votes: 2, percentage: 50 },
          { option: 'B', votes: 2, percentage: 50 },
        ],
      });
    }
  });
});
