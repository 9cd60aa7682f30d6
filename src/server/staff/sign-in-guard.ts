/**
 * What a password guess meets before its password is hashed (issue 34). Counts live in
 * `rate_limits` under keyed hashes (no address, no e-mail), for 15 minutes, shared by every
 * instance, each counted in one atomic statement before the check, so a concurrent burst gets no
 * more checks than the limit:
 *
 * - per network: ADMIN_LOGIN_ATTEMPTS tries (an IPv4 address, an IPv6 /64), and WIDE_TIER_FACTOR
 *   times as many per IPv6 /48, since a /48 holds 65,536 /64s (http/address-limits.ts);
 * - per person, never a refusal: failed passwords at one e-mail from every network together are
 *   counted, and past four times ADMIN_LOGIN_ATTEMPTS the account is under attack. Then each
 *   network gets one try at it per window: a guesser needs a new network for every guess, while
 *   the person, from a network that has not been guessing, signs in as ever. Passkeys and
 *   one-time links never meet this guard. Nobody can lock an account by guessing at it.
 *
 * Failures are counted, not logged: no row of the append-only audit log per guess.
 */
import type { Db } from '../db/connection.js';
import { clearRateLimit, countRateLimit, deleteEndedRateLimits, hitRateLimit } from '../db/rate-limits.js';
import { addressLimit, clearAddressLimit, hitAddressLimit, type KeyedHash } from '../http/address-limits.js';
import type { CountReport } from '../http/limit-headers.js';
import { limitAddress } from '../http/client-address.js';

export const SIGN_IN_WINDOW_MS = 15 * 60_000;
/** Failed passwords at one person in the window, as a multiple of ADMIN_LOGIN_ATTEMPTS, that mean an attack. */
export const ATTACK_FACTOR = 4;
const PREFIX = 'sign-in';

export type GuardAnswer = { wait: number } | null;

export function createSignInGuard({
  db,
  keyedHash,
  attempts,
}: {
  db: Db;
  keyedHash: KeyedHash;
  /** ADMIN_LOGIN_ATTEMPTS. */
  attempts: number;
}) {
  const keys = {
    /** The network's tries, and its /48's (the site's rule for every per-address limit). */
    network: (address: string) =>
      addressLimit(keyedHash, { kind: PREFIX, address, max: attempts, windowMs: SIGN_IN_WINDOW_MS }),
    person: async (email: string) => `${PREFIX}-person:${await keyedHash(email)}`,
    tried: async (email: string, address: string) =>
      `${PREFIX}-tried:${await keyedHash(`${email}\u0000${limitAddress(address)}`)}`,
  };
  const threshold = attempts * ATTACK_FACTOR;

  return {
    /** A network's try at signing in with a password (any account, or the first owner). */
    async network(address: string, now: Date, report?: CountReport): Promise<GuardAnswer> {
      const counted = await hitAddressLimit(db, await keys.network(address), now, report);
      return counted.allowed ? null : { wait: Math.ceil(counted.retryAfterMs / 60_000) };
    },

    /**
     * A network's try at one person's password. While their account is under attack, a network
     * that has tried it already in the window waits: its guess is not checked.
     */
    async person(email: string, address: string, now: Date): Promise<GuardAnswer> {
      const tried = await hitRateLimit(
        db,
        { key: await keys.tried(email, address), max: 1, windowMs: SIGN_IN_WINDOW_MS },
        now,
      );
      if (tried.allowed) return null;
      const failures = await countRateLimit(db, await keys.person(email), SIGN_IN_WINDOW_MS, now);
      return failures >= threshold ? { wait: Math.ceil(tried.retryAfterMs / 60_000) } : null;
    },

    /** A wrong password for `email`: true when this one put the account under attack. */
    async failed(email: string, now: Date): Promise<boolean> {
      const counted = await hitRateLimit(
        db,
        { key: await keys.person(email), max: threshold, windowMs: SIGN_IN_WINDOW_MS },
        now,
      );
      return counted.hits === threshold;
    },

    /** The right password: this network's tries start again (the person's failures stay counted). */
    async succeeded(email: string, address: string): Promise<void> {
      await clearAddressLimit(db, await keys.network(address));
      await clearRateLimit(db, await keys.tried(email, address));
    },

    /** Forgets every count whose window has ended (housekeeping). */
    forgetEnded: (now: Date) => deleteEndedRateLimits(db, PREFIX, new Date(now.getTime() - SIGN_IN_WINDOW_MS)),
  };
}

export type SignInGuard = ReturnType<typeof createSignInGuard>;
