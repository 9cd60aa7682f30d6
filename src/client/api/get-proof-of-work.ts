import type { ProofOfWorkChallenge } from '../../shared/api.js';
import { apiRequest } from '../lib/api-client.js';

/** A proof-of-work challenge for a vote on the poll: asked for only when the ballot says so, each used once. */
export const getProofOfWorkChallenge = (pollId: number): Promise<ProofOfWorkChallenge> =>
  apiRequest<ProofOfWorkChallenge>(`/api/polls/${pollId}/proof-of-work`);
