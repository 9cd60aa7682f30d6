/**
 * The anonymous voter id: 128 random bits in an HttpOnly cookie, so a browser can vote once per
 * poll and see its own choice without anyone signing up. The id says nothing about the person.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

export const VOTER_COOKIE = 'voter_id';

/** 16 random bytes in base64url: 22 characters. */
const VOTER_ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;

/** Chrome caps cookie lifetimes at 400 days; every vote renews it. */
const VOTER_COOKIE_MAX_AGE_SECONDS = 400 * 24 * 60 * 60;

/** The voter id this browser sent, if it is one the server could have issued. */
export function readVoterId(request: FastifyRequest): string | null {
  const value = request.cookies[VOTER_COOKIE];
  return value !== undefined && VOTER_ID_PATTERN.test(value) ? value : null;
}

/** The voter id of this browser, issuing one if it has none; the cookie is (re)set either way. */
export function ensureVoterId(request: FastifyRequest, reply: FastifyReply, secure: boolean): string {
  const voterId = readVoterId(request) ?? randomBytes(16).toString('base64url');
  reply.setCookie(VOTER_COOKIE, voterId, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure,
    maxAge: VOTER_COOKIE_MAX_AGE_SECONDS,
  });
  return voterId;
}
