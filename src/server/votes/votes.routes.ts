import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Confirmation, VoteReceipt } from '../../shared/api.js';
import { BALLOT_TOKEN_MAX_LENGTH } from '../../shared/limits.js';
import { pollIdParams, updateVoteRequest, voteProofRequest, voteRequest } from '../../shared/schemas.js';
import { badRequest, conflict, notFound, tooManyRequests, type HttpError } from '../http/errors.js';
import { confirmation, voteReceipt } from '../../shared/schemas/poll-answers.js';
import type { ZodTypeProvider } from '../http/validation.js';
import { reportTo } from '../http/limit-headers.js';
import { sameSiteOnly } from '../http/same-site.js';
import { ensureVoterId, readVoterId, type VoterIdentity, type VoterIds } from '../voters/voter-cookie.js';
import { VOTE_NOTICES, type VoteNotice } from '../../shared/ssr.js';
import type { AttachEmailOutcome, Voter, VoteOutcome, VoteProofOutcome, VotesService } from './votes.service.js';

/** The voter as the vote path sees it: the id, the address, and when the cookie was issued unless just now. */
const voterFrom = (voter: VoterIdentity, request: FastifyRequest): Voter => ({
  id: voter.id,
  address: request.ip,
  report: reportTo(request),
  cookieIssuedAt: voter.fresh ? null : voter.issuedAt,
});

export const ALREADY_VOTED = 'You have already voted on this poll.';
export const EMAIL_ALREADY_VOTED = 'This email has already voted on this poll.';
export const VOTING_CLOSED = 'Voting has closed for today. Results are live!';
export const EMAIL_LOCKED = "Your vote already has an email address, and it can't be changed.";
export const TOO_MANY_EMAILS = 'Too many tries at adding an email to your vote. Please try again in an hour.';

const voteRefusals: Record<Exclude<VoteOutcome, 'counted' | 'held'>, () => HttpError> = {
  'poll-not-found': () => notFound('Poll not found'),
  'poll-not-open': () => conflict('This poll is not open for voting.', 'poll-not-open'),
  'voting-closed': () => conflict(VOTING_CLOSED, 'voting-closed'),
  'no-such-option': () => badRequest("Please choose one of the poll's options."),
  'already-voted': () => conflict(ALREADY_VOTED, 'already-voted'),
  'email-already-voted': () => conflict(EMAIL_ALREADY_VOTED, 'email-already-voted'),
  'too-many-emails': () => tooManyRequests(TOO_MANY_EMAILS),
};

export const VOTE_COUNTED = 'Your vote is counted.';

const proofRefusals: Record<Exclude<VoteProofOutcome, 'counted'>, () => HttpError> = {
  'poll-not-found': () => notFound('Poll not found'),
  'poll-not-open': () => conflict('This poll is not open for voting.', 'poll-not-open'),
  'voting-closed': () => conflict(VOTING_CLOSED, 'voting-closed'),
  'no-held-vote': () => notFound('No vote of yours on this poll is waiting for a check.'),
  'bad-proof': () => badRequest('This proof of work does not count for your vote. Its check happens without it.'),
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
  voterIds: VoterIds;
  publicUrl: string;
  /** Told each vote's outcome (for /metrics). */
  countVote?: (outcome: VoteOutcome) => void;
}> = async (app, { votes, voterIds, publicUrl, countVote }) => {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    '/api/polls/:id/vote',
    {
      schema: {
        summary: "Vote on today's poll",
        description:
          "`ballot` is the ballot's token, `proof` the proof of work it asked for. A vote from a challenged network without one is held, and answered 201 all the same. 409 `already-voted`, `email-already-voted`, `voting-closed` or `poll-not-open`.",
        params: pollIdParams,
        body: voteRequest,
        response: { 201: voteReceipt },
      },
      config: { limits: ['vote-email'] },
    },
    async (request, reply): Promise<VoteReceipt> => {
      const pollId = request.params.id;
      const voter = await ensureVoterId(request, reply, voterIds);
      const outcome = await votes.castVote(pollId, voterFrom(voter, request), request.body);
      countVote?.(outcome);
      if (outcome !== 'counted' && outcome !== 'held') throw voteRefusals[outcome]();
      reply.status(201);
      // A held vote's sender is told the truth (issue 37): recorded, counted after a check.
      const message = outcome === 'held' ? VOTE_NOTICES.held : 'Vote recorded';
      return { message, pollId, optionIndex: request.body.optionIndex };
    },
  );

  api.post(
    '/api/polls/:id/vote/proof',
    {
      schema: {
        summary: "Count this browser's held vote with its proof of work",
        description:
          "The proof the ballot asked for, sent after the vote when solving it took longer than the page waits (the vote was held meanwhile). Counts this browser's own held vote, once; the same again, 200 and nothing changes. 404 when this browser has no held vote on the poll, 400 for a proof that does not count for it (its network's and poll's challenge, at the level it needs, unused, unexpired), 409 `voting-closed` or `poll-not-open`.",
        params: pollIdParams,
        body: voteProofRequest,
        response: { 200: confirmation },
      },
    },
    async (request): Promise<Confirmation> => {
      const voterId = (await readVoterId(request, voterIds))?.id ?? null;
      const outcome = await votes.proveVote(request.params.id, voterId, request.body.proof);
      if (outcome !== 'counted') throw proofRefusals[outcome]();
      return { message: VOTE_COUNTED };
    },
  );

  api.post(
    '/api/polls/:id/update-vote',
    {
      schema: {
        summary: "Attach an e-mail to this browser's vote",
        description: 'The same one again is fine; another, 409 `email-locked`.',
        params: pollIdParams,
        body: updateVoteRequest,
        response: { 200: confirmation },
      },
      config: { limits: ['vote-email'] },
    },
    async (request): Promise<Confirmation> => {
      const voterId = (await readVoterId(request, voterIds))?.id ?? null;
      const voter = voterId === null ? null : { id: voterId, address: request.ip, report: reportTo(request) };
      const outcome = await votes.attachEmail(request.params.id, voter, request.body.email);
      if (outcome !== 'attached') throw attachRefusals[outcome]();
      return { message: 'Your email is attached to your vote.' };
    },
  );

  /**
   * The vote form without scripts (a form-encoded `option=k`): the same rules as the API's
   * vote, then 303 See Other back to today's page, which shows the results or, in words, why
   * the vote was refused. Like the admin calls, a post from another site is refused (403);
   * the voter cookie is SameSite=Lax, so no other site's form carries it anyway.
   */
  await app.register(async (form) => {
    form.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });
    form.addHook('onRequest', sameSiteOnly(publicUrl));
    const voteForm = {
      summary: 'The vote without scripts (form: `option=k`, `ballot`)',
      description: "The same rules as the API's vote, then 303 to `/?outcome=…`; 403 from another site.",
      produces: { 303: { description: "Back to today's page, which says the outcome." } },
    };
    form.post('/polls/:id/vote', { schema: voteForm }, async (request, reply) => {
      const back = (notice: VoteNotice) => reply.redirect(`/?outcome=${notice}`, 303);
      const pollId = pollIdParams.safeParse(request.params);
      if (!pollId.success) return back('poll-not-found');
      const form = (request.body as Record<string, string> | undefined) ?? {};
      const option = form.option ?? '';
      if (!/^\d{1,2}$/.test(option)) return back('no-such-option');
      const voter = await ensureVoterId(request, reply, voterIds);
      const outcome = await votes.castVote(pollId.data.id, voterFrom(voter, request), {
        optionIndex: Number(option),
        voterEmail: undefined,
        // The page's ballot; no proof of work without scripts, so a challenged network's vote is held.
        ballot:
          typeof form.ballot === 'string' && form.ballot.length <= BALLOT_TOKEN_MAX_LENGTH ? form.ballot : undefined,
      });
      countVote?.(outcome);
      return back(outcome === 'too-many-emails' || outcome === 'email-already-voted' ? 'already-voted' : outcome);
    });
  });
};
