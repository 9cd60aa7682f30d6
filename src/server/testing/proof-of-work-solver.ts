/**
 * Solving ALTCHA challenges in Node, as a script that stuffs votes would: altcha-lib's own
 * solver, one core. The proof is what the altcha widget sends: base64 of the JSON of the
 * challenge and its solution.
 */
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { ProofOfWorkChallenge } from '../../shared/api.js';

export function encodeProof(challenge: ProofOfWorkChallenge, solution: unknown): string {
  const { parameters, signature } = challenge;
  return Buffer.from(JSON.stringify({ challenge: { parameters, signature }, solution })).toString('base64');
}

/** A proof taken apart, as a test reads and edits it. */
export interface DecodedProof {
  challenge: {
    parameters: ProofOfWorkChallenge['parameters'] & {
      data: { poll: number; scope: string; expires: number; level?: number };
    };
    signature: string;
  };
  solution: { counter: number; derivedKey: string };
}

export function decodeProof(proof: string): DecodedProof {
  return JSON.parse(Buffer.from(proof, 'base64').toString('utf8')) as DecodedProof;
}

/** The proof for `challenge`, found by trying counters from 0 in this thread. */
export async function solveInNode(challenge: ProofOfWorkChallenge): Promise<string> {
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('The challenge was not solved in time.');
  return encodeProof(challenge, solution);
}
