import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { Ballot, VoteReceipt } from '../../shared/api.js';
import type { voteRequest } from '../../shared/schemas.js';
import { apiRequest } from '../lib/api-client.js';
import { solveProofOfWork } from '../lib/proof-of-work.js';
import { getProofOfWorkChallenge } from './get-proof-of-work.js';
import { statsQuery } from './get-stats.js';
import { activePollQuery, getActivePoll } from './get-active-poll.js';

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
 * A ballot older than this is asked again whether its network must prove work before the vote
 * goes: a challenge may have begun while the voter read the question.
 */
const BALLOT_RECHECK_MS = 5_000;

/** Whether votes from this visitor's network must carry a proof of work now. */
async function mustProve(pollId: number, ballot: Ballot | null, receivedAt: number | undefined): Promise<boolean> {
  if (ballot?.proofOfWork) return true;
  if (receivedAt !== undefined && Date.now() - receivedAt < BALLOT_RECHECK_MS) return false;
  try {
    const now = await getActivePoll();
    return now?.id === pollId && now.ballot?.proofOfWork === true;
  } catch {
    return false;
  }
}

/**
 * An anonymous vote: the e-mail comes later, if at all, with the subscribe invitation. The
 * ballot of the page goes with it, and a proof of work when the ballot asks for one
 * (`onChecking` is told when that work starts).
 */
export async function castVote({
  pollId,
  optionIndex,
  ballot = null,
  ballotReceivedAt,
  onChecking,
}: {
  pollId: number;
  optionIndex: VoteBody['optionIndex'];
  ballot?: Ballot | null;
  /** When the ballot came (ms since the epoch, the browser's clock). */
  ballotReceivedAt?: number;
  onChecking?: () => void;
}): Promise<VoteReceipt> {
  const body: VoteBody = { optionIndex, voterEmail: '' };
  // The ballot of the page the voter read: it tells how long they took, so it is the one sent.
  if (ballot?.token) body.ballot = ballot.token;
  if (await mustProve(pollId, ballot, ballotReceivedAt)) {
    onChecking?.();
    const proof = await proofFor(pollId);
    if (proof !== null) body.proof = proof;
  }
  return apiRequest<VoteReceipt>(`/api/polls/${pollId}/vote`, { method: 'POST', body });
}

/**
 * After a vote, counted or refused, the poll and the stats are read again: a refused vote
 * (already voted in another tab, voting just closed) shows the results as they stand.
 */
export function useCastVote() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: castVote,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: activePollQuery.queryKey }),
        queryClient.invalidateQueries({ queryKey: statsQuery.queryKey }),
      ]),
  });
}
