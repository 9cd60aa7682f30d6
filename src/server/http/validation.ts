/**
 * Route schemas are zod schemas from src/shared: Fastify runs them on params, query and body,
 * and the handler receives the parsed (trimmed, defaulted) values with their types.
 */
import { Readable } from 'node:stream';
import type { FastifyReply, FastifySchemaCompiler, FastifyTypeProvider } from 'fastify';
import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import type { z } from 'zod';
import { badRequest } from './errors.js';

export interface ZodTypeProvider extends FastifyTypeProvider {
  validator: this['schema'] extends z.ZodType ? z.output<this['schema']> : unknown;
  serializer: this['schema'] extends z.ZodType ? z.input<this['schema']> : unknown;
}

export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema }) =>
  (data) => {
    const result = schema.safeParse(data);
    if (result.success) return { value: result.data };
    const issues = result.error.issues.map((issue) => ({
      path: issue.path.map(String).join('.'),
      message: issue.message,
    }));
    // The first problem is the toast; the list is there for forms that mark each field.
    return { error: badRequest(issues[0]?.message ?? 'The request was not valid.', issues) };
  };

/**
 * Answers declared with a zod `response` schema are written with JSON.stringify, as before any
 * was declared: the schema is the contract (the API document, and every route test checks its
 * answers against it: testing/contract.ts), not a second pass over every answer. Answers sent
 * as a ready JSON string (today's poll, from its cache) skip serialization altogether.
 */
export const zodSerializerCompiler: FastifySerializerCompiler<z.ZodType> = () => (data) => JSON.stringify(data);

/**
 * Sends JSON already written (a cached string) as the answer: no serializer runs, and the
 * route's `response` schema, which the string must match, is there for the API document and
 * the route tests (docs/performance.md: today's poll is served this way on purpose).
 */
export function sendJsonText(reply: FastifyReply, json: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(json);
}

/**
 * Sends a JSON answer written a piece at a time (a long list, page by page): as with
 * sendJsonText, no serializer runs; the route's `response` schema is what the whole must match.
 */
export function sendJsonStream(reply: FastifyReply, pieces: AsyncIterable<string>): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(Readable.from(pieces, { highWaterMark: 1 }));
}
