/**
 * POST /api/polls/:id/vote/proof (issue 37 item 2): a first-time browser's vote from a challenged
 * network, sent before its level-2 proof of work was solved, is held, then counted when the
 * proof arrives, with every tally moved as a release moves them; only this browser's own held
 * vote, once, and never with a cheap or borrowed proof.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ActivePoll, ApiError, Ballot, ProofOfWorkChallenge } from '../../shared/api.js';
import { VOTE_NOTICES } from '../../shared/ssr.js';
import { COUNTED_PROOF_LEVEL } from '../integrity/detector.js';
import { createIntegrity } from '../integrity/integrity.service.js';
import type { PollRecord } from '../polls/poll.js';
import { seedPoll } from '../testing/fixtures.js';
import { decodeProof, solveInNode } from '../testing/proof-of-work-solver.js';
import { flagBucket, keptTallies, talliesFromVotes } from '../testing/review-fixtures.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { newYorkTime } from '../testing/test-clock.js';
import { testDatabaseKinds } from '../testing/test-database.js';
import { Visitor } from '../testing/visitor.js';
import { keptProfileTallies, profileTalliesFromVotes } from '../testing/weighting-fixtures.js';
import { VOTE_COUNTED } from './votes.routes.js';

const SCHOOL = '203.0.113.9';
const ELSEWHERE = '198.51.100.7';
const NOW = newYorkTime('2026-11-21', '10:00');

describe.each(testDatabaseKinds())('a proof of work sent after its vote (%s)', (kind) => {
  let t: TestApp;
  let poll: PollRecord;

  /** The detector's challenge of the school's network, begun a minute ago. */
  async function challengeSchool() {
    const bucket = await createIntegrity({ db: t.db, clock: t.clock, site: t.config.site }).bucketOf(SCHOOL);
    const at = (ms: number) => new Date(t.clock.now().getTime() + ms).toISOString();
    await flagBucket(t.db, {
      pollId: poll.id,
      bucket,
      state: 'challenge',
      firstFlaggedAt: at(-60_000),
      challengedSince: at(-60_000),
      challengedUntil: at(30 * 60_000),
      updatedAt: at(-60_000),
      reasons: 'first-time',
    });
    t.clock.advance(1_500);
  }

  const challengeFor = async (visitor: Visitor, remoteAddress = SCHOOL) =>
    (
      await visitor.request({ method: 'GET', url: `/api/polls/${poll.id}/proof-of-work`, remoteAddress })
    ).json<ProofOfWorkChallenge>();

  /** A vote as the page sends it when the proof takes longer than it waits: without it. Gives the challenge. */
  async function voteBeforeTheProof(visitor: Visitor, optionIndex: number) {
    const ballot = (
      await visitor.request({ method: 'GET', url: `/api/polls/${poll.id}/ballot?shown=6000`, remoteAddress: SCHOOL })
    ).json<Ballot>();
    expect(ballot.proofOfWork).toBe(true);
    const challenge = await challengeFor(visitor);
    const vote = await visitor.request({
      method: 'POST',
      url: `/api/polls/${poll.id}/vote`,
      payload: { optionIndex, ballot: ballot.token },
      remoteAddress: SCHOOL,
    });
    expect(vote.statusCode).toBe(201);
    expect(vote.json<{ message: string }>().message).toBe(VOTE_NOTICES.held);
    return challenge;
  }

  const sendProof = (visitor: Visitor, proof: unknown, pollId: number | string = poll.id) =>
    visitor.request({
      method: 'POST',
      url: `/api/polls/${pollId}/vote/proof`,
      payload: { proof },
      remoteAddress: SCHOOL,
    });

  const statusOf = async (visitor: Visitor) =>
    (
      await t.db
        .selectFrom('votes')
        .select('status')
        .where('poll_id', '=', poll.id)
        .where('voter_id', '=', visitor.voterId ?? '')
        .executeTakeFirst()
    )?.status;

  const redeemed = async () =>
    (await t.db.selectFrom('proof_of_work_redeemed').select('challenge_signature').execute()).length;

  beforeEach(async () => {
    t = await createTestApp(kind, {
      now: NOW,
      proofOfWorkBaseMaxNumber: 8,
      env: { RATE_LIMIT_WRITES_PER_MINUTE: '0' },
    });
    poll = await seedPoll(t.db, { options: ['Yes', 'No'], votes: [3, 2] }, NOW);
    await challengeSchool();
  });
  afterEach(() => t.close());

  it('counts the held vote when its level-2 proof arrives, moving every tally as a release does, once', async () => {
    const teacher = new Visitor(t.app);
    // A profile, so the vote is in the group tallies and the weighted line's too.
    await teacher.request({ method: 'PUT', url: '/api/me/profile', payload: { role: 'classroom-teacher' } });
    const challenge = await voteBeforeTheProof(teacher, 1);
    expect(challenge.parameters.data).toMatchObject({ poll: poll.id, level: COUNTED_PROOF_LEVEL });
    expect(await statusOf(teacher)).toBe('held');
    expect((await teacher.get('/api/polls/active')).json<ActivePoll>()).toMatchObject({
      voteHeld: true,
      results: null,
    });
    expect(await keptTallies(t.db, poll.id)).toMatchObject({ options: [3, 2], setAside: 1 });

    const proof = await solveInNode(challenge);
    const counted = await sendProof(teacher, proof);
    expect(counted.statusCode).toBe(200);
    expect(counted.json()).toEqual({ message: VOTE_COUNTED });
    expect(await statusOf(teacher)).toBe('counted');
    const tallies = await keptTallies(t.db, poll.id);
    expect(tallies).toEqual(await talliesFromVotes(t.db, poll.id, 2));
    expect(tallies).toEqual({ options: [3, 3], setAside: 0, groups: ['role/classroom-teacher/1: 1'] });
    expect(await keptProfileTallies(t.db, poll.id)).toEqual(await profileTalliesFromVotes(t.db, poll.id));
    expect(await keptProfileTallies(t.db, poll.id)).not.toEqual([]);
    // As a vote counted with its proof on arrival: no line in staff's integrity log.
    expect(await t.db.selectFrom('integrity_actions').select('id').execute()).toEqual([]);
    // Its voter sees the results at once, their own vote in them.
    expect((await teacher.get('/api/polls/active')).json<ActivePoll>()).toMatchObject({
      voteHeld: false,
      userVoteOption: 1,
      results: [{ votes: 3 }, { votes: 3 }],
    });

    // Again, the same proof or a new one: 200, and nothing changes (the new proof is not even used).
    expect((await sendProof(teacher, proof)).statusCode).toBe(200);
    expect((await sendProof(teacher, await solveInNode(await challengeFor(teacher)))).statusCode).toBe(200);
    expect(await keptTallies(t.db, poll.id)).toEqual(tallies);
    expect(await redeemed()).toBe(1);
  });

  it('refuses a level-0 proof where level 2 is asked, on the vote and after it, without using it up', async () => {
    const stuffer = new Visitor(t.app);
    await stuffer.get('/api/polls/active');
    // Fetched from another network, whose challenge is level 0 (unchallenged): the wrong
    // network and too cheap. And a level-0 one of the school's, from before its challenge.
    const elsewhere = await challengeFor(stuffer, ELSEWHERE);
    expect(elsewhere.parameters.data).toMatchObject({ level: 0 });
    await t.db.deleteFrom('integrity_buckets').execute();
    t.clock.advance(1_500);
    const cheap = await challengeFor(stuffer);
    expect(cheap.parameters.data).toMatchObject({ level: 0 });
    await challengeSchool();

    const ballot = (
      await stuffer.request({ method: 'GET', url: `/api/polls/${poll.id}/ballot?shown=6000`, remoteAddress: SCHOOL })
    ).json<Ballot>();
    const cheapProof = await solveInNode(cheap);
    const vote = await stuffer.request({
      method: 'POST',
      url: `/api/polls/${poll.id}/vote`,
      payload: { optionIndex: 0, ballot: ballot.token, proof: cheapProof },
      remoteAddress: SCHOOL,
    });
    expect(vote.json<{ message: string }>().message).toBe(VOTE_NOTICES.held);
    expect(await statusOf(stuffer)).toBe('held');
    for (const proof of [cheapProof, await solveInNode(elsewhere)]) {
      const refused = await sendProof(stuffer, proof);
      expect(refused.statusCode).toBe(400);
      expect(refused.json<ApiError>()).toMatchObject({ code: 'validation' });
    }
    expect(await statusOf(stuffer)).toBe('held');
    expect(await redeemed()).toBe(0);
    expect(await keptTallies(t.db, poll.id)).toMatchObject({ options: [3, 2], setAside: 1 });
  });

  it('answers only for this browser’s own held vote, the same whether or not another’s exists', async () => {
    const stranger = new Visitor(t.app);
    await stranger.get('/api/polls/active');
    const cookieless = new Visitor(t.app);
    const teacher = new Visitor(t.app);
    const before = [await sendProof(stranger, 'AAAA'), await sendProof(cookieless, 'AAAA')];
    const challenge = await voteBeforeTheProof(teacher, 0);
    const proof = await solveInNode(challenge);
    // The teacher's own proof, sent by other browsers: no vote of theirs waits, and the proof is not used.
    const after = [await sendProof(stranger, proof), await sendProof(cookieless, proof)];
    for (const response of [...before, ...after]) {
      expect(response.statusCode).toBe(404);
      expect(response.json<ApiError>()).toEqual({
        code: 'not-found',
        message: 'No vote of yours on this poll is waiting for a check.',
      });
    }
    expect(await redeemed()).toBe(0);
    expect(await statusOf(teacher)).toBe('held');
    expect((await sendProof(teacher, proof)).statusCode).toBe(200);
  });

  it('counts one vote per proof: a replayed proof counts no other held vote', async () => {
    const first = new Visitor(t.app);
    const second = new Visitor(t.app);
    const proof = await solveInNode(await voteBeforeTheProof(first, 0));
    await voteBeforeTheProof(second, 0);
    expect((await sendProof(first, proof)).statusCode).toBe(200);
    const replayed = await sendProof(second, proof);
    expect(replayed.statusCode).toBe(400);
    expect(await statusOf(second)).toBe('held');
    expect(await keptTallies(t.db, poll.id)).toMatchObject({ options: [4, 2], setAside: 1 });
  });

  it('answers hostile input with a 400 in JSON, never a 500, and changes nothing', async () => {
    const teacher = new Visitor(t.app);
    const proof = await solveInNode(await voteBeforeTheProof(teacher, 1));
    const base64 = (text: string) => Buffer.from(text).toString('base64');
    const { challenge, solution } = decodeProof(proof);
    const tampered = [
      base64(
        JSON.stringify({
          challenge: {
            ...challenge,
            parameters: { ...challenge.parameters, data: { ...challenge.parameters.data, level: 3 } },
          },
          solution,
        }),
      ),
      base64(
        JSON.stringify({
          challenge,
          solution: { ...solution, derivedKey: solution.derivedKey.replace(/^./, (c) => (c === '0' ? '1' : '0')) },
        }),
      ),
      base64('{"challenge":1}'),
      base64('not json'),
      '!!!not base64!!!',
      'A'.repeat(2_000),
    ];
    for (const hostile of [...tampered, '', 'A'.repeat(2_001), 5, null, { proof }, ['a']]) {
      const response = await sendProof(teacher, hostile);
      expect(response.statusCode, JSON.stringify(hostile).slice(0, 40)).toBe(400);
      expect(response.json<ApiError>().code).toBe('validation');
    }
    for (const payload of ['proof', '{"proof":', '[]']) {
      const response = await teacher.request({
        method: 'POST',
        url: `/api/polls/${poll.id}/vote/proof`,
        payload,
        headers: { 'content-type': 'application/json' },
        remoteAddress: SCHOOL,
      });
      expect(response.statusCode, payload).toBe(400);
      // Malformed JSON is 'bad-request', JSON that is no object 'validation': a 400 either way.
      expect(['bad-request', 'validation']).toContain(response.json<ApiError>().code);
    }
    for (const id of ['0', 'abc', '1.5', '99999999999']) {
      expect((await sendProof(teacher, proof, id)).statusCode, id).toBe(400);
    }
    expect(await statusOf(teacher)).toBe('held');
    expect(await redeemed()).toBe(0);
    expect((await sendProof(teacher, proof)).statusCode).toBe(200);
  });

  it('refuses a vote staff set aside, a closed poll and a poll not open, changing nothing', async () => {
    const teacher = new Visitor(t.app);
    const proof = await solveInNode(await voteBeforeTheProof(teacher, 1));
    expect((await sendProof(teacher, proof, poll.id + 100)).statusCode).toBe(404);
    const past = await seedPoll(t.db, { status: 'past', liveDate: '2026-11-20', options: ['A', 'B'] }, NOW);
    const notOpen = await sendProof(teacher, proof, past.id);
    expect(notOpen.statusCode).toBe(409);
    expect(notOpen.json<ApiError>().code).toBe('poll-not-open');

    const closing = new Visitor(t.app);
    const closingProof = await solveInNode(await voteBeforeTheProof(closing, 0));
    await t.db
      .updateTable('votes')
      .set({ status: 'discounted' })
      .where('voter_id', '=', teacher.voterId ?? '')
      .execute();
    const setAside = await sendProof(teacher, proof);
    expect(setAside.statusCode).toBe(404);
    expect(await statusOf(teacher)).toBe('discounted');

    // Held at the close: the release at the close decides (review.service.ts), not a late proof.
    t.clock.set(newYorkTime('2026-11-21', '20:00'));
    const closed = await sendProof(closing, closingProof);
    expect(closed.statusCode).toBe(409);
    expect(closed.json<ApiError>().code).toBe('voting-closed');
    expect(await statusOf(closing)).toBe('held');
    expect(await redeemed()).toBe(0);
  });
});
