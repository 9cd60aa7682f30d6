/**
 * Staff sign-in, on the server. One password (configured, or generated once and printed), a
 * session per sign-in kept in the database so every instance honours it, ended by sign-out,
 * by idleness or by age. Failed attempts are throttled per client address.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Db } from '../db/connection.js';
import {
  clearFailures,
  deleteEndedSessions,
  deleteSession,
  findFailures,
  findSession,
  insertSession,
  recordFailure,
  settingOrInsert,
  touchSession,
} from './admin-auth.repository.js';
import { generatePassword, hashPassword, verifyPassword } from './password.js';

const FAILURE_WINDOW_MS = 15 * 60_000;
/** Seen-at is written at most this often, not on every request. */
const TOUCH_INTERVAL_MS = 60_000;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

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
  /** Key for hashing client addresses: kept addresses are only ever keyed hashes. */
  addressKey: string;
}

export async function addressHashKey(db: Db): Promise<string> {
  return (await settingOrInsert(db, 'address_hash_key', randomBytes(32).toString('base64'))).value;
}

export function createAdminAuth({ db, clock, config, passwordHash, addressKey }: AdminAuthDeps) {
  const idleMs = config.adminSessionIdleMinutes * 60_000;
  const maxMs = config.adminSessionMaxHours * 3_600_000;
  const addressHash = (address: string) => createHmac('sha256', addressKey).update(address).digest('hex');

  return {
    async signIn(password: string, address: string): Promise<SignInResult> {
      const now = clock.now();
      const key = addressHash(address);
      const failures = await findFailures(db, key);
      const windowEnds = failures ? new Date(failures.windowStartedAt).getTime() + FAILURE_WINDOW_MS : 0;
      // Checked before the slow hash, so a flood of guesses costs the server little.
      if (failures && failures.failures >= config.adminLoginAttempts && windowEnds > now.getTime()) {
        return { outcome: 'throttled', retryAfterMinutes: Math.ceil((windowEnds - now.getTime()) / 60_000) };
      }
      if (!(await verifyPassword(password, passwordHash))) {
        await recordFailure(db, key, now.toISOString(), new Date(now.getTime() - FAILURE_WINDOW_MS).toISOString());
        return { outcome: 'wrong-password' };
      }
      await clearFailures(db, key);
      await deleteEndedSessions(db, now.toISOString(), new Date(now.getTime() - idleMs).toISOString());
      // Always a new token: a session id known before sign-in is worth nothing after it.
      const token = randomBytes(32).toString('base64url');
      await insertSession(db, hashToken(token), now.toISOString(), new Date(now.getTime() + maxMs).toISOString());
      return { outcome: 'signed-in', token, maxAgeSeconds: maxMs / 1000 };
    },

    /** Whether `token` is a live session; using it keeps it alive. */
    async isSignedIn(token: string | undefined): Promise<boolean> {
      if (!token) return false;
      const now = clock.now().getTime();
      const session = await findSession(db, hashToken(token));
      if (!session) return false;
      const lastSeen = new Date(session.lastSeenAt).getTime();
      if (new Date(session.expiresAt).getTime() <= now || lastSeen + idleMs <= now) {
        await deleteSession(db, hashToken(token));
        return false;
      }
      if (now - lastSeen >= TOUCH_INTERVAL_MS) await touchSession(db, hashToken(token), new Date(now).toISOString());
      return true;
    },

    async signOut(token: string | undefined): Promise<void> {
      if (token) await deleteSession(db, hashToken(token));
    },
  };
}

export type AdminAuth = ReturnType<typeof createAdminAuth>;
