/**
 * Documents that change rarely (the open data, the embeds' pages) are sent with a strong ETag,
 * a hash of their bytes: a client that already has them gets 304 Not Modified and no body.
 */
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

export const etagOf = (body: string) => `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;

/** True when the request's If-None-Match names this ETag (or any, with *). */
export function matchesEtag(request: FastifyRequest, etag: string): boolean {
  const header = request.headers['if-none-match'];
  if (typeof header !== 'string') return false;
  return header.split(',').some((candidate) => {
    const trimmed = candidate.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === etag;
  });
}

/** Sends `body` with its ETag and `cacheControl`, or 304 when the client has it already. */
export function sendWithEtag(
  request: FastifyRequest,
  reply: FastifyReply,
  { body, type, cacheControl = 'no-cache' }: { body: string; type: string; cacheControl?: string },
) {
  const etag = etagOf(body);
  reply.header('etag', etag).header('cache-control', cacheControl);
  if (matchesEtag(request, etag)) return reply.status(304).send();
  return reply.type(type).send(body);
}
