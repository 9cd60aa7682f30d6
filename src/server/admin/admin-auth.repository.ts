/** SQL for staff sign-in: the site's settings, sessions, and failed attempts per address. */
import { sql } from 'kysely';
import type { Db } from '../db/connection.js';
import { toIsoString } from '../db/tables.js';

/** A setting's value, writing `value` first if none was stored (the first writer wins). */
export async function settingOrInsert(db: Db, name: string, value: string): Promise<{ value: string; inserted: boolean }> {
  const inserted = await db
    .insertInto('settings')
    .values({ name, value })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .returning('name')
    .executeTakeFirst();
  const row = await db.selectFrom('settings').select('value').where('name', '=', name).executeTakeFirstOrThrow();
  return { value: row.value, inserted: inserted !== undefined };
}

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

export async function findFailures(db: Db, addressHash: string): Promise<{ windowStartedAt: string; failures: number } | undefined> {
  const row = await db
    .selectFrom('sign_in_failures')
    .select(['window_started_at', 'failures'])
    .where('address_hash', '=', addressHash)
    .executeTakeFirst();
  return row && { windowStartedAt: toIsoString(row.window_started_at), failures: row.failures };
}

/** Counts a failure; a window that started before `windowStart` is replaced by a new one. */
export async function recordFailure(db: Db, addressHash: string, now: string, windowStart: string): Promise<void> {
  await db
    .insertInto('sign_in_failures')
    .values({ address_hash: addressHash, window_started_at: now, failures: 1 })
    .onConflict((conflict) =>
      conflict.column('address_hash').doUpdateSet({
        failures: sql`case when sign_in_failures.window_started_at < ${windowStart} then 1 else sign_in_failures.failures + 1 end`,
        window_started_at: sql`case when sign_in_failures.window_started_at < ${windowStart} then ${now} else sign_in_failures.window_started_at end`,
      }),
    )
    .execute();
}

export async function clearFailures(db: Db, addressHash: string): Promise<void> {
  await db.deleteFrom('sign_in_failures').where('address_hash', '=', addressHash).execute();
}
