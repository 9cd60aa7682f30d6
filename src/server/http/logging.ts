/**
 * Structured logs (JSON lines, one per request) that never carry an e-mail address or a client's
 * IP address: the query is dropped from logged URLs, anything shaped like an e-mail address is
 * masked, in request lines and in error messages alike, and no line names the client.
 */
import { LogController, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import type { LogLevel } from '../config.js';

/** Where log lines go instead of stdout (tests read them). */
export interface LogStream {
  write(line: string): void;
}

// Matches plain and URL-encoded addresses (%40 is "@").
const EMAIL_LIKE = /[^\s"'<>(),;:/?&=]+(@|%40)[^\s"'<>(),;:/?&=]+/gi;

export function scrubEmails(text: string): string {
  return text.replace(EMAIL_LIKE, '[email]');
}

/** The URL as logged: the path, and `?…` where a query was (never the query itself). */
export function loggableUrl(url: string): string {
  const queryStart = url.indexOf('?');
  const pathname = scrubEmails(queryStart === -1 ? url : url.slice(0, queryStart));
  return queryStart === -1 ? pathname : `${pathname}?…`;
}

export function loggerOptions(level: LogLevel, stream?: LogStream): FastifyServerOptions['logger'] {
  return {
    level,
    ...(stream ? { stream } : {}),
    serializers: {
      req: (request: FastifyRequest) => ({ method: request.method, url: loggableUrl(request.url) }),
      err: (error: Error & { code?: unknown }) => ({
        type: error.name,
        code: error.code,
        message: scrubEmails(error.message),
        stack: scrubEmails(error.stack ?? ''),
      }),
    },
  };
}

const DEBUG_LEVELS = new Set(['debug', 'trace']);

/** Requests slower than this are logged whatever their outcome. */
const SLOW_REQUEST_MS = 1000;

/**
 * One line per completed request instead of Fastify's two. Refused, failed and slow requests
 * log at info; quick successes at debug, because at info a line for every request costs about
 * a quarter of the server's throughput (LOG_LEVEL=debug turns them on; a load balancer usually
 * keeps access logs anyway).
 */
export class RequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const status = reply.statusCode;
    const ms = reply.elapsedTime;
    const quiet = !error && status < 400 && ms < SLOW_REQUEST_MS;
    if (quiet && !DEBUG_LEVELS.has(reply.log.level)) return;
    const line = { method: request.method, url: loggableUrl(request.url), status, ms: Math.round(ms * 10) / 10 };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else if (quiet) reply.log.debug(line, 'request completed');
    else reply.log.info(line, 'request completed');
  }
}
