/**
 * Staff notes in the admin API: an editor reads and writes a closed poll's "What we learned".
 * Staff calls like the others (admin/): a session, the permission table, changes only from
 * this site, and the edit audited in its own transaction (notes.service.ts).
 */
import { adminNote } from '../../shared/schemas/topic-answers.js';
import { confirmation } from '../../shared/schemas/poll-answers.js';
import type { FastifyPluginAsync } from 'fastify';
import { noteRequest, pollIdParams } from '../../shared/schemas.js';
import type { Clock } from '../clock.js';
import { conflict, foundOr404, notFound } from '../http/errors.js';
import type { AdminAuth } from '../staff/admin-auth.service.js';
import { staffApi } from '../staff/admin-guard.js';
import { auditedChanges, staffReads } from '../staff/staff-calls.js';
import type { NotesService } from './notes.service.js';

const SAVED = {
  saved: 'Note published.',
  removed: 'Note removed.',
  unchanged: 'Nothing changed.',
} as const;

export const notesRoutes: FastifyPluginAsync<{
  auth: AdminAuth;
  notes: NotesService;
  publicUrl: string;
  clock: Clock;
}> = async (app, { auth, notes, publicUrl, clock }) => {
  const api = staffApi(app, auth, publicUrl);

  staffReads(api).get('/api/admin/polls/:id/note', {
    permission: 'polls.read',
    summary: "A poll's staff note, for the editor",
    schema: { params: pollIdParams, response: { 200: adminNote } },
    read: async ({ params: { id } }) => foundOr404(await notes.forEditor(id), 'Poll not found'),
  });

  auditedChanges(api, () => clock.now()).put('/api/admin/polls/:id/note', {
    permission: 'polls.write',
    summary: "Write, change or remove a closed poll's note",
    schema: { params: pollIdParams, body: noteRequest, response: { 200: confirmation } },
    audit: ({ params: { id }, body: { body } }) => [
      'poll.note',
      body === '' ? 'Removed the note' : `Wrote the note (${body.length} characters)`,
      `poll ${id}`,
    ],
    handle: async ({ params: { id }, body: { body }, staff }, audit) => {
      const outcome = await notes.save({ pollId: id, body, staffId: staff.id }, audit);
      if (outcome === 'not-found') throw notFound('Poll not found');
      if (outcome === 'not-closed') throw conflict('A note can be written once voting on the poll has closed.');
      return { message: SAVED[outcome] };
    },
  });
};
