import type { FastifyPluginAsync } from 'fastify';
import type { Confirmation, VoteReceipt } from '../../shared/api.js';
import { pollIdParams, updateVoteRequest, voteRequest } from '../../shared/schemas.js';
import { badRequest, conflict, notFound, tooManyRequests, type HttpError } from '../http/errors.js';
import type { ZodTypeProvider } from '../http/validation.js';
import { ensureVoterId, readVoterId } from '../http/voter-cookie.js';
import type { AttachEmailOutcome, VoteOutcome, VotesService } from './votes.service.js';

export const ALREADY_VOTED = 'You have already voted on this poll.';
export const EMAIL_ALREADY_VOTED = 'This email has already voted on this poll.';
export const VOTING_CLOSED = 'Voting has closed for today. Results are live!';
export const EMAIL_LOCKED = "Your vote already has an email address, and it can't be changed.";
export const TOO_MANY_EMAILS = 'Too many tries at adding an email to your vote. Please try again in an hour.';

const voteRefusals: Record<Exclude<VoteOutcome, 'counted'>, () => HttpError> = {
  'poll-not-found': () => notFound('Poll not found'),
  'poll-not-open': () => conflict('This poll is not open for voting.', 'poll-not-open'),
  'voting-closed': () => conflict(VOTING_CLOSED, 'voting-closed'),
  'no-such-option': () => badRequest("Please choose one of the poll's options."),
  'already-voted': () => conflict(ALREADY_VOTED, 'already-voted'),
  'email-already-voted': () => conflict(EMAIL_ALREADY_VOTED, 'email-already-voted'),
  'too-many-emails': () => tooManyRequests(TOO_MANY_EMAILS),
};

const attachRefusals: Record<Exclude<AttachEmailOutcome, 'attached'>, () => HttpError> = {
  'poll-not-found': () => notFound('Poll not found'),
  'no-vote': () => notFound('Please vote on this poll before adding your email.'),
  'email-already-voted': () => conflict(EMAIL_ALREADY_VOTED, 'email-already-voted'),
  'email-locked': () => conflict(EMAIL_LOCKED, 'email-locked'),
  'too-many-emails': () => tooManyRequests(TOO_MANY_EMAILS),
};

export const votesRoutes: FastifyPluginAsync<{
  votes: VotesService;
  secureCookies: boolean;
  /** Told each vote's outcome (for /metrics). */
  countVote?: (outcome: VoteOutcome) => void;
}> = async (app, { votes, secureCookies, countVote }) => {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    '/api/polls/:id/vote',
    { schema: { params: pollIdParams, body: voteRequest } },
    async (request, reply): Promise<VoteReceipt> => {
      const pollId = request.params.id;
      const voterId = ensureVoterId(request, reply, secureCookies);
      const outcome = await votes.castVote(pollId, voterId, request.body);
      countVote?.(outcome);
      if (outcome !== 'counted') throw voteRefusals[outcome]();
      reply.status(201);
      return { message: 'Vote recorded', pollId, optionIndex: request.body.optionIndex };
    },
  );

  api.post(
    '/api/polls/:id/update-vote',
    { schema: { params: pollIdParams, body: updateVoteRequest } },
    async (request): Promise<Confirmation> => {
      const outcome = await votes.attachEmail(request.params.id, readVoterId(request), request.body.email);
      if (outcome !== 'attached') throw attachRefusals[outcome]();
      return { message: 'Your email is attached to your vote.' };
    },
  );
};
