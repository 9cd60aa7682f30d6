import type { FastifyPluginAsync } from 'fastify';
import type { PastPoll, PollResults } from '../../shared/api.js';
import type { Ballot } from '../../shared/api.js';
import { activePollQuery, ballotQuery, pollIdParams, pollNumberParams } from '../../shared/schemas.js';
import { conflict, notFound } from '../http/errors.js';
import type { ZodTypeProvider } from '../http/validation.js';
import { ensureVoterId, readVoterId, type VoterIds } from '../voters/voter-cookie.js';
import type { PollsService } from './polls.service.js';

export const pollsRoutes: FastifyPluginAsync<{ polls: PollsService; voterIds: VoterIds }> = async (
  app,
  { polls, voterIds },
) => {
  const api = app.withTypeProvider<ZodTypeProvider>();

  /**
   * Today's poll, or null, as this browser may see it (active-poll-visibility.ts): identity is
   * the voter cookie, and the `email` hint, validated, never widens it.
   */
  api.get('/api/polls/active', { schema: { querystring: activePollQuery } }, async (request, reply) =>
    reply.type('application/json; charset=utf-8').send(
      await polls.activePollJson({
        voterId: (await readVoterId(request, voterIds))?.id ?? null,
        emailHint: request.query.email,
      }),
    ),
  );

  /**
   * This visitor's ballot for a vote on today's poll, asked for on the first intent to vote
   * (shared/api.ts, Ballot), bound to this browser's voter cookie, which it sets when there is
   * none yet (integrity/ballot.ts). Never cached: each is good once.
   */
  api.get(
    '/api/polls/:id/ballot',
    { schema: { params: pollIdParams, querystring: ballotQuery } },
    async (request, reply): Promise<Ballot> => {
      const voter = await ensureVoterId(request, reply, voterIds);
      const ballot = await polls.ballotFor(request.params.id, request.ip, request.query.shown, voter);
      if (!ballot) throw conflict('This poll is not open for voting.', 'poll-not-open');
      reply.header('cache-control', 'no-store');
      return ballot;
    },
  );

  api.get('/api/polls', async (): Promise<PastPoll[]> => polls.pastPolls());

  api.get(
    '/api/polls/number/:number',
    { schema: { params: pollNumberParams } },
    async (request): Promise<PollResults> => {
      const results = await polls.pastPollResults(request.params.number);
      if (!results) throw notFound('Poll not found');
      return results;
    },
  );
};
