/**
 * This browser's push reminder (keyed by its voter cookie): GET reads it with the key to
 * subscribe with; POST turns it on, PUT changes it, DELETE turns it off, POST …/test sends a
 * test notification, POST …/seen tells the site the browser is still in use.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { RemindersState } from '../../shared/reminders.js';
import { reminderSettingsRequest, reminderSubscribeRequest } from '../../shared/reminders.js';
import { badRequest, notFound, tooManyRequests } from '../http/errors.js';
import { reminderAnswer, remindersState } from '../../shared/schemas/reminder-answers.js';
import { confirmation } from '../../shared/schemas/poll-answers.js';
import type { ZodTypeProvider } from '../http/validation.js';
import { reportTo } from '../http/limit-headers.js';
import { ensureVoterId, readVoterId, type VoterIds } from '../voters/voter-cookie.js';
import type { RemindersService } from './reminders.service.js';

export const NO_REMINDER = 'This browser has no reminder. Turn reminders on after your vote.';

export const remindersRoutes: FastifyPluginAsync<{ reminders: RemindersService; voterIds: VoterIds }> = async (
  app,
  { reminders, voterIds },
) => {
  app.get(
    '/api/reminders',
    {
      schema: { summary: "This browser's push reminder, and the site's VAPID key", response: { 200: remindersState } },
    },
    async (request, reply): Promise<RemindersState> => {
      void reply.header('cache-control', 'no-store');
      return reminders.state((await readVoterId(request, voterIds))?.id ?? null);
    },
  );
};

/** The calls that change something: registered under the write limit. */
export const remindersChangeRoutes: FastifyPluginAsync<{ reminders: RemindersService; voterIds: VoterIds }> = async (
  app,
  { reminders, voterIds },
) => {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    '/api/reminders',
    {
      schema: {
        summary: 'Turn the reminder on',
        description: "With the browser's PushSubscription; 400 for an endpoint not https on PUSH_SERVICE_HOSTS.",
        body: reminderSubscribeRequest,
        response: { 201: reminderAnswer },
      },
      config: { limits: ['push'] },
    },
    async (request, reply) => {
      const voter = await ensureVoterId(request, reply, voterIds);
      const result = await reminders.subscribe(voter.id, request.body, request.ip, reportTo(request));
      if (result.outcome === 'bad-endpoint')
        throw badRequest(result.message, [{ path: 'subscription.endpoint', message: result.message }]);
      if (result.outcome === 'rate-limited') {
        throw tooManyRequests('Too many new reminders from your network in the last hour. Please try again later.');
      }
      return reply.status(201).send({ reminder: result.reminder });
    },
  );

  api.put(
    '/api/reminders',
    { schema: { summary: 'Change the reminder', body: reminderSettingsRequest, response: { 200: reminderAnswer } } },
    async (request) => {
      const reminder = await reminders.change((await readVoterId(request, voterIds))?.id ?? null, request.body);
      if (!reminder) throw notFound(NO_REMINDER);
      return { reminder };
    },
  );

  api.delete(
    '/api/reminders',
    { schema: { summary: 'Turn the reminder off', produces: { 204: { description: 'Off.' } } } },
    async (request, reply) => {
      await reminders.remove((await readVoterId(request, voterIds))?.id ?? null);
      return reply.status(204).send();
    },
  );

  api.post(
    '/api/reminders/test',
    {
      schema: { summary: 'Send a test notification', response: { 202: confirmation } },
      config: { limits: ['push'] },
    },
    async (request, reply) => {
      const reached = await reminders.test(
        (await readVoterId(request, voterIds))?.id ?? null,
        request.ip,
        reportTo(request),
      );
      if (reached === 'none') throw notFound(NO_REMINDER);
      if (reached === 'rate-limited')
        throw tooManyRequests('Too many test notifications from your network. Please try again later.');
      return reply
        .status(202)
        .send({ message: reached > 0 ? 'Test notification sent.' : 'The push service did not take it.' });
    },
  );

  api.post(
    '/api/reminders/seen',
    {
      schema: {
        summary: 'A reminder was opened',
        description: 'Keeps a browser in use from being dropped after 60 days unseen.',
        produces: { 204: { description: 'Noted.' } },
      },
    },
    async (request, reply) => {
      await reminders.seen((await readVoterId(request, voterIds))?.id ?? null);
      return reply.status(204).send();
    },
  );
};
