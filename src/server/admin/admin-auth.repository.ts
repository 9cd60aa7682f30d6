/** SQL for staff sign-in: the site's settings and staff sessions. */
import type { Db } from '../db/connection.js';
import { toIsoString } from '../db/tables.js';

// Moved to db/settings.ts, where integrity/ reads its key too without reaching into admin/.
export { settingOrInsert } from '../db/settings.js';

export interface SessionRow {
  lastSeenAt: string;
  expiresAt: string;
}

export async function insertSession(db: Db, tokenHash: string, now: string, expiresAt: string): Promise<void> {
  await db
    .insertInto('admin_sessions')
    .values({ token_hash: tokenHash, created_at: now, last_seen_at: now, expires_at: expiresAt })
    .execute();
}

export async function findSession(db: Db, tokenHash: string): Promise<SessionRow | undefined> {
  const row = await db
    .selectFrom('admin_sessions')
    .select(['last_seen_at', 'expires_at'])
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
  return row && { lastSeenAt: toIsoString(row.last_seen_at), expiresAt: toIsoString(row.expires_at) };
}

export async function touchSession(db: Db, tokenHash: string, now: string): Promise<void> {
  await db.updateTable('admin_sessions').set({ last_seen_at: now }).where('token_hash', '=', tokenHash).execute();
}

export async function deleteSession(db: Db, tokenHash: string): Promise<void> {
  await db.deleteFrom('admin_sessions').where('token_hash', '=', tokenHash).execute();
}

/** Drops sessions past their end or idle since before `idleSince`. */
export async function deleteEndedSessions(db: Db, now: string, idleSince: string): Promise<void> {
  await db
    .deleteFrom('admin_sessions')
    .where((eb) => eb.or([eb('expires_at', '<=', now), eb('last_seen_at', '<', idleSince)]))
    .execute();
}
