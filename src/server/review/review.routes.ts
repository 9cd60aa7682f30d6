/**
 * Staff review of a poll's votes: the integrity report, discounts and their restores, releasing
 * held votes, and the challenge for everyone. Staff calls like the others (admin/): a session,
 * and changes only from this site, both checked before the body is read.
 */
import { challengeChange, integrityChange, integrityReport } from '../../shared/schemas/review-answers.js';
import type { FastifyPluginAsync } from 'fastify';
import type { IntegrityChange } from '../../shared/api.js';
import { votesText } from '../../shared/results.js';
import {
  challengeRequest,
  discountIdParams,
  discountRequest,
  pollIdParams,
  releaseRequest,
} from '../../shared/schemas.js';
import { staffApi } from '../staff/admin-guard.js';
import { auditedChanges, staffReads } from '../staff/staff-calls.js';
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
  const api = staffApi(app, auth, publicUrl);
  // The integrity log names the person who acted (`staff.name`); the audit log holds the same
  // action with their role.
  const change = auditedChanges(api, () => clock.now());

  staffReads(api).get('/api/admin/polls/:id/integrity', {
    permission: 'integrity.read',
    summary: "A poll's integrity report",
    schema: { params: pollIdParams, response: { 200: integrityReport } },
    read: async ({ params: { id } }) => foundOr404(await review.report(id), 'Poll not found'),
  });

  change.post('/api/admin/polls/:id/discounts', {
    permission: 'integrity.write',
    summary: "Set aside votes over a time: a network's, a signal's (such as first-time browsers) or both",
    schema: { params: pollIdParams, body: discountRequest, response: { 201: integrityChange } },
    audit: ({ params: { id }, body: { bucket, signal, from, to, reason } }) => {
      const whose = [bucket && `network ${bucket}'s`, signal].filter(Boolean).join(' ');
      return ['integrity.discount', `Set aside ${whose} votes from ${from} to ${to}: ${reason}`, `poll ${id}`];
    },
    handle: async ({ params: { id }, body, staff }, audit) =>
      answer(await review.discount(id, body, staff.name, audit), (votes) => `${votesText(votes)} set aside.`),
  });

  change.delete('/api/admin/polls/:id/discounts/:discountId', {
    permission: 'integrity.write',
    summary: 'Undo a discount',
    schema: { params: discountIdParams, response: { 200: integrityChange } },
    audit: ({ params: { id, discountId } }) => ['integrity.restore', `Restored discount ${discountId}`, `poll ${id}`],
    handle: async ({ params: { id, discountId }, staff }, audit) =>
      answer(await review.restore(id, discountId, staff.name, audit), (votes) => `${votesText(votes)} counted again.`),
  });

  change.post('/api/admin/polls/:id/held/release', {
    permission: 'integrity.write',
    summary: 'Release held votes',
    schema: { params: pollIdParams, body: releaseRequest, response: { 200: integrityChange } },
    audit: ({ params: { id }, body: { bucket, reason } }) => [
      'integrity.release',
      `Released held votes${bucket ? ` of network ${bucket}` : ''}${reason ? `: ${reason}` : ''}`,
      `poll ${id}`,
    ],
    handle: async ({ params: { id }, body: { bucket, reason }, staff }, audit) =>
      answer(
        await review.release(id, bucket, staff.name, reason, audit),
        (votes) => `${votesText(votes)} released and counted.`,
      ),
  });

  change.put('/api/admin/polls/:id/challenge', {
    permission: 'integrity.write',
    summary: 'Ask every vote, or only challenged networks, for a proof of work',
    schema: { params: pollIdParams, body: challengeRequest, response: { 200: challengeChange } },
    audit: ({ params: { id }, body: { everyone } }) => [
      'integrity.challenge',
      everyone ? 'Asked every vote for a proof of work' : 'Asked only challenged networks for a proof of work',
      `poll ${id}`,
    ],
    handle: async ({ params: { id }, body: { everyone }, staff }, audit) => {
      const result = await review.setChallengeEveryone(id, everyone, staff.name, audit);
      if (result.outcome !== 'done') throw refusals[result.outcome]();
      const message = result.on
        ? 'Every vote on this poll now needs a proof of work.'
        : 'Only challenged networks need a proof of work now.';
      return { message, action: result.action, challengeEveryone: result.on };
    },
  });
};
