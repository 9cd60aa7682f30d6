/**
 * The proof of work a vote carries when the server asks for one (ActivePoll.ballot): the
 * solver and its workers load only then, never with the page.
 */
import type { ProofOfWorkChallenge } from '../../shared/api.js';

/**
 * The proof for `challenge`, or null when none could be made (no WebCrypto outside HTTPS, an
 * old browser, too slow): the vote is then sent without one, and the server holds it for staff
 * rather than refusing it, so the voter's "Vote recorded" is true either way.
 */
export async function solveProofOfWork(challenge: ProofOfWorkChallenge): Promise<string | null> {
  try {
    const { solve } = await import('./proof-of-work-solver.js');
    return await solve(challenge);
  } catch {
    return null;
  }
}
