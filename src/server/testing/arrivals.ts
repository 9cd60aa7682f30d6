/**
 * The people (and scripts) of the integrity scenarios: seeded randomness, arrivals that are
 * nobody's loop, a reader's delay, and a browser voting as the app does (a ballot on the intent
 * to vote, a proof of work when it asks for one).
 */
import type { Ballot, ProofOfWorkChallenge } from '../../shared/api.js';
import { solveInNode } from './proof-of-work-solver.js';
import type { Visitor } from './visitor.js';

/** A small seeded generator (mulberry32): the same scenario on every run. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Exponential gaps: arrivals that are nobody's loop. */
export const poissonTimes = (next: () => number, count: number, spanMs: number, startMs: number): number[] => {
  const times: number[] = [];
  let at = startMs;
  for (let i = 0; i < count; i += 1) {
    at += (-Math.log(1 - next()) * spanMs) / count;
    times.push(at);
  }
  return times;
};

/** A person's delay from seeing the question to tapping an answer: 3 s to about a minute. */
export const humanDelayMs = (next: () => number) => 3_000 + Math.exp(next() * 3.6) * 1_000;

/**
 * A vote as the app sends it (get-ballot.ts, cast-vote.ts): the ballot on the intent to vote,
 * saying how long the page showed the question, and, with scripts on, a proof of work when the
 * ballot asks for one. Gives the vote's status code and whether a proof was solved.
 */
export async function voteAsTheApp(
  visitor: Visitor,
  {
    pollId,
    optionIndex,
    shownMs,
    remoteAddress,
    scripts = true,
  }: {
    pollId: number;
    optionIndex: number;
    shownMs: number;
    remoteAddress: string;
    scripts?: boolean;
  },
): Promise<{ statusCode: number; solved: boolean }> {
  const as = { remoteAddress };
  const ballot = (
    await visitor.request({ method: 'GET', url: `/api/polls/${pollId}/ballot?shown=${Math.round(shownMs)}`, ...as })
  ).json<Ballot>();
  let proof: string | undefined;
  if (ballot.proofOfWork && scripts) {
    const challenge = await visitor.request({ method: 'GET', url: `/api/polls/${pollId}/proof-of-work`, ...as });
    proof = await solveInNode(challenge.json<ProofOfWorkChallenge>());
  }
  const response = await visitor.request({
    method: 'POST',
    url: `/api/polls/${pollId}/vote`,
    payload: { optionIndex, ballot: ballot.token, ...(proof ? { proof } : {}) },
    ...as,
  });
  return { statusCode: response.statusCode, solved: proof !== undefined };
}
