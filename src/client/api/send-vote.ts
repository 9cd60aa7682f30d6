/**
 * Sending a vote, with its ballot and, when asked, its proof of work: loaded on the first
 * intent to vote (cast-vote.ts), never with the page.
 */
import type { z } from 'zod';
import type { VoteReceipt } from '../../shared/api.js';
import type { voteRequest } from '../../shared/schemas.js';
import { apiRequest } from '../lib/api-client.js';
import { solveProofOfWork } from '../lib/proof-of-work.js';
import { getProofOfWorkChallenge } from './get-proof-of-work.js';
import { ballotForVote } from './get-ballot.js';

type VoteBody = z.input<typeof voteRequest>;

/**
 * A proof of work for a vote on the poll (the ballot asked for one), or null when none could be
 * had: the vote then goes without, and the server holds it rather than refusing it.
 */
async function proofFor(pollId: number): Promise<string | null> {
  try {
    return await solveProofOfWork(await getProofOfWorkChallenge(pollId));
  } catch {
    return null;
  }
}

/**
 * An anonymous vote: the e-mail comes later, if at all, with the subscribe invitation. The
 * page's ballot goes with it (get-ballot.ts: asked for on the first intent to vote, or now), and
 * a proof of work when the ballot asks for one (`onChecking` is told when that work starts).
 */
export async function castVote({
  pollId,
  optionIndex,
  shownAt = 0,
  onChecking,
}: {
  pollId: number;
  optionIndex: VoteBody['optionIndex'];
  /** When the page showed the question (performance.now()'s clock). */
  shownAt?: number;
  onChecking?: () => void;
}): Promise<VoteReceipt> {
  const body: VoteBody = { optionIndex, voterEmail: '' };
  const ballot = await ballotForVote(pollId, shownAt);
  if (ballot?.token) body.ballot = ballot.token;
  if (ballot?.proofOfWork) {
    onChecking?.();
    const proof = await proofFor(pollId);
    if (proof !== null) body.proof = proof;
  }
  return apiRequest<VoteReceipt>(`/api/polls/${pollId}/vote`, { method: 'POST', body });
}
