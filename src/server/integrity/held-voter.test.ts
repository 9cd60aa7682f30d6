/**
 * Issue 37 item 6, honest to voters: a voter whose vote is held is told so ("Your vote is
 * recorded and will be counted after a check"), on the API, on the page drawn without scripts and
 * after the form's redirect, and is never shown results that claim to include their vote.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ActivePoll, VoteReceipt } from '../../shared/api.js';
import { VOTE_NOTICES } from '../../shared/ssr.js';
import { seedPoll } from '../testing/fixtures.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { newYorkTime } from '../testing/test-clock.js';
import { testDatabaseKinds } from '../testing/test-database.js';
import { Visitor } from '../testing/visitor.js';
import type { PollRecord } from '../polls/poll.js';
import { setChallengeEveryone } from '../review/review.repository.js';

const HELD = 'Your vote is recorded and will be counted after a check.';

describe.each(testDatabaseKinds())('a held voter (%s)', (kind) => {
  let t: TestApp;
  let poll: PollRecord;

  beforeEach(async () => {
    t = await createTestApp(kind, { now: newYorkTime('2026-11-21', '10:00') });
    poll = await seedPoll(t.db, { options: ['Yes', 'No'], votes: [3, 2] });
    // Every vote must bring a proof of work: one without is held.
    await setChallengeEveryone(t.db, poll.id, true);
  });
  afterEach(() => t.close());

  it('is told the truth and shown no results while voting is open, nor their option marked after the close', async () => {
    expect(VOTE_NOTICES.held).toBe(HELD);
    const voter = new Visitor(t.app);
    const response = await voter.vote(poll.id, 1);
    expect(response.statusCode).toBe(201);
    expect(response.json<VoteReceipt>()).toEqual({ message: HELD, pollId: poll.id, optionIndex: 1 });
    const seen = (await voter.get('/api/polls/active')).json<ActivePoll>();
    expect(seen).toMatchObject({ userVoted: true, voteHeld: true, userVoteOption: null, results: null, series: null });
    expect(seen.totalVotes).toBe(5);
    // The page drawn on the server (the same card, from this answer) says so: test/browser/server-rendering.test.ts.
    // A counted voter sees results as ever.
    const counted = new Visitor(t.app);
    await setChallengeEveryone(t.db, poll.id, false);
    t.clock.advance(2_000);
    expect((await counted.vote(poll.id, 0)).json<VoteReceipt>().message).toBe('Vote recorded');
    expect((await counted.get('/api/polls/active')).json<ActivePoll>()).toMatchObject({
      voteHeld: false,
      userVoteOption: 0,
      results: [{ votes: 4 }, { votes: 2 }],
    });
    // After the close everyone sees the results; the held voter sees none marked as theirs.
    t.clock.set(newYorkTime('2026-11-21', '20:00'));
    expect((await voter.get('/api/polls/active')).json<ActivePoll>()).toMatchObject({
      voteHeld: true,
      userVoteOption: null,
      results: [{ votes: 4 }, { votes: 2 }],
      setAsideVotes: 1,
    });
  });

  it('is told the truth after the form sent without scripts', async () => {
    const voter = new Visitor(t.app);
    const response = await voter.request({
      method: 'POST',
      url: `/polls/${poll.id}/vote`,
      payload: 'option=0',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: t.config.site.publicUrl },
    });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/?outcome=held');
    expect((await voter.get('/api/polls/active')).json<ActivePoll>()).toMatchObject({ voteHeld: true, results: null });
  });

  it('sees the results once staff release the vote, on every instance’s next read', async () => {
    const voter = new Visitor(t.app);
    await voter.vote(poll.id, 1);
    expect((await voter.get('/api/polls/active')).json<ActivePoll>().voteHeld).toBe(true);
    // What staff's release does to the row (review/), straight in the database: the cached choice must not hide it.
    await t.db
      .updateTable('votes')
      .set({ status: 'counted' })
      .where('poll_id', '=', poll.id)
      .where('status', '=', 'held')
      .execute();
    t.clock.advance(2_000);
    expect((await voter.get('/api/polls/active')).json<ActivePoll>()).toMatchObject({
      voteHeld: false,
      userVoteOption: 1,
    });
  });
});
