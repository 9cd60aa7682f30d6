/**
 * The staff calls (issue 27): people and roles, invites, sessions, one's passkeys and password,
 * and the audit log. Behind the same guard as every staff call: a session, this site, and the
 * permission each route names.
 */
import type { FastifyPluginAsync } from 'fastify';
import { Readable } from 'node:stream';
import type {
  AuditCheck,
  AuditPage,
  Confirmation,
  NewInvite,
  StaffInvite,
  StaffMember,
  StaffPasskey,
  StaffSession,
} from '../../shared/api.js';
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

  // People and roles (owner)

  api.get(
    '/api/admin/staff',
    {
      config: { permission: 'staff.manage' },
      schema: { summary: 'Everyone on the staff', response: { 200: z.array(staffMember) } },
    },
    async (): Promise<StaffMember[]> => staff.list(),
  );

  api.put(
    '/api/admin/staff/:id',
    {
      config: { permission: 'staff.manage' },
      schema: {
        summary: "Change someone's role, or disable them",
        params: staffIdParams,
        body: staffChangeRequest,
        response: { 200: confirmation },
      },
    },
    async (request): Promise<Confirmation> => {
      const outcome = await staff.change(staffOf(request), request.params.id, request.body);
      if (outcome === 'not-found') throw notFound('There is no such person on the staff.');
      if (outcome === 'last-owner')
        throw conflict('The site needs at least one owner. Make someone else an owner first.');
      return { message: outcome === 'unchanged' ? 'Nothing to change.' : 'Saved. Their open sessions have ended.' };
    },
  );

  // Invites (owner). The link is shown to the owner once, to pass on; only its hash is kept.

  api.get(
    '/api/admin/invites',
    {
      config: { permission: 'staff.manage' },
      schema: { summary: 'Invites waiting to be accepted', response: { 200: z.array(staffInvite) } },
    },
    async (): Promise<StaffInvite[]> => staff.invites(),
  );

  api.post(
    '/api/admin/invites',
    {
      config: { permission: 'staff.manage', recentSignIn: 'Inviting someone needs' },
      schema: { summary: 'Invite someone to the staff', body: inviteRequest, response: { 201: newInvite } },
    },
    async (request, reply): Promise<NewInvite> => {
      const result = await staff.invite(staffOf(request), request.body.email, request.body.role);
      if (result === 'exists') throw conflict('This person is on the staff already.');
      reply.status(201);
      return { ...result.invite, link: staffLink(publicUrl, 'invite', result.token) };
    },
  );

  api.delete(
    '/api/admin/invites/:id',
    {
      config: { permission: 'staff.manage' },
      schema: { summary: 'Withdraw an invite', params: staffIdParams, response: { 200: confirmation } },
    },
    async (request): Promise<Confirmation> => {
      if (!(await staff.withdraw(staffOf(request), request.params.id)))
        throw notFound('There is no such invite waiting.');
      return { message: 'Invite withdrawn.' };
    },
  );

  // Sessions: one's own; the owner's, anyone's.

  api.get(
    '/api/admin/sessions',
    {
      config: { permission: 'self' },
      schema: {
        summary: "One's own sessions (the owner: anyone's)",
        querystring: sessionsQuery,
        response: { 200: z.array(staffSession) },
      },
    },
    async (request): Promise<StaffSession[]> =>
      staff.sessions(staffOf(request), request.query.staff, request.query.all === 'true'),
  );

  api.delete(
    '/api/admin/sessions/:id',
    {
      config: { permission: 'self' },
      schema: { summary: 'End a session', params: sessionIdParams, response: { 200: confirmation } },
    },
    async (request): Promise<Confirmation> => {
      if (!(await staff.endSession(staffOf(request), request.params.id))) throw notFound('There is no such session.');
      return { message: 'Session ended.' };
    },
  );

  // One's own passkeys and password

  api.get(
    '/api/admin/passkeys',
    {
      config: { permission: 'self' },
      schema: { summary: "One's own passkeys", response: { 200: z.array(staffPasskey) } },
    },
    async (request): Promise<StaffPasskey[]> => listPasskeys(db, staffOf(request).id),
  );

  // Adding a passkey, a new password: each makes someone's access last, so each needs a recent sign-in.
  const addingAPasskey = { permission: 'self', recentSignIn: 'Adding a passkey needs' } as const;

  api.post(
    '/api/admin/passkeys/register/options',
    {
      config: addingAPasskey,
      schema: { summary: 'Options for adding a passkey', response: { 200: passkeyOptions } },
    },
    async (request) => ({ ...(await passkeys.registerOptions(staffOf(request))) }),
  );

  api.post(
    '/api/admin/passkeys',
    {
      config: addingAPasskey,
      schema: { summary: 'Add a passkey', body: passkeyRequest, response: { 201: confirmation } },
    },
    async (request, reply): Promise<Confirmation> => {
      if (!(await passkeys.register(staffOf(request), request.body.name, request.body.response)))
        throw badRequest('That passkey could not be added. Please try again.');
      reply.status(201);
      return { message: 'Passkey added.' };
    },
  );

  api.delete(
    '/api/admin/passkeys/:id',
    {
      config: { permission: 'self' },
      schema: { summary: 'Remove a passkey', params: passkeyIdParams, response: { 200: confirmation } },
    },
    async (request): Promise<Confirmation> => {
      if (!(await passkeys.remove(staffOf(request), request.params.id))) throw notFound('There is no such passkey.');
      return { message: 'Passkey removed. Your other sessions have ended.' };
    },
  );

  api.put(
    '/api/admin/password',
    {
      config: { permission: 'self', recentSignIn: 'Changing your password needs' },
      schema: { summary: "Set one's own password", body: passwordChangeRequest, response: { 200: confirmation } },
    },
    async (request): Promise<Confirmation> => {
      refuseCommonPassword(request.body.password);
      await staff.setPassword(staffOf(request), request.body.password);
      return { message: 'Password saved. Your other sessions have ended.' };
    },
  );

  // The audit log (owner)

  api.get(
    '/api/admin/audit',
    {
      config: { permission: 'audit.read' },
      schema: { summary: 'The audit log, newest first', querystring: auditQuery, response: { 200: auditPage } },
    },
    async (request): Promise<AuditPage> => {
      const { actor, action, from, to, before, limit = AUDIT_PAGE } = request.query;
      const entries = await listAudit(db, { actorId: actor, action, from, to, before, limit });
      return { entries, next: entries.length === limit ? (entries.at(-1)?.id ?? null) : null };
    },
  );

  api.get(
    '/api/admin/audit/verify',
    {
      config: { permission: 'audit.read' },
      schema: { summary: "Check the audit log's hash chain", response: { 200: auditCheck } },
    },
    async (): Promise<AuditCheck> => verifyAuditChain(db),
  );

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
