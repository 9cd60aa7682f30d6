/**
 * Structured logs (JSON lines, one per request) that never carry an e-mail address: query
 * values are dropped from logged URLs and anything shaped like an address is masked, in
 * request lines and in error messages alike.
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

/** The URL as logged: the path, and the query's names without their values. */
export function loggableUrl(url: string): string {
  const queryStart = url.indexOf('?');
  const pathname = scrubEmails(queryStart === -1 ? url : url.slice(0, queryStart));
  if (queryStart === -1) return pathname;
  const names = [...new URLSearchParams(url.slice(queryStart + 1)).keys()].map(scrubEmails);
  return `${pathname}?${names.map((name) => `${name}=…`).join('&')}`;
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

/** One line per request, when it completes, instead of Fastify's two. */
export class RequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply): void {
    const line = {
      method: request.method,
      url: loggableUrl(request.url),
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}
