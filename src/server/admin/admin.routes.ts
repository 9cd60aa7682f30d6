/** The admin API (spec section 7): every call needs a staff session and comes from this site. */
import type { FastifyPluginAsync } from 'fastify';
import { Readable } from 'node:stream';
import type { AdminSuggestion, MailStats, SavedPoll } from '../../shared/api.js';
import {
  adminPoll,
  mailStats as mailStatsAnswer,
  pollStatusUpdate,
  savedPoll,
  suggestionsAnswer,
  voteRecords,
  votesSummary,
} from '../../shared/schemas/admin-answers.js';
import { confirmation } from '../../shared/schemas/poll-answers.js';
import {
  pollDraft,
  activateRequest,
  pollIdParams,
  suggestionIdParams,
  suggestionStatusRequest,
  suggestionsQuery,
  votesCsvQuery,
  votesQuery,
} from '../../shared/schemas.js';
import { z } from '../../shared/zod.js';
import { badRequest, conflict, forbidden, foundOr404, notFound, type HttpError } from '../http/errors.js';
import { can } from '../../shared/staff-permissions.js';
import { sendJsonStream } from '../http/validation.js';
import type { SuggestionsService } from '../suggestions/suggestions.service.js';
import {
  auditRead,
  requireRecentSignIn,
  staffApi,
  signedInRecently,
  staffOf,
  voterEmailsAllowed,
} from '../staff/admin-guard.js';
import type { Clock } from '../clock.js';
import type { Db } from '../db/connection.js';
import type { AdminAuth } from '../staff/admin-auth.service.js';
import { auditedChanges, staffReads } from '../staff/staff-calls.js';
import type { AdminPollsService, EarlierRun, SaveRefusal, SaveResult } from './admin-polls.service.js';

const refusals: Record<SaveRefusal, (run: EarlierRun) => HttpError> = {
  'not-found': () => notFound('Poll not found'),
  'asked-before-unknown': ({ pollNumber }) =>
    badRequest(`There is no past poll #${pollNumber}. "Asked before" must name a poll that has already run.`),
  'asked-before-live': ({ pollNumber }) =>
    badRequest(`Poll #${pollNumber} is today's poll and still running. It can be asked again once it is a past poll.`),
  'asked-before-not-earlier': ({ pollNumber }) =>
    badRequest(`Poll #${pollNumber} did not run before this one, so this poll cannot ask it again.`),
  'asked-before-options': ({ pollNumber, options }) =>
    badRequest(
      `A poll asked again must have the same options as before. Poll #${pollNumber}'s are: ${options.join(', ')}.`,
    ),
  'date-in-past': () => badRequest('The go-live date cannot be before today.'),
  'date-taken': () => conflict('Another poll is already scheduled for that day.'),
  'date-locked': () => conflict('A poll that has gone live keeps its date. Use "Make Active" to run it again.'),
  'options-locked': () => conflict('This poll already has votes, so its options cannot be changed.'),
  'topic-unknown': () => badRequest('There is no such topic. Choose topics from the list.'),
};

/** The topics a save gave, as the audit log says them. */
const topicsSaid = (topics: string[] | undefined) =>
  topics === undefined ? '' : `, topics: ${topics.length === 0 ? 'none' : topics.join(', ')}`;

const MESSAGES = {
  live: 'Poll created and is now live!',
  scheduled: 'Poll scheduled successfully!',
  updated: 'Poll updated successfully!',
} as const;

function answer(result: SaveResult, liveMessage: string): SavedPoll {
  if (!('poll' in result)) throw refusals[result.outcome](result.run ?? { pollNumber: 0, options: [] });
  return { message: result.outcome === 'live' ? liveMessage : MESSAGES[result.outcome], poll: result.poll };
}

/** A JSON array written a page at a time. */
async function* jsonArray<T>(pages: AsyncIterable<T[]>): AsyncGenerator<string> {
  let first = true;
  yield '[';
  for await (const page of pages) {
    const items = page.map((item) => JSON.stringify(item)).join(',');
    yield first ? items : `,${items}`;
    first = false;
  }
  yield ']';
}

export const adminRoutes: FastifyPluginAsync<{
  auth: AdminAuth;
  polls: AdminPollsService;
  suggestions: SuggestionsService;
  publicUrl: string;
  mailStats: () => Promise<MailStats>;
  db: Db;
  clock: Clock;
}> = async (app, { auth, polls, suggestions, publicUrl, mailStats, db, clock }) => {
  const now = () => clock.now();
  // Before the body is even read: without a session, every call is a 401, not a 400; without
  // the permission, a 403 (admin-guard.ts).
  const api = staffApi(app, auth, publicUrl);
  const change = auditedChanges(api, now);
  const reads = staffReads(api);

  reads.get('/api/admin/polls', {
    permission: 'polls.read',
    summary: 'Every poll, scheduled ones included',
    schema: { response: { 200: z.array(adminPoll) } },
    read: () => polls.list(),
  });

  change.post('/api/admin/polls', {
    permission: 'polls.write',
    summary: 'Create or schedule a poll',
    schema: { body: pollDraft, response: { 201: savedPoll } },
    audit: ({ body }) => [
      'poll.create',
      `Created "${body.question}" for ${body.liveDate}${topicsSaid(body.topics)}`,
      'poll',
    ],
    handle: async ({ body }, audit) => answer(await polls.create(body, audit), MESSAGES.live),
  });

  change.put('/api/admin/polls/:id', {
    permission: 'polls.write',
    summary: 'Edit a poll',
    schema: { params: pollIdParams, body: pollDraft, response: { 200: savedPoll } },
    audit: ({ params: { id }, body }) => [
      'poll.edit',
      `Edited to "${body.question}" for ${body.liveDate}${topicsSaid(body.topics)}`,
      `poll ${id}`,
    ],
    // An edit that moves a scheduled poll to today puts it live, and says so.
    handle: async ({ params: { id }, body }, audit) =>
      answer(await polls.update(id, body, audit), 'Poll updated successfully! It is now live.'),
  });

  // An editor deletes only polls nobody has voted on; a poll with votes, the owner, signed in recently.
  change.delete('/api/admin/polls/:id', {
    permission: 'polls.write',
    summary: 'Delete a poll',
    schema: { params: pollIdParams, response: { 200: confirmation } },
    audit: ({ params: { id } }) => ['poll.delete', 'Deleted the poll and its votes', `poll ${id}`],
    handle: async ({ params: { id }, staff }, audit) => {
      const owner = can(staff.role, 'polls.delete-voted');
      const outcome = await polls.remove(id, { withVotes: owner && signedInRecently(staff, now()) }, audit);
      if (outcome === 'not-found') throw notFound('Poll not found');
      if (outcome === 'has-votes') {
        if (!owner) throw forbidden('This poll has votes, so only the site owner can delete it.');
        requireRecentSignIn(staff, now(), 'Deleting a poll with votes needs');
      }
      return { message: 'Poll deleted successfully' };
    },
  });

  change.put('/api/admin/polls/:id/activate', {
    permission: 'polls.write',
    summary: 'Make a poll the active one now',
    schema: { params: pollIdParams, body: activateRequest.nullish(), response: { 200: confirmation } },
    audit: ({ params: { id } }) => ['poll.activate', 'Made the poll active now', `poll ${id}`],
    handle: async ({ params: { id }, body }, audit) => {
      const outcome = await polls.activate(id, body?.replacing, audit);
      if (outcome === 'not-found') throw notFound('Poll not found');
      if (outcome === 'already-active') throw conflict('This poll was just made active by someone else.');
      if (outcome === 'superseded') {
        throw conflict('Another poll was just made active, so nothing changed. Check the list, then try again.');
      }
      return { message: 'Poll is now active!' };
    },
  });

  change.post('/api/admin/update-poll-status', {
    permission: 'polls.write',
    summary: "Run the daily switch now: today's scheduled poll goes live",
    schema: { response: { 200: pollStatusUpdate } },
    audit: () => ['poll.switch', "Ran the daily switch: today's scheduled poll went live", 'schedule'],
    handle: async (_call, audit) => {
      const { activatedPollId } = await polls.updateStatuses(audit);
      return { message: 'Poll statuses updated!', activatedPollId };
    },
  });

  // Every vote of a poll, streamed page by page; with `limit`, one page (the voter section).
  api.get(
    '/api/admin/polls/:id/votes',
    {
      config: { permission: 'polls.read' },
      schema: {
        summary: "A poll's votes: with `limit`, one page; without, every vote",
        params: pollIdParams,
        querystring: votesQuery,
        response: { 200: voteRecords },
      },
    },
    async (request, reply) => {
      const { after, limit } = request.query;
      // E-mails are read only when asked for and allowed: otherwise the column is never selected.
      const withEmail = request.query.withEmail === 'true';
      if (withEmail) {
        voterEmailsAllowed(request, now());
        await auditRead(db, request, now(), 'votes.emails', `poll ${request.params.id}`, 'Viewed voter e-mails');
      }
      const emails = withEmail ? 'only' : 'left-out';
      if (limit !== undefined) {
        return foundOr404(await polls.votesPage(request.params.id, { after, limit, emails }), 'Poll not found');
      }
      const pages = await polls.votePages(request.params.id, emails);
      if (!pages) throw notFound('Poll not found');
      return sendJsonStream(reply, jsonArray(pages));
    },
  );

  reads.get('/api/admin/polls/:id/votes/summary', {
    permission: 'polls.read',
    summary: "A poll's votes and e-mails per option",
    schema: { params: pollIdParams, response: { 200: votesSummary } },
    read: async ({ params: { id } }) => foundOr404(await polls.votesSummary(id), 'Poll not found'),
  });

  api.get(
    '/api/admin/polls/:id/votes.csv',
    {
      config: { permission: 'votes.export' },
      schema: {
        summary: "A poll's votes as CSV",
        params: pollIdParams,
        querystring: votesCsvQuery,
        produces: { 200: { type: 'text/csv', description: 'Every vote, one a row.' } },
      },
    },
    async (request, reply) => {
      const withEmail = request.query.withEmail === 'true';
      if (withEmail) voterEmailsAllowed(request, now());
      const csv = await polls.votesCsv(request.params.id, withEmail);
      if (!csv) throw notFound('Poll not found');
      await auditRead(
        db,
        request,
        now(),
        withEmail ? 'export.votes-emails' : 'export.votes',
        `poll ${request.params.id}`,
        withEmail ? 'Downloaded the votes CSV with voter e-mails' : 'Downloaded the votes CSV',
      );
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${csv.fileName}"`)
        .send(Readable.from(csv.chunks, { highWaterMark: 1 }));
    },
  );

  // A page of pending or reviewed suggestions; without `limit`, every one (AdminSuggestion[]), streamed.
  api.get(
    '/api/poll-suggestions',
    {
      config: { permission: 'suggestions.read' },
      schema: {
        summary: 'Poll suggestions: with `limit`, a page; without, every one',
        querystring: suggestionsQuery,
        response: { 200: suggestionsAnswer },
      },
    },
    async (request, reply) => {
      const { status, after, limit, topic } = request.query;
      // The suggester's e-mail goes to the owner only (the permission table's `votes.emails`).
      const emails = can(staffOf(request).role, 'votes.emails');
      if (limit !== undefined) {
        const page = await suggestions.page(status ?? 'all', { after, limit, emails, topic });
        if (!page) throw badRequest('There is no such topic.');
        return page;
      }
      return sendJsonStream(reply, jsonArray<AdminSuggestion>(suggestions.all(emails)));
    },
  );

  reads.get('/api/admin/mail-stats', {
    permission: 'polls.read',
    summary: 'Subscribers and the outbox, counted',
    schema: { response: { 200: mailStatsAnswer } },
    read: () => mailStats(),
  });

  change.put('/api/admin/poll-suggestions/:id/status', {
    permission: 'suggestions.write',
    summary: 'Approve or reject a suggestion',
    schema: { params: suggestionIdParams, body: suggestionStatusRequest, response: { 200: confirmation } },
    audit: ({ params: { id }, body: { status } }) => [
      `suggestion.${status === 'approved' ? 'approve' : 'reject'}`,
      status === 'approved' ? 'Approved the suggestion' : 'Rejected the suggestion',
      `suggestion ${id}`,
    ],
    handle: async ({ params: { id }, body: { status } }, audit) => {
      if (!(await suggestions.review(id, status, audit))) throw notFound('Suggestion not found');
      return { message: status === 'approved' ? 'Suggestion approved!' : 'Suggestion rejected' };
    },
  });

  change.delete('/api/admin/poll-suggestions/:id', {
    permission: 'suggestions.write',
    summary: 'Delete a suggestion',
    schema: { params: suggestionIdParams, response: { 200: confirmation } },
    audit: ({ params: { id } }) => ['suggestion.delete', 'Deleted the suggestion', `suggestion ${id}`],
    handle: async ({ params: { id } }, audit) => {
      if (!(await suggestions.remove(id, audit))) throw notFound('Suggestion not found');
      return { message: 'Suggestion deleted!' };
    },
  });
};
