/**
 * What a route tells the API document beyond its zod schemas (`schema.params`, `querystring`,
 * `body`, `response`): a summary, which answers are not JSON, and which limits count it. Every
 * key is optional; a route with none is still in the document, under its method and path.
 *
 * Adding a route's documentation (the one pattern, README "How the code is laid out"):
 *
 *     api.get('/api/things/:id', {
 *       schema: {
 *         summary: 'One thing',
 *         params: thingIdParams,                 // zod, from src/shared/schemas/
 *         response: { 200: thing },              // zod; its z.infer is the type in shared/api.ts
 *       },
 *       config: { limits: ['writes'] },          // only when a limit counts it (openapi/limits.ts)
 *     }, handler);
 */
import type { FastifySchema } from 'fastify';
import type { StaffAction } from '../../shared/staff-permissions.js';

/** A limit that may refuse a call with 429 (documented in openapi/limits.ts). */
export type LimitName = 'writes' | 'subscribe' | 'suggest' | 'push' | 'vote-email' | 'sign-in';

declare module 'fastify' {
  interface FastifySchema {
    /** One line for the reference page's heading of the call. */
    summary?: string;
    /** More, in Markdown-free sentences. */
    description?: string;
    /** Answers that are not JSON, by status: their media type (e.g. `text/html`; none for an empty answer), and what they are. */
    produces?: Record<number, { type?: string; description: string }>;
  }
  interface FastifyContextConfig {
    /** The per-address limits that count this call (the write limit is added by its scope). */
    limits?: LimitName[];
  }
}

/** What the document needs of a registered route. */
export interface RouteEntry {
  method: string;
  url: string;
  schema: FastifySchema | undefined;
  permission: StaffAction | undefined;
  recentSignIn: string | undefined;
  limits: LimitName[];
}
