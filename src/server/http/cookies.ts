/**
 * The site's two cookies (the voter id and the staff session) hold base64url values, so there
 * is nothing to escape: they are read and written here, only where needed, rather than by a
 * cookie plugin hooked into every request.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

export function readCookie(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const separator = part.indexOf('=');
    if (separator !== -1 && part.slice(0, separator).trim() === name) return part.slice(separator + 1).trim();
  }
  return undefined;
}

export interface CookieAttributes {
  maxAgeSeconds: number;
  sameSite: 'Lax' | 'Strict';
  secure: boolean;
}

export function setCookie(
  reply: FastifyReply,
  name: string,
  value: string,
  { maxAgeSeconds, sameSite, secure }: CookieAttributes,
) {
  const attributes = [`Max-Age=${maxAgeSeconds}`, 'Path=/', 'HttpOnly', `SameSite=${sameSite}`];
  if (secure) attributes.push('Secure');
  reply.header('set-cookie', `${name}=${value}; ${attributes.join('; ')}`);
}
