/**
 * Issue 37's scenario 2, through the real app and database on a test clock: the careful stuffer
 * who solves every proof of work. Past the first-time ceiling its network is challenged, and a
 * first-time vote then counts only with a level-2 proof (COUNTED_PROOF_LEVEL: over 1 CPU-second
 * a vote on one core, docs/performance.md); a level-0 proof fetched before the challenge is held.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Ballot, ProofOfWorkChallenge } from '../../shared/api.js';
import { poissonTimes, random } from '../testing/arrivals.js';
import { seedPoll } from '../testing/fixtures.js';
import { solveInNode } from '../testing/proof-of-work-solver.js';
import { newYorkTime } from '../testing/test-clock.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { testDatabaseKinds } from '../testing/test-database.js';
import { Visitor } from '../testing/visitor.js';
import { COUNTED_PROOF_LEVEL } from './detector.js';

// The generic write limit counts real seconds, not the test clock's, and is not what these test.
const env = { RATE_LIMIT_WRITES_PER_MINUTE: '0' };
const START = newYorkTime('2026-11-21', '10:00');
/** What the first-time ceiling lets count before a network is challenged (stuffers.scenarios.test.ts). */
const FREE_VOTES = 110;

interface StufferVote {
  voterId: string;
  /** The level of the challenge its proof solved; null: sent without one. */
  level: number | null;
}

/** The challenge's level, as its signed data says. */
const levelOf = (challenge: ProofOfWorkChallenge) => Number(challenge.parameters.data?.level ?? 0);

describe.each(testDatabaseKinds())('the careful stuffer who solves every proof (%s)', (kind) => {
  let t: TestApp;
  afterEach(() => t.close());

  /**
   * 300 votes from one /24 in 5 minutes, fresh cookie and ballot each, 2–10 s on the page,
   * exponential gaps, 85% one option; a proof with every vote whose ballot asks for one, from
   * `proofFor`. Gives each vote's voter and proof level, and the statuses by voter.
   */
  async function stuff(
    poll: { id: number },
    proofFor: (visitor: Visitor, address: string) => Promise<ProofOfWorkChallenge>,
  ) {
    const next = random(300);
    const votes: StufferVote[] = [];
    for (const at of poissonTimes(next, 300, 5 * 60_000, START.getTime())) {
      const readMs = 2_000 + next() * 8_000;
      t.clock.set(new Date(at + readMs));
      const remoteAddress = `198.51.100.${Math.floor(next() * 250)}`;
      const visitor = new Visitor(t.app);
      const ballot = (
        await visitor.request({
          method: 'GET',
          url: `/api/polls/${poll.id}/ballot?shown=${Math.round(readMs)}`,
          remoteAddress,
        })
      ).json<Ballot>();
      let proof: string | undefined;
      let level: number | null = null;
      if (ballot.proofOfWork) {
        const challenge = await proofFor(visitor, remoteAddress);
        level = levelOf(challenge);
        proof = await solveInNode(challenge);
      }
      const response = await visitor.request({
        method: 'POST',
        url: `/api/polls/${poll.id}/vote`,
        payload: { optionIndex: next() < 0.85 ? 1 : 0, ballot: ballot.token, ...(proof ? { proof } : {}) },
        remoteAddress,
      });
      expect(response.statusCode).toBe(201);
      votes.push({ voterId: visitor.voterId ?? '', level });
    }
    const rows = await t.db
      .selectFrom('votes')
      .select(['voter_id', 'status'])
      .where('poll_id', '=', poll.id)
      .where('bucket', 'is not', null)
      .execute();
    const statusOf = new Map(rows.map((row) => [row.voter_id, row.status]));
    expect(statusOf.size).toBe(300);
    const counted = (filter: (vote: StufferVote) => boolean) =>
      votes.filter((vote) => filter(vote) && statusOf.get(vote.voterId) === 'counted').length;
    return {
      votes,
      statusOf,
      free: counted((vote) => vote.level === null),
      proven: counted((vote) => vote.level !== null),
      cheap: counted((vote) => vote.level !== null && vote.level < COUNTED_PROOF_LEVEL),
    };
  }

  it('2. counts its votes past the first-time ceiling only with a level-2 proof each', async () => {
    t = await createTestApp(kind, { env, now: START, proofOfWorkBaseMaxNumber: 20 });
    const poll = await seedPoll(t.db, { options: ['Yes', 'No'], votes: [150, 150] }, START);
    const { votes, free, proven, cheap } = await stuff(poll, async (visitor, remoteAddress) =>
      (
        await visitor.request({ method: 'GET', url: `/api/polls/${poll.id}/proof-of-work`, remoteAddress })
      ).json<ProofOfWorkChallenge>(),
    );
    // Before its network was challenged, as scenario 1; after, each counted vote carried a level-2 proof.
    expect(free).toBeLessThanOrEqual(FREE_VOTES);
    expect(cheap).toBe(0);
    const asked = votes.filter((vote) => vote.level !== null);
    expect(asked.length).toBeGreaterThan(150);
    for (const vote of asked) expect(vote.level).toBeGreaterThanOrEqual(COUNTED_PROOF_LEVEL);
    expect(free + proven).toBe(300);
    console.warn(
      `Careful stuffer solving every proof (${kind}): ${free} counted before the challenge, ${proven} with a level-${COUNTED_PROOF_LEVEL} proof each, ${300 - free - proven} held`,
    );
  }, 240_000);

  it('2. holds every vote past the ceiling that brings a level-0 proof fetched before the challenge', async () => {
    t = await createTestApp(kind, { env, now: START, proofOfWorkBaseMaxNumber: 20 });
    const poll = await seedPoll(t.db, { options: ['Yes', 'No'], votes: [150, 150] }, START);
    // Its cheap challenges, fetched while its network was not challenged (good for 5 minutes).
    const stock: ProofOfWorkChallenge[] = [];
    const hoarder = new Visitor(t.app);
    for (let i = 0; i < 240; i += 1) {
      const challenge = (
        await hoarder.request({
          method: 'GET',
          url: `/api/polls/${poll.id}/proof-of-work`,
          remoteAddress: '198.51.100.1',
        })
      ).json<ProofOfWorkChallenge>();
      expect(levelOf(challenge)).toBe(0);
      stock.push(challenge);
    }
    const { votes, statusOf, free, proven, cheap } = await stuff(poll, () => {
      const challenge = stock.pop();
      if (!challenge) throw new Error('out of cheap challenges');
      return Promise.resolve(challenge);
    });
    expect(free).toBeLessThanOrEqual(FREE_VOTES);
    expect(proven).toBe(0);
    expect(cheap).toBe(0);
    const held = votes.filter((vote) => vote.level !== null && statusOf.get(vote.voterId) === 'held').length;
    expect(held).toBe(votes.filter((vote) => vote.level !== null).length);
    expect(held).toBeGreaterThan(150);
    console.warn(`Careful stuffer with level-0 proofs (${kind}): ${free} counted before the challenge, ${held} held`);
  }, 240_000);
});
