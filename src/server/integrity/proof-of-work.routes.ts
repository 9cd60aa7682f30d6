import type { FastifyPluginAsync } from 'fastify';
import type { ProofOfWorkChallenge } from '../../shared/api.js';
import { pollIdParams } from '../../shared/schemas.js';
import { proofOfWorkChallenge } from '../../shared/schemas/poll-answers.js';
import type { ZodTypeProvider } from '../http/validation.js';
import type { ProofOfWork } from './proof-of-work.js';

export interface ProofOfWorkRoutesOptions {
  proofOfWork: ProofOfWork;
  /** The address bucket of a client address (integrity/buckets.ts). */
  bucketOf: (ip: string) => Promise<string> | string;
  /** How hard the challenge is for this bucket on this poll now: 0, or more while a burst goes on. */
  levelOf: (pollId: number, bucket: string) => Promise<number> | number;
}

export const proofOfWorkRoutes: FastifyPluginAsync<ProofOfWorkRoutesOptions> = async (
  app,
  { proofOfWork, bucketOf, levelOf },
) => {
  const api = app.withTypeProvider<ZodTypeProvider>();

  /**
   * A challenge for a vote on the poll, bound to the poll and this client's bucket, for the
   * ALTCHA solver (ActivePoll.ballot.proofOfWork says when a vote needs one). Any poll id gets
   * one: a challenge for a poll that is not open proves nothing anyone accepts. Never cached:
   * each is good once, for five minutes.
   */
  api.get(
    '/api/polls/:id/proof-of-work',
    {
      schema: {
        summary: 'A proof-of-work challenge for a vote on the poll',
        description:
          "Fetched when the ballot's `proofOfWork` is true: bound to the poll and the caller's network for 5 minutes, never cached. Its solution goes back as the vote's `proof` and counts once.",
        params: pollIdParams,
        response: { 200: proofOfWorkChallenge },
      },
    },
    async (request, reply): Promise<ProofOfWorkChallenge> => {
      const pollId = request.params.id;
      const bucket = await bucketOf(request.ip);
      const challenge = await proofOfWork.challenge(pollId, bucket, await levelOf(pollId, bucket));
      reply.header('cache-control', 'no-store');
      return challenge;
    },
  );
};
