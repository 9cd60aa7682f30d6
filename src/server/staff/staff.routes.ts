/**
 * The staff calls (issue 27): people and roles, invites, sessions, one's passkeys and password,
 * and the audit log. Behind the same guard as every staff call: a session, this site, and the
 * permission each route names.
 */
import type { FastifyPluginAsync } from 'fastify';
import { Readable } from 'node:stream';
import {
  auditQuery,
  inviteRequest,
  passkeyIdParams,
  passkeyRequest,
  passwordChangeRequest,
  sessionIdParams,
  sessionsQuery,
  staffChangeRequest,
  staffIdParams,
} from '../../shared/schemas.js';
import {
  auditCheck,
  auditPage,
  newInvite,
  passkeyOptions,
  staffInvite,
  staffMember,
  staffPasskey,
  staffSession,
} from '../../shared/schemas/staff-answers.js';
import { confirmation } from '../../shared/schemas/poll-answers.js';
import { z } from '../../shared/zod.js';
import type { Clock } from '../clock.js';
import type { Db } from '../db/connection.js';
import { badRequest, conflict, notFound } from '../http/errors.js';
import { appendAuditAlone, listAudit, verifyAuditChain } from './audit.js';
import { staffApi, staffOf } from './admin-guard.js';
import { staffChanges, staffReads } from './staff-calls.js';
import { refuseCommonPassword } from './admin-auth.routes.js';
import { actorOf, type AdminAuth } from './admin-auth.service.js';
import type { Passkeys } from './passkeys.service.js';
import { listPasskeys } from './passkeys.repository.js';
import type { StaffService } from './staff.service.js';
import { csvCell } from '../http/csv.js';
import { staffLink } from '../../shared/staff-links.js';

const AUDIT_PAGE = 100;

export const staffRoutes: FastifyPluginAsync<{
  auth: AdminAuth;
  staff: StaffService;
  passkeys: Passkeys;
  db: Db;
  clock: Clock;
  publicUrl: string;
}> = async (app, { auth, staff, passkeys, db, clock, publicUrl }) => {
  const api = staffApi(app, auth, publicUrl);
  const reads = staffReads(api);
  const changes = staffChanges(api);

  // People and roles (owner)

  reads.get('/api/admin/staff', {
    permission: 'staff.manage',
    summary: 'Everyone on the staff',
    schema: { response: { 200: z.array(staffMember) } },
    read: () => staff.list(),
  });

  changes.put('/api/admin/staff/:id', {
    permission: 'staff.manage',
    summary: "Change someone's role, or disable them",
    schema: { params: staffIdParams, body: staffChangeRequest, response: { 200: confirmation } },
    handle: async ({ params: { id }, body, staff: by }) => {
      const outcome = await staff.change(by, id, body);
      if (outcome === 'not-found') throw notFound('There is no such person on the staff.');
      if (outcome === 'last-owner')
        throw conflict('The site needs at least one owner. Make someone else an owner first.');
      return { message: outcome === 'unchanged' ? 'Nothing to change.' : 'Saved. Their open sessions have ended.' };
    },
  });

  // Invites (owner). The link is shown to the owner once, to pass on; only its hash is kept.

  reads.get('/api/admin/invites', {
    permission: 'staff.manage',
    summary: 'Invites waiting to be accepted',
    schema: { response: { 200: z.array(staffInvite) } },
    read: () => staff.invites(),
  });

  changes.post('/api/admin/invites', {
    permission: 'staff.manage',
    recentSignIn: 'Inviting someone needs',
    summary: 'Invite someone to the staff',
    schema: { body: inviteRequest, response: { 201: newInvite } },
    handle: async ({ body: { email, role }, staff: by }) => {
      const result = await staff.invite(by, email, role);
      if (result === 'exists') throw conflict('This person is on the staff already.');
      return { ...result.invite, link: staffLink(publicUrl, 'invite', result.token) };
    },
  });

  changes.delete('/api/admin/invites/:id', {
    permission: 'staff.manage',
    summary: 'Withdraw an invite',
    schema: { params: staffIdParams, response: { 200: confirmation } },
    handle: async ({ params: { id }, staff: by }) => {
      if (!(await staff.withdraw(by, id))) throw notFound('There is no such invite waiting.');
      return { message: 'Invite withdrawn.' };
    },
  });

  // Sessions: one's own; the owner's, anyone's.

  reads.get('/api/admin/sessions', {
    permission: 'self',
    summary: "One's own sessions (the owner: anyone's)",
    schema: { querystring: sessionsQuery, response: { 200: z.array(staffSession) } },
    read: ({ query, staff: by }) => staff.sessions(by, query.staff, query.all === 'true'),
  });

  changes.delete('/api/admin/sessions/:id', {
    permission: 'self',
    summary: 'End a session',
    schema: { params: sessionIdParams, response: { 200: confirmation } },
    handle: async ({ params: { id }, staff: by }) => {
      if (!(await staff.endSession(by, id))) throw notFound('There is no such session.');
      return { message: 'Session ended.' };
    },
  });

  // One's own passkeys and password

  reads.get('/api/admin/passkeys', {
    permission: 'self',
    summary: "One's own passkeys",
    schema: { response: { 200: z.array(staffPasskey) } },
    read: ({ staff: by }) => listPasskeys(db, by.id),
  });

  // Adding a passkey, a new password: each makes someone's access last, so each needs a recent sign-in.
  const addingAPasskey = { permission: 'self', recentSignIn: 'Adding a passkey needs' } as const;

  changes.post('/api/admin/passkeys/register/options', {
    ...addingAPasskey,
    summary: 'Options for adding a passkey',
    schema: { response: { 200: passkeyOptions } },
    handle: async ({ staff: by }) => ({ ...(await passkeys.registerOptions(by)) }),
  });

  changes.post('/api/admin/passkeys', {
    ...addingAPasskey,
    summary: 'Add a passkey',
    schema: { body: passkeyRequest, response: { 201: confirmation } },
    handle: async ({ body: { name, response }, staff: by }) => {
      if (!(await passkeys.register(by, name, response)))
        throw badRequest('That passkey could not be added. Please try again.');
      return { message: 'Passkey added.' };
    },
  });

  changes.delete('/api/admin/passkeys/:id', {
    permission: 'self',
    summary: 'Remove a passkey',
    schema: { params: passkeyIdParams, response: { 200: confirmation } },
    handle: async ({ params: { id }, staff: by }) => {
      if (!(await passkeys.remove(by, id))) throw notFound('There is no such passkey.');
      return { message: 'Passkey removed. Your other sessions have ended.' };
    },
  });

  changes.put('/api/admin/password', {
    permission: 'self',
    recentSignIn: 'Changing your password needs',
    summary: "Set one's own password",
    schema: { body: passwordChangeRequest, response: { 200: confirmation } },
    handle: async ({ body: { password }, staff: by }) => {
      refuseCommonPassword(password);
      await staff.setPassword(by, password);
      return { message: 'Password saved. Your other sessions have ended.' };
    },
  });

  // The audit log (owner)

  reads.get('/api/admin/audit', {
    permission: 'audit.read',
    summary: 'The audit log, newest first',
    schema: { querystring: auditQuery, response: { 200: auditPage } },
    read: async ({ query: { actor, action, from, to, before, limit = AUDIT_PAGE } }) => {
      const entries = await listAudit(db, { actorId: actor, action, from, to, before, limit });
      return { entries, next: entries.length === limit ? (entries.at(-1)?.id ?? null) : null };
    },
  });

  reads.get('/api/admin/audit/verify', {
    permission: 'audit.read',
    summary: "Check the audit log's hash chain",
    schema: { response: { 200: auditCheck } },
    read: () => verifyAuditChain(db),
  });

  api.get(
    '/api/admin/audit.csv',
    {
      config: { permission: 'audit.read' },
      schema: {
        summary: 'The audit log as CSV',
        querystring: auditQuery,
        produces: { 200: { type: 'text/csv', description: 'Every row of the audit log, newest first.' } },
      },
    },
    async (request, reply) => {
      const { actor, action, from, to } = request.query;
      await appendAuditAlone(db, clock.now(), actorOf(staffOf(request)), {
        action: 'export.audit',
        target: 'audit log',
        summary: 'Downloaded the audit log as CSV',
      });
      async function* lines() {
        yield '\uFEFFWhen,Who,Role,Action,Target,Summary\r\n';
        let before: number | undefined;
        for (;;) {
          const page = await listAudit(db, { actorId: actor, action, from, to, before, limit: 1000 });
          for (const row of page) {
            const cells = [row.at, row.actor.name, row.actor.role, row.action, row.target, row.summary];
            yield `${cells.map(csvCell).join(',')}\r\n`;
          }
          if (page.length < 1000) return;
          before = page.at(-1)?.id;
        }
      }
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="audit-log.csv"')
        .send(Readable.from(lines(), { highWaterMark: 1 }));
    },
  );
};
