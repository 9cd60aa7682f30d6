/**
 * The anonymous voter id: 128 random bits in an HttpOnly cookie, so a browser can vote once per
 * poll and see its own choice without anyone signing up. The id says nothing about the person.
 */
import { randomFillSync } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { readCookie, setCookie } from './cookies.js';

export const VOTER_COOKIE = 'voter_id';

/** 16 random bytes in base64url: 22 characters. */
const VOTER_ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;

/** Chrome caps cookie lifetimes at 400 days; every vote renews it. */
const VOTER_COOKIE_MAX_AGE_SECONDS = 400 * 24 * 60 * 60;

/** Random bytes are drawn a page at a time: one system call per 256 new voters, not one each. */
const randomPool = Buffer.alloc(16 * 256);
let randomPoolOffset = randomPool.length;

function newVoterId(): string {
  if (randomPoolOffset === randomPool.length) {
    randomFillSync(randomPool);
    randomPoolOffset = 0;
  }
  const id = randomPool.toString('base64url', randomPoolOffset, randomPoolOffset + 16);
  randomPoolOffset += 16;
  return id;
}

/** The voter id this browser sent, if it is one the server could have issued. */
export function readVoterId(request: FastifyRequest): string | null {
  const value = readCookie(request, VOTER_COOKIE);
  return value !== undefined && VOTER_ID_PATTERN.test(value) ? value : null;
}

/** The voter id of this browser, issuing one if it has none; the cookie is (re)set either way. */
export function ensureVoterId(request: FastifyRequest, reply: FastifyReply, secure: boolean): string {
  const voterId = readVoterId(request) ?? newVoterId();
  setCookie(reply, VOTER_COOKIE, voterId, { maxAgeSeconds: VOTER_COOKIE_MAX_AGE_SECONDS, sameSite: 'Lax', secure });
  return voterId;
}

/** Makes the browser forget its voter id: its next vote starts a new, unrelated one. */
export function clearVoterId(reply: FastifyReply, secure: boolean): void {
  setCookie(reply, VOTER_COOKIE, '', { maxAgeSeconds: 0, sameSite: 'Lax', secure });
}
