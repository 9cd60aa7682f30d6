import type { FastifyPluginAsync } from 'fastify';
import type { PastPoll, PollResults } from '../../shared/api.js';
import type { Ballot } from '../../shared/api.js';
import { activePollQuery, ballotQuery, pollIdParams, pollNumberParams } from '../../shared/schemas.js';
import { activePoll, ballot, pastPoll, pollResults } from '../../shared/schemas/poll-answers.js';
import { z } from '../../shared/zod.js';
import { conflict, foundOr404 } from '../http/errors.js';
import { sendJsonText, type ZodTypeProvider } from '../http/validation.js';
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
  api.get(
    '/api/polls/active',
    {
      schema: {
        summary: "Today's poll for this visitor, or null",
        description:
          "Results only once this visitor has voted or voting has closed; the weighted line from the close time on. An old client's `?email=` is accepted and ignored. Sent from a cached JSON string, unserialized.",
        querystring: activePollQuery,
        response: { 200: activePoll.nullable() },
      },
    },
    async (request, reply) =>
      sendJsonText(
        reply,
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
    {
      schema: {
        summary: "This visitor's ballot for a vote on today's poll",
        description:
          'Asked for on the first intent to vote; `shown` is how long the page has shown the question, in ms (capped at 10 minutes). 409 when the poll is not open. Never cached.',
        params: pollIdParams,
        querystring: ballotQuery,
        response: { 200: ballot },
      },
    },
    async (request, reply): Promise<Ballot> => {
      const voter = await ensureVoterId(request, reply, voterIds);
      const ballot = await polls.ballotFor(request.params.id, request.ip, request.query.shown, voter);
      if (!ballot) throw conflict('This poll is not open for voting.', 'poll-not-open');
      reply.header('cache-control', 'no-store');
      return ballot;
    },
  );

  api.get(
    '/api/polls',
    { schema: { summary: 'Past polls, newest first', response: { 200: z.array(pastPoll) } } },
    async (): Promise<PastPoll[]> => polls.pastPolls(),
  );

  api.get(
    '/api/polls/number/:number',
    {
      schema: {
        summary: "One past poll's final results",
        description:
          'With the other runs of its question, `setAsideVotes` (held or discounted after review, in no figure) and `weighted` (/methods).',
        params: pollNumberParams,
        response: { 200: pollResults },
      },
    },
    async (request): Promise<PollResults> =>
      foundOr404(await polls.pastPollResults(request.params.number), 'Poll not found'),
  );
};
