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
 * How long a vote waits for its proof of work (issue 37 item 2): a teacher never waits longer
 * (DESIGN.md). A challenged network asks a level-2 proof, about 6 s on a low-end phone and under
 * this on a laptop; past it the vote goes without (held, and told so), and the proof follows it.
 */
export const PROOF_WAIT_MS = 1_500;

const waited = () => new Promise<undefined>((resolve) => setTimeout(resolve, PROOF_WAIT_MS));

/**
 * An anonymous vote: the e-mail comes later, if at all, with the subscribe invitation. The
 * page's ballot goes with it (get-ballot.ts: asked for on the first intent to vote, or now), and
 * a proof of work when the ballot asks for one (`onChecking` is told when that work starts). A
 * proof not solved within PROOF_WAIT_MS is sent after the vote, once solved, to count it;
 * `onCounted` is told when it has.
 */
export async function castVote({
  pollId,
  optionIndex,
  shownAt = 0,
  onChecking,
  onCounted,
}: {
  pollId: number;
  optionIndex: VoteBody['optionIndex'];
  /** When the page showed the question (performance.now()'s clock). */
  shownAt?: number;
  onChecking?: () => void;
  onCounted?: () => void;
}): Promise<VoteReceipt> {
  const body: VoteBody = { optionIndex, voterEmail: '' };
  const ballot = await ballotForVote(pollId, shownAt);
  if (ballot?.token) body.ballot = ballot.token;
  let solving: Promise<string | null> | undefined;
  if (ballot?.proofOfWork) {
    onChecking?.();
    solving = proofFor(pollId);
    const proof = await Promise.race([solving, waited()]);
    if (proof) body.proof = proof;
  }
  const receipt = await apiRequest<VoteReceipt>(`/api/polls/${pollId}/vote`, { method: 'POST', body });
  // Held, unless its network's challenge ended meanwhile: then the proof changes nothing.
  if (solving && !body.proof) void sendProofLater(pollId, solving, onCounted);
  return receipt;
}

/** The proof the held vote asked for, once solved: it counts the vote (POST …/vote/proof). */
async function sendProofLater(pollId: number, solving: Promise<string | null>, onCounted?: () => void) {
  const proof = await solving;
  if (proof === null) return;
  try {
    await apiRequest(`/api/polls/${pollId}/vote/proof`, { method: 'POST', body: { proof } });
    onCounted?.();
  } catch {
    // Held, then: the vote is released by the site's own rules, or by staff (DESIGN.md).
  }
}
