/**
 * Staff sign-in, on the server. One password (configured, or generated once and printed), a
 * session per sign-in kept in the database so every instance honours it, ended by sign-out,
 * by idleness or by age. Attempts are throttled per client address: each is counted, in one
 * atomic statement shared by every instance, before its password is checked, so a burst of
 * concurrent guesses gets no more checks than the limit allows.
 */
import { randomBytes } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Db } from '../db/connection.js';
import { clearRateLimit, hitRateLimit } from '../db/rate-limits.js';
import { limitAddress } from '../http/client-address.js';
import { hashSecretToken, newSecretToken } from '../db/secret-tokens.js';
import {
  deleteEndedSessions,
  deleteSession,
  findSession,
  insertSession,
  settingOrInsert,
  touchSession,
} from './admin-auth.repository.js';
import { generatePassword, hashPassword, verifyPassword } from './password.js';

const FAILURE_WINDOW_MS = 15 * 60_000;
/** Seen-at is written at most this often, not on every request. */
const TOUCH_INTERVAL_MS = 60_000;

/**
 * The password hash to check sign-ins against. ADMIN_PASSWORD wins; without it the site makes
 * a strong password on its first start, keeps only the hash, and hands the password to
 * `announce` that one time (several instances starting together agree on one).
 */
export async function adminPasswordHash(db: Db, configured: string | undefined, announce: (password: string) => void) {
  if (configured !== undefined) return hashPassword(configured);
  const password = generatePassword();
  const stored = await settingOrInsert(db, 'admin_password_hash', await hashPassword(password));
  if (stored.inserted) announce(password);
  return stored.value;
}

export type SignInResult =
  | { outcome: 'signed-in'; token: string; maxAgeSeconds: number }
  | { outcome: 'wrong-password' }
  | { outcome: 'throttled'; retryAfterMinutes: number };

export interface AdminAuthDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'adminSessionIdleMinutes' | 'adminSessionMaxHours' | 'adminLoginAttempts'>;
  passwordHash: string;
  /** Keyed hash of a client address: counted addresses are only ever keyed hashes. */
  keyedHash: (value: string) => string;
}

/** The key of the site's keyed hashes, made on its first start and shared by every instance. */
export async function addressHashKey(db: Db): Promise<string> {
  return (await settingOrInsert(db, 'address_hash_key', randomBytes(32).toString('base64'))).value;
}

export function createAdminAuth({ db, clock, config, passwordHash, keyedHash }: AdminAuthDeps) {
  const idleMs = config.adminSessionIdleMinutes * 60_000;
  const maxMs = config.adminSessionMaxHours * 3_600_000;

  return {
    async signIn(password: string, address: string): Promise<SignInResult> {
      const now = clock.now();
      const limit = {
        key: `sign-in:${keyedHash(limitAddress(address))}`,
        max: config.adminLoginAttempts,
        windowMs: FAILURE_WINDOW_MS,
      };
      // Counted first: concurrent guesses each see the count with the others in it. Refused
      // before the slow hash, so a flood of guesses costs the server little.
      const attempt = await hitRateLimit(db, limit, now);
      if (!attempt.allowed)
        return { outcome: 'throttled', retryAfterMinutes: Math.ceil(attempt.retryAfterMs / 60_000) };
      if (!(await verifyPassword(password, passwordHash))) return { outcome: 'wrong-password' };
      await clearRateLimit(db, limit.key);
      await deleteEndedSessions(db, now.toISOString(), new Date(now.getTime() - idleMs).toISOString());
      // Always a new token: a session id known before sign-in is worth nothing after it.
      const token = newSecretToken();
      await insertSession(db, hashSecretToken(token), now.toISOString(), new Date(now.getTime() + maxMs).toISOString());
      return { outcome: 'signed-in', token, maxAgeSeconds: maxMs / 1000 };
    },

    /** Forgets sessions that have ended (housekeeping). */
    async purgeEndedSessions(): Promise<void> {
      const now = clock.now();
      await deleteEndedSessions(db, now.toISOString(), new Date(now.getTime() - idleMs).toISOString());
    },

    /** Whether `token` is a live session; using it keeps it alive. */
    async isSignedIn(token: string | undefined): Promise<boolean> {
      if (!token) return false;
      const now = clock.now().getTime();
      const session = await findSession(db, hashSecretToken(token));
      if (!session) return false;
      const lastSeen = new Date(session.lastSeenAt).getTime();
      if (new Date(session.expiresAt).getTime() <= now || lastSeen + idleMs <= now) {
        await deleteSession(db, hashSecretToken(token));
        return false;
      }
      if (now - lastSeen >= TOUCH_INTERVAL_MS)
        await touchSession(db, hashSecretToken(token), new Date(now).toISOString());
      return true;
    },

    async signOut(token: string | undefined): Promise<void> {
      if (token) await deleteSession(db, hashSecretToken(token));
    },
  };
}

export type AdminAuth = ReturnType<typeof createAdminAuth>;
