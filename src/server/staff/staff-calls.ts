/**
 * How a staff call is declared: by what differs from every other one (its permission, summary,
 * schemas and what it does), on a staff plugin's guarded instance (`staffApi`), with the same
 * `config` and `schema` a hand-written route has, so the permission table and the API document
 * see no difference. Reads that answer JSON (`staffReads`); changes audited by the route, whose
 * audit entry is a function of the call, written in the change's own transaction
 * (`auditedChanges`); staff identity's changes, whose service writes the audit row with the
 * actor it is given (`staffChanges`). A call that streams or sends a file writes its reply
 * itself (`api.get`).
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

/** A staff change whose service writes the audit row itself (staff identity's calls know the actor). */
export interface StaffChange<S extends Schemas> {
  permission: StaffAction;
  /** For a change that makes access last: the start of the sentence asking for a recent sign-in. */
  recentSignIn?: string;
  summary: string;
  schema: S;
  /** Does the change; throws an HttpError to refuse. */
  handle: (call: StaffCall<S>) => Promise<Answer<S['response']>>;
}

export interface AuditedChange<S extends Schemas> extends Omit<StaffChange<S>, 'handle'> {
  audit: (call: StaffCall<S>) => AuditEntry;
  /** Does the change, writing `audit` in its transaction; throws an HttpError to refuse. */
  handle: (call: StaffCall<S>, audit: AuditWrite) => Promise<Answer<S['response']>>;
}

type Method = 'POST' | 'PUT' | 'DELETE';

function declareChange<S extends Schemas>(
  api: ReturnType<typeof staffApi>,
  method: Method,
  url: string,
  { permission, recentSignIn, summary, schema }: Omit<StaffChange<S>, 'handle'>,
  handle: (request: FastifyRequest, call: StaffCall<S>) => Promise<unknown>,
) {
  const { params, body, response } = schema;
  const status = 201 in response ? 201 : 200;
  api.route({
    method,
    url,
    config: { permission, ...(recentSignIn && { recentSignIn }) },
    schema: { summary, ...(params && { params }), ...(body && { body }), response },
    handler: async (request: FastifyRequest, reply) => {
      const call = { params: request.params, body: request.body, staff: staffOf(request) } as StaffCall<S>;
      const answer = await handle(request, call);
      reply.status(status);
      return answer;
    },
  });
}

/** `put`, `post` and `delete` of staff calls audited by the route. */
export function auditedChanges(api: ReturnType<typeof staffApi>, now: () => Date) {
  const declare =
    (method: Method) =>
    <S extends Schemas>(url: string, change: AuditedChange<S>) =>
      declareChange(api, method, url, change, (request, call) =>
        change.handle(call, auditOf(request, now)(...change.audit(call))),
      );
  return { post: declare('POST'), put: declare('PUT'), delete: declare('DELETE') };
}

/** `put`, `post` and `delete` of staff calls whose service audits them. */
export function staffChanges(api: ReturnType<typeof staffApi>) {
  const declare =
    (method: Method) =>
    <S extends Schemas>(url: string, change: StaffChange<S>) =>
      declareChange(api, method, url, change, (_request, call) => change.handle(call));
  return { post: declare('POST'), put: declare('PUT'), delete: declare('DELETE') };
}

interface ReadSchemas {
  params?: z.ZodType;
  querystring?: z.ZodType;
  response: { 200: z.ZodType };
}

/** What a read's own code sees: its parsed params and query, and who is signed in. */
export interface StaffQuery<S extends ReadSchemas> {
  params: Parsed<S['params']>;
  query: Parsed<S['querystring']>;
  staff: SignedIn;
}

/** A staff call that reads and answers JSON. */
export interface StaffRead<S extends ReadSchemas> {
  permission: StaffAction;
  summary: string;
  schema: S;
  read: (call: StaffQuery<S>) => Promise<z.input<S['response'][200]>>;
}

/** `get` of staff calls whose answer is one JSON value. */
export function staffReads(api: ReturnType<typeof staffApi>) {
  return {
    get: <S extends ReadSchemas>(url: string, { permission, summary, schema, read }: StaffRead<S>) => {
      const { params, querystring, response } = schema;
      api.route({
        method: 'GET',
        url,
        config: { permission },
        schema: { summary, ...(params && { params }), ...(querystring && { querystring }), response },
        handler: (request: FastifyRequest) =>
          read({ params: request.params, query: request.query, staff: staffOf(request) } as StaffQuery<S>),
      });
    },
  };
}
