/**
 * The anonymous voter id: 128 random bits in an HttpOnly cookie, so a browser can vote once per
 * poll and see its own choice without anyone signing up. The id says nothing about the person.
 *
 * The cookie carries the id, when it was issued and a MAC of both under a key the site made for
 * itself (`id.issuedAt.mac`): an id the server did not sign is ignored, so nobody can vote under
 * an id they made up, or keep an old cookie and claim it is new. Checking a signed cookie costs
 * one HMAC and no database read. The database keeps the bare id (votes.voter_id,
 * profile_answers.voter_id): the signature lives in the cookie only.
 *
 * Cookies from before signing hold the bare id. Such an id the database knows (it has votes or
 * profile answers) is still this browser's: a read takes it as it is, and a write (a vote, a
 * profile saved) re-issues it signed, keeping the browser's history. The rest of that path,
 * and why it accepts each bare id only once, is in voters/voter-ids.service.ts.
 */
import { createHmac, createSecretKey, randomFillSync, timingSafeEqual, type KeyObject } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../clock.js';
import { readCookie, setCookie } from '../http/cookies.js';

export const VOTER_COOKIE = 'voter_id';

/** 16 random bytes in base64url: 22 characters. */
const VOTER_ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;

/** When the id was issued, in ms since the epoch, base 36: 8 characters until 2059 (10 stay exact). */
const ISSUED_AT_PATTERN = /^[0-9a-z]{1,10}$/;

/** The MAC is HMAC-SHA-256 cut to 128 bits, as many as the id has: 22 characters. */
const MAC_BYTES = 16;

/** `id.issuedAt.mac`: 22 + 1 + 8 + 1 + 22 characters today. Longer values are not read at all. */
const MAX_COOKIE_LENGTH = 22 + 1 + 10 + 1 + 22;

/** Chrome caps cookie lifetimes at 400 days; every vote renews it. */
const VOTER_COOKIE_MAX_AGE_SECONDS = 400 * 24 * 60 * 60;

/** Whose browser this is, as far as the server can tell. */
export interface VoterIdentity {
  /** The bare id, as the database stores it. */
  id: string;
  /** When the server issued the id, ms since the epoch (for a re-issued old id: when the database first saw it). */
  issuedAt: number;
  /** Whether this very request issued the id (the browser sent none the server could take). */
  fresh: boolean;
}

/** Ids from before signing: the database decides whether the server may take one. */
export interface LegacyVoterIds {
  /** When the database first saw this bare id, ms since the epoch; null when it is not to be taken. */
  find(id: string): Promise<number | null>;
  /** The same, for an id about to be re-issued signed: it is marked so (voter-ids.service.ts). */
  reissue(id: string): Promise<number | null>;
}

export interface VoterIdsOptions {
  /** The signing key (the `voter_cookie_key` setting, made once per site). */
  key: Buffer;
  clock: Clock;
  /** Secure cookies: the site is served over https. */
  secureCookies: boolean;
  legacy: LegacyVoterIds;
}

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

/** The id of a voter cookie's value, without checking its signature (tests read it); null if it has none. */
export function voterIdOfCookie(value: string): string | null {
  const id = value.split('.')[0] ?? '';
  return VOTER_ID_PATTERN.test(id) ? id : null;
}

/**
 * How many cookie values an instance remembers as checked. Each open page reads today's poll
 * every 30 s with the same cookie: remembered, a read costs no HMAC (issue 35's profile: the
 * check was 7% of a read's CPU).
 */
const REMEMBERED_COOKIES = 50_000;

/**
 * Signs and checks voter cookies. The key is a KeyObject in a private field, so neither a log
 * line nor an error that includes this object can show it.
 */
export class VoterIds {
  readonly #key: KeyObject;
  /** Cookie values this instance signed or checked, exactly as sent: only the one spelling is taken. */
  readonly #checked = new Map<string, { id: string; issuedAt: number }>();
  readonly clock: Clock;
  readonly secureCookies: boolean;
  readonly legacy: LegacyVoterIds;

  constructor({ key, clock, secureCookies, legacy }: VoterIdsOptions) {
    this.#key = createSecretKey(key);
    this.clock = clock;
    this.secureCookies = secureCookies;
    this.legacy = legacy;
  }

  #mac(idAndTime: string): string {
    return createHmac('sha256', this.#key).update(idAndTime).digest().subarray(0, MAC_BYTES).toString('base64url');
  }

  /** The cookie value for `id`, issued at `issuedAt` (ms since the epoch). */
  sign(id: string, issuedAt: number): string {
    const idAndTime = `${id}.${Math.trunc(issuedAt).toString(36)}`;
    return `${idAndTime}.${this.#mac(idAndTime)}`;
  }

  /** The id and issue time of a cookie value the server signed; null for any other value. */
  verify(value: string): { id: string; issuedAt: number } | null {
    const known = this.#checked.get(value);
    if (known) return known;
    if (value.length > MAX_COOKIE_LENGTH) return null;
    const [id = '', issuedAt = '', mac = '', ...rest] = value.split('.');
    if (rest.length > 0 || !VOTER_ID_PATTERN.test(id) || !ISSUED_AT_PATTERN.test(issuedAt)) return null;
    // The MAC is compared as text, so only the one spelling the server wrote is taken.
    const expected = Buffer.from(this.#mac(`${id}.${issuedAt}`));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    const checked = { id, issuedAt: parseInt(issuedAt, 36) };
    if (this.#checked.size >= REMEMBERED_COOKIES) this.#checked.delete(this.#checked.keys().next().value as string);
    this.#checked.set(value, checked);
    return checked;
  }

  /** A new voter, issued now. */
  issue(): VoterIdentity {
    return { id: newVoterId(), issuedAt: this.clock.now().getTime(), fresh: true };
  }
}

/**
 * This browser's voter, if it sent an id the server signed, or a bare id from before signing
 * that the database knows; null otherwise (no cookie, an id made up, a signature that fails).
 * Reads call it; it sets no cookie.
 */
export async function readVoterId(request: FastifyRequest, voters: VoterIds): Promise<VoterIdentity | null> {
  const value = readCookie(request, VOTER_COOKIE);
  if (value === undefined || value === '') return null;
  const signed = voters.verify(value);
  if (signed) return { ...signed, fresh: false };
  if (!VOTER_ID_PATTERN.test(value)) return null;
  const firstSeen = await voters.legacy.find(value);
  return firstSeen === null ? null : { id: value, issuedAt: firstSeen, fresh: false };
}

/**
 * The voter of this browser, issuing a new id when it sent none the server can take; the
 * cookie is (re)set either way, signed, and lasts another 400 days. A bare id from before
 * signing that the database knows is re-issued signed, the same id.
 */
export async function ensureVoterId(
  request: FastifyRequest,
  reply: FastifyReply,
  voters: VoterIds,
): Promise<VoterIdentity> {
  const value = readCookie(request, VOTER_COOKIE);
  let voter: VoterIdentity | null = null;
  const signed = value === undefined ? null : voters.verify(value);
  if (signed) voter = { ...signed, fresh: false };
  else if (value !== undefined && VOTER_ID_PATTERN.test(value)) {
    const firstSeen = await voters.legacy.reissue(value);
    if (firstSeen !== null) voter = { id: value, issuedAt: firstSeen, fresh: false };
  }
  voter ??= voters.issue();
  setCookie(reply, VOTER_COOKIE, signed && value !== undefined ? value : voters.sign(voter.id, voter.issuedAt), {
    maxAgeSeconds: VOTER_COOKIE_MAX_AGE_SECONDS,
    sameSite: 'Lax',
    secure: voters.secureCookies,
  });
  return voter;
}

/** Makes the browser forget its voter id: its next vote starts a new, unrelated one. */
export function clearVoterId(reply: FastifyReply, secure: boolean): void {
  setCookie(reply, VOTER_COOKIE, '', { maxAgeSeconds: 0, sameSite: 'Lax', secure });
}
