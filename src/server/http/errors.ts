/**
 * Every error leaves the server as JSON `{ message, code }` with the right status. Expected
 * outcomes (bad input, already voted, closed) are HttpErrors with a sentence for the toast and
 * a code for the client to act on; anything else is a fault: logged in full, answered with a
 * 500 that reveals nothing. This file is the one place that writes error bodies.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiError, ErrorCode } from '../../shared/api.js';

type Issue = NonNullable<ApiError['issues']>[number];

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly issues?: Issue[],
  ) {
    super(message);
    this.name = 'HttpError';
  }

  toJSON(): ApiError {
    return { message: this.message, code: this.code, ...(this.issues ? { issues: this.issues } : {}) };
  }
}

export const badRequest = (message: string, issues?: Issue[]) => new HttpError(400, 'validation', message, issues);
export const unauthorized = (message: string) => new HttpError(401, 'unauthorized', message);
export const forbidden = (message: string) => new HttpError(403, 'forbidden', message);
export const notFound = (message: string) => new HttpError(404, 'not-found', message);
/** `value` when there is one; otherwise the call answers 404 with `message`. */
export function foundOr404<T>(value: T | null | undefined, message: string): T {
  if (value === null || value === undefined) throw notFound(message);
  return value;
}
/** 409: a rule refused it; `code` says which (a clash with the schedule by default). */
export const conflict = (message: string, code: ErrorCode = 'conflict') => new HttpError(409, code, message);
export const tooManyRequests = (message: string) => new HttpError(429, 'rate-limited', message);
export const unavailable = (message: string) => new HttpError(503, 'unavailable', message);

/** The code of an error whose status is all that is known of it (Fastify's own, a plugin's). */
export function codeOfStatus(status: number): ErrorCode {
  const codes: Record<number, ErrorCode> = {
    401: 'unauthorized',
    403: 'forbidden',
    404: 'not-found',
    409: 'conflict',
    429: 'rate-limited',
    503: 'unavailable',
  };
  return codes[status] ?? (status >= 500 ? 'internal' : 'bad-request');
}

/** Fastify's own 4xx errors, reworded for people. */
const FRAMEWORK_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty; send a JSON object.',
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request body is too large.',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Send the request body as JSON (Content-Type: application/json).',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The Content-Length header does not match the body.',
  FST_ERR_CTP_INVALID_TYPE: 'The Content-Type header is not valid.',
  FST_ERR_CTP_EMPTY_TYPE: 'The Content-Type header is empty.',
  FST_ERR_BAD_URL: 'The address is not valid.',
  FST_ERR_MAX_PARAM_LENGTH: 'The address is too long.',
};

/**
 * For errors the router raises before any route or hook runs (an undecodable or overlong
 * address): the same JSON `{ message }`, without echoing the address back.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const status = error.statusCode ?? 400;
  request.log.info({ code: error.code, status }, 'request refused');
  const body: ApiError = {
    message: FRAMEWORK_MESSAGES[error.code] ?? 'The request was not valid.',
    code: codeOfStatus(status),
  };
  void reply.status(status).send(body);
}

export const INTERNAL_ERROR_MESSAGE = 'Something went wrong on our side. Please try again in a moment.';

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler<FastifyError | HttpError>((error, request, reply) => {
    const status = error.statusCode ?? 500;
    if (error instanceof HttpError) return reply.status(status).send(error.toJSON());
    if (status >= 400 && status < 500) {
      const code = 'code' in error ? error.code : undefined;
      const message = (code && FRAMEWORK_MESSAGES[code]) ?? (error.message || 'The request was not valid.');
      request.log.info({ code, status }, 'request refused');
      return reply.status(status).send({ message, code: codeOfStatus(status) } satisfies ApiError);
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ message: INTERNAL_ERROR_MESSAGE, code: 'internal' } satisfies ApiError);
  });
}
