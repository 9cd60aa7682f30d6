/**
 * A staff call that changes something and writes its audit row in the change's own transaction,
 * declared by what differs from every other such call: its permission, summary, schemas, the
 * audit entry (as a function of the call) and what it does. The route is registered on the
 * guarded instance of `staffApi`, with the same `config` and `schema` a hand-written one has, so
 * the permission table and the API document see no difference.
 */
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { StaffAction } from '../../shared/staff-permissions.js';
import type { SignedIn } from './admin-auth.service.js';
import { auditOf, staffOf, type staffApi } from './admin-guard.js';
import type { AuditWrite } from './audit.js';

interface Schemas {
  params?: z.ZodType;
  body?: z.ZodType;
  /** One answer: 200, or 201 for a call that creates something (the reply's status follows). */
  response: { 200: z.ZodType } | { 201: z.ZodType };
}

type Parsed<T> = T extends z.ZodType ? z.output<T> : undefined;
type Answer<R> = R extends { 200: infer A extends z.ZodType } | { 201: infer A extends z.ZodType } ? z.input<A> : never;

/** What a call's own code sees: its parsed params and body, and who is signed in. */
export interface StaffCall<S extends Schemas> {
  params: Parsed<S['params']>;
  body: Parsed<S['body']>;
  staff: SignedIn;
}

/** The audit log's action, summary and target (the service may name the target it learns). */
export type AuditEntry = [action: string, summary: string, target: string];

export interface AuditedChange<S extends Schemas> {
  permission: StaffAction;
  summary: string;
  schema: S;
  audit: (call: StaffCall<S>) => AuditEntry;
  /** Does the change, writing `audit` in its transaction; throws an HttpError to refuse. */
  handle: (call: StaffCall<S>, audit: AuditWrite) => Promise<Answer<S['response']>>;
}

/** `put`, `post` and `delete` of audited staff calls on a staff plugin's guarded instance. */
export function auditedChanges(api: ReturnType<typeof staffApi>, now: () => Date) {
  const declare =
    (method: 'POST' | 'PUT' | 'DELETE') =>
    <S extends Schemas>(url: string, { permission, summary, schema, audit, handle }: AuditedChange<S>) => {
      const { params, body, response } = schema;
      const status = 201 in response ? 201 : 200;
      api.route({
        method,
        url,
        config: { permission },
        schema: { summary, ...(params && { params }), ...(body && { body }), response },
        handler: async (request: FastifyRequest, reply) => {
          const call = { params: request.params, body: request.body, staff: staffOf(request) } as StaffCall<S>;
          const answer = await handle(call, auditOf(request, now)(...audit(call)));
          reply.status(status);
          return answer;
        },
      });
    };
  return { post: declare('POST'), put: declare('PUT'), delete: declare('DELETE') };
}
