/**
 * Solving an ALTCHA challenge as the altcha widget does, without its interface (the vote
 * button is the interface): the widget package's solver, and its PBKDF2 worker built into our
 * own assets, so it runs from the site's origin under the pages' CSP (WebCrypto, no eval, no
 * WebAssembly). Loaded by proof-of-work.ts only when a vote needs it.
 */
import { solveChallengeWorkers } from 'altcha/lib';
import Pbkdf2Worker from 'altcha/workers/pbkdf2?worker';
import type { ProofOfWorkChallenge } from '../../shared/api.js';

/** Past this the vote goes without a proof (and is held) rather than keep a teacher waiting. */
const SOLVE_TIMEOUT_MS = 60_000;
/** As the widget: one worker per core, each trying every n-th counter. */
const MAX_WORKERS = 8;

/** The proof the server takes: base64 of the JSON of the challenge and its solution, as the widget sends it. */
export async function solve(challenge: ProofOfWorkChallenge): Promise<string | null> {
  const solution = await solveChallengeWorkers({
    challenge,
    concurrency: Math.min(MAX_WORKERS, navigator.hardwareConcurrency || 2),
    createWorker: () => new Pbkdf2Worker(),
    timeout: SOLVE_TIMEOUT_MS,
  });
  if (!solution) return null;
  const { parameters, signature } = challenge;
  return btoa(JSON.stringify({ challenge: { parameters, signature }, solution }));
}
