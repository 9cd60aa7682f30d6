/**
 * Staff review of a poll's votes: the integrity report, discounts and their restores, releasing
 * held votes, and the challenge for everyone. Staff calls like the others (admin/): a session,
 * and changes only from this site, both checked before the body is read.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { ChallengeChange, IntegrityChange, IntegrityReport } from '../../shared/api.js';
import { votesText } from '../../shared/results.js';
import {
  challengeRequest,
  discountIdParams,
  discountRequest,
  pollIdParams,
  releaseRequest,
} from '../../shared/schemas.js';
import { sameSiteOnly, signedInOnly } from '../admin/admin-guard.js';
import type { AdminAuth } from '../admin/admin-auth.service.js';
import { conflict, notFound, type HttpError } from '../http/errors.js';
import type { ZodTypeProvider } from '../http/validation.js';
import type { ReviewRefusal, ReviewResult, ReviewService } from './review.service.js';

/**
 * Who the log names. There is one shared staff password today, so every action is staff's;
 * named accounts (issue 27) will put the signed-in person here.
 */
const STAFF_ACTOR = 'staff';

const refusals: Record<ReviewRefusal, () => HttpError> = {
  'not-found': () => notFound('Poll not found'),
  'no-such-discount': () => notFound('This poll has no such discount.'),
  'nothing-to-discount': () =>
    conflict('That network has no counted votes in that time, so nothing was set aside. Reload the report.'),
  'already-restored': () => conflict('These votes were already restored.'),
  'nothing-held': () => conflict('There are no held votes to release.'),
  'voting-over': () => conflict('Voting on this poll is over, so there is nothing to challenge.'),
};

function answer(result: ReviewResult, message: (votes: number) => string): IntegrityChange {
  if (result.outcome !== 'done') throw refusals[result.outcome]();
  return { message: message(result.action.votes), action: result.action };
}

export const reviewRoutes: FastifyPluginAsync<{
  auth: AdminAuth;
  review: ReviewService;
  publicUrl: string;
}> = async (app, { auth, review, publicUrl }) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  app.addHook('onRequest', sameSiteOnly(publicUrl));
  app.addHook('onRequest', signedInOnly(auth));

  api.get(
    '/api/admin/polls/:id/integrity',
    { schema: { params: pollIdParams } },
    async (request): Promise<IntegrityReport> => {
      const report = await review.report(request.params.id);
      if (!report) throw notFound('Poll not found');
      return report;
    },
  );

  api.post(
    '/api/admin/polls/:id/discounts',
    { schema: { params: pollIdParams, body: discountRequest } },
    async (request, reply): Promise<IntegrityChange> => {
      const result = await review.discount(request.params.id, request.body, STAFF_ACTOR);
      const body = answer(result, (votes) => `${votesText(votes)} set aside.`);
      reply.status(201);
      return body;
    },
  );

  api.delete(
    '/api/admin/polls/:id/discounts/:discountId',
    { schema: { params: discountIdParams } },
    async (request): Promise<IntegrityChange> => {
      const { id, discountId } = request.params;
      const result = await review.restore(id, discountId, STAFF_ACTOR);
      return answer(result, (votes) => `${votesText(votes)} counted again.`);
    },
  );

  api.post(
    '/api/admin/polls/:id/held/release',
    { schema: { params: pollIdParams, body: releaseRequest } },
    async (request): Promise<IntegrityChange> => {
      const { bucket, reason } = request.body;
      const result = await review.release(request.params.id, bucket, STAFF_ACTOR, reason);
      return answer(result, (votes) => `${votesText(votes)} released and counted.`);
    },
  );

  api.put(
    '/api/admin/polls/:id/challenge',
    { schema: { params: pollIdParams, body: challengeRequest } },
    async (request): Promise<ChallengeChange> => {
      const result = await review.setChallengeEveryone(request.params.id, request.body.everyone, STAFF_ACTOR);
      if (result.outcome !== 'done') throw refusals[result.outcome]();
      const message = result.on
        ? 'Every vote on this poll now needs a proof of work.'
        : 'Only challenged networks need a proof of work now.';
      return { message, action: result.action, challengeEveryone: result.on };
    },
  );
};
