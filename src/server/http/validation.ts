/**
 * Route schemas are zod schemas from src/shared: Fastify runs them on params, query and body,
 * and the handler receives the parsed (trimmed, defaulted) values with their types.
 */
import type { FastifySchemaCompiler, FastifyTypeProvider } from 'fastify';
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
