/**
 * What a password guess meets before its password is hashed (issue 34). Counts live in
 * `rate_limits` under keyed hashes (no address, no e-mail), for 15 minutes, shared by every
 * instance, each counted in one atomic statement before the check, so a concurrent burst gets no
 * more checks than the limit:
 *
 * - per network: ADMIN_LOGIN_ATTEMPTS tries (an IPv4 address, an IPv6 /64), and four times as
 *   many per IPv6 /48, since a /48 holds 65,536 /64s;
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
import { integrityBlock, limitAddress } from '../http/client-address.js';

export const SIGN_IN_WINDOW_MS = 15 * 60_000;
/** Failed passwords at one person in the window, as a multiple of ADMIN_LOGIN_ATTEMPTS, that mean an attack. */
export const ATTACK_FACTOR = 4;
/** An IPv6 /48's tries, as a multiple of ADMIN_LOGIN_ATTEMPTS. */
export const WIDE_NETWORK_FACTOR = 4;
const PREFIX = 'sign-in';

export type GuardAnswer = { wait: number } | null;

export function createSignInGuard({
  db,
  keyedHash,
  attempts,
}: {
  db: Db;
  keyedHash: (value: string) => string;
  /** ADMIN_LOGIN_ATTEMPTS. */
  attempts: number;
}) {
  const networkOf = (address: string) => limitAddress(address);
  const keys = {
    network: (address: string) => `${PREFIX}:${keyedHash(networkOf(address))}`,
    /** IPv6 only: an IPv4 /24 is a school or a whole carrier's customers as often as one client. */
    wide: (address: string) =>
      networkOf(address).includes(':') ? `${PREFIX}-48:${keyedHash(integrityBlock(address))}` : null,
    person: (email: string) => `${PREFIX}-person:${keyedHash(email)}`,
    tried: (email: string, address: string) => `${PREFIX}-tried:${keyedHash(`${email}\u0000${networkOf(address)}`)}`,
  };
  const threshold = attempts * ATTACK_FACTOR;

  /** One hit on `key`: null within `max`, else the minutes until its window ends. */
  async function hit(key: string, max: number, now: Date): Promise<GuardAnswer> {
    const counted = await hitRateLimit(db, { key, max, windowMs: SIGN_IN_WINDOW_MS }, now);
    return counted.allowed ? null : { wait: Math.ceil(counted.retryAfterMs / 60_000) };
  }

  return {
    /** A network's try at signing in with a password (any account, or the first owner). */
    async network(address: string, now: Date): Promise<GuardAnswer> {
      const refused = await hit(keys.network(address), attempts, now);
      if (refused) return refused;
      const wide = keys.wide(address);
      return wide ? hit(wide, attempts * WIDE_NETWORK_FACTOR, now) : null;
    },

    /**
     * A network's try at one person's password. While their account is under attack, a network
     * that has tried it already in the window waits: its guess is not checked.
     */
    async person(email: string, address: string, now: Date): Promise<GuardAnswer> {
      const tried = await hitRateLimit(
        db,
        { key: keys.tried(email, address), max: 1, windowMs: SIGN_IN_WINDOW_MS },
        now,
      );
      if (tried.allowed) return null;
      const failures = await countRateLimit(db, keys.person(email), SIGN_IN_WINDOW_MS, now);
      return failures >= threshold ? { wait: Math.ceil(tried.retryAfterMs / 60_000) } : null;
    },

    /** A wrong password for `email`: true when this one put the account under attack. */
    async failed(email: string, now: Date): Promise<boolean> {
      const counted = await hitRateLimit(
        db,
        { key: keys.person(email), max: threshold, windowMs: SIGN_IN_WINDOW_MS },
        now,
      );
      return counted.hits === threshold;
    },

    /** The right password: this network's tries start again (the person's failures stay counted). */
    async succeeded(email: string, address: string): Promise<void> {
      await clearRateLimit(db, keys.network(address));
      await clearRateLimit(db, keys.tried(email, address));
    },

    /** Forgets every count whose window has ended (housekeeping). */
    forgetEnded: (now: Date) => deleteEndedRateLimits(db, PREFIX, new Date(now.getTime() - SIGN_IN_WINDOW_MS)),
  };
}

export type SignInGuard = ReturnType<typeof createSignInGuard>;
