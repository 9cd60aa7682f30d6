/**
 * Staff review of a poll's votes: the integrity report, discounts and their restores, releasing
 * held votes, and the challenge for everyone. Staff calls like the others (admin/): a session,
 * and changes only from this site, both checked before the body is read.
 */
import { challengeChange, integrityChange, integrityReport } from '../../shared/schemas/review-answers.js';
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
import { auditOf, staffApi, staffOf } from '../staff/admin-guard.js';
import type { Clock } from '../clock.js';
import type { AdminAuth } from '../staff/admin-auth.service.js';
import { conflict, foundOr404, notFound, type HttpError } from '../http/errors.js';
import type { ReviewRefusal, ReviewResult, ReviewService } from './review.service.js';

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
  clock: Clock;
}> = async (app, { auth, review, publicUrl, clock }) => {
  const now = () => clock.now();
  /** The integrity log names the person who acted; the audit log holds the same action with their role. */
  const actorName = (request: Parameters<typeof staffOf>[0]) => staffOf(request).name;
  const api = staffApi(app, auth, publicUrl);

  api.get(
    '/api/admin/polls/:id/integrity',
    {
      config: { permission: 'integrity.read' },
      schema: { summary: "A poll's integrity report", params: pollIdParams, response: { 200: integrityReport } },
    },
    async (request): Promise<IntegrityReport> => foundOr404(await review.report(request.params.id), 'Poll not found'),
  );

  api.post(
    '/api/admin/polls/:id/discounts',
    {
      config: { permission: 'integrity.write' },
      schema: {
        summary: "Set aside votes over a time: a network's, a signal's (such as first-time browsers) or both",
        params: pollIdParams,
        body: discountRequest,
        response: { 201: integrityChange },
      },
    },
    async (request, reply): Promise<IntegrityChange> => {
      const { id } = request.params;
      const { bucket, signal, from, to, reason } = request.body;
      const whose = [bucket && `network ${bucket}'s`, signal].filter(Boolean).join(' ');
      const audit = auditOf(request, now)(
        'integrity.discount',
        `Set aside ${whose} votes from ${from} to ${to}: ${reason}`,
        `poll ${id}`,
      );
      const result = await review.discount(id, request.body, actorName(request), audit);
      const body = answer(result, (votes) => `${votesText(votes)} set aside.`);
      reply.status(201);
      return body;
    },
  );

  api.delete(
    '/api/admin/polls/:id/discounts/:discountId',
    {
      config: { permission: 'integrity.write' },
      schema: { summary: 'Undo a discount', params: discountIdParams, response: { 200: integrityChange } },
    },
    async (request): Promise<IntegrityChange> => {
      const { id, discountId } = request.params;
      const audit = auditOf(request, now)('integrity.restore', `Restored discount ${discountId}`, `poll ${id}`);
      const result = await review.restore(id, discountId, actorName(request), audit);
      return answer(result, (votes) => `${votesText(votes)} counted again.`);
    },
  );

  api.post(
    '/api/admin/polls/:id/held/release',
    {
      config: { permission: 'integrity.write' },
      schema: {
        summary: 'Release held votes',
        params: pollIdParams,
        body: releaseRequest,
        response: { 200: integrityChange },
      },
    },
    async (request): Promise<IntegrityChange> => {
      const { bucket, reason } = request.body;
      const { id } = request.params;
      const audit = auditOf(request, now)(
        'integrity.release',
        `Released held votes${bucket ? ` of network ${bucket}` : ''}${reason ? `: ${reason}` : ''}`,
        `poll ${id}`,
      );
      const result = await review.release(id, bucket, actorName(request), reason, audit);
      return answer(result, (votes) => `${votesText(votes)} released and counted.`);
    },
  );

  api.put(
    '/api/admin/polls/:id/challenge',
    {
      config: { permission: 'integrity.write' },
      schema: {
        summary: 'Ask every vote, or only challenged networks, for a proof of work',
        params: pollIdParams,
        body: challengeRequest,
        response: { 200: challengeChange },
      },
    },
    async (request): Promise<ChallengeChange> => {
      const { id } = request.params;
      const { everyone } = request.body;
      const audit = auditOf(request, now)(
        'integrity.challenge',
        everyone ? 'Asked every vote for a proof of work' : 'Asked only challenged networks for a proof of work',
        `poll ${id}`,
      );
      const result = await review.setChallengeEveryone(id, everyone, actorName(request), audit);
      if (result.outcome !== 'done') throw refusals[result.outcome]();
      const message = result.on
        ? 'Every vote on this poll now needs a proof of work.'
        : 'Only challenged networks need a proof of work now.';
      return { message, action: result.action, challengeEveryone: result.on };
    },
  );
};
