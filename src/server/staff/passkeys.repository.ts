/** SQL for passkeys and the WebAuthn challenges that register and use them. */
import type { StaffPasskey } from '../../shared/api.js';
import type { Db } from '../db/connection.js';
import { toIsoString } from '../db/tables.js';

// Passkeys

export interface PasskeyRow {
  id: string;
  staffId: number;
  publicKey: string;
  counter: number;
  transports: string[];
}

export async function insertPasskey(db: Db, passkey: PasskeyRow & { name: string }, now: string): Promise<void> {
  await db
    .insertInto('staff_passkeys')
    .values({
      id: passkey.id,
      staff_id: passkey.staffId,
      name: passkey.name,
      public_key: passkey.publicKey,
      counter: passkey.counter,
      transports: JSON.stringify(passkey.transports),
      created_at: now,
      last_used_at: null,
    })
    .execute();
}

export async function findPasskey(db: Db, id: string): Promise<PasskeyRow | undefined> {
  const row = await db.selectFrom('staff_passkeys').selectAll().where('id', '=', id).executeTakeFirst();
  return (
    row && {
      id: row.id,
      staffId: row.staff_id,
      publicKey: row.public_key,
      counter: Number(row.counter),
      transports: JSON.parse(row.transports) as string[],
    }
  );
}

export async function usePasskey(db: Db, id: string, counter: number, now: string): Promise<void> {
  await db.updateTable('staff_passkeys').set({ counter, last_used_at: now }).where('id', '=', id).execute();
}

export async function listPasskeys(db: Db, staffId: number): Promise<StaffPasskey[]> {
  const rows = await db
    .selectFrom('staff_passkeys')
    .select(['id', 'name', 'created_at', 'last_used_at'])
    .where('staff_id', '=', staffId)
    .orderBy('created_at')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    createdAt: toIsoString(row.created_at),
    lastUsedAt: row.last_used_at === null ? null : toIsoString(row.last_used_at),
  }));
}

export async function passkeyIdsOf(db: Db, staffId: number): Promise<string[]> {
  const rows = await db.selectFrom('staff_passkeys').select('id').where('staff_id', '=', staffId).execute();
  return rows.map((row) => row.id);
}

export async function deletePasskey(db: Db, id: string, staffId: number): Promise<boolean> {
  const result = await db
    .deleteFrom('staff_passkeys')
    .where('id', '=', id)
    .where('staff_id', '=', staffId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

// WebAuthn challenges: kept in the database, so any instance can finish a ceremony.

export async function insertChallenge(
  db: Db,
  challenge: {
    challenge: string;
    purpose: 'sign-in' | 'register' | 'invite';
    staffId: number | null;
    linkId: number | null;
    /** A sign-in challenge's network (keyed hash). */
    network?: string;
  },
  expiresAt: string,
): Promise<void> {
  await db
    .insertInto('webauthn_challenges')
    .values({
      challenge: challenge.challenge,
      purpose: challenge.purpose,
      staff_id: challenge.staffId,
      link_id: challenge.linkId,
      network: challenge.network ?? null,
      expires_at: expiresAt,
    })
    .execute();
}

/**
 * Keeps the newest `keep` challenges of one holder (a network's sign-ins, a person's new
 * passkeys) and forgets every expired challenge: a flood of requests for options leaves a few
 * rows per holder, for two minutes at most.
 */
export async function trimChallenges(
  db: Db,
  holder: { column: 'network' | 'staff_id'; value: string | number },
  keep: number,
  now: string,
): Promise<void> {
  await deleteExpiredChallenges(db, now);
  await db
    .deleteFrom('webauthn_challenges')
    .where(holder.column, '=', holder.value)
    .where(
      'challenge',
      'not in',
      db
        .selectFrom('webauthn_challenges')
        .select('challenge')
        .where(holder.column, '=', holder.value)
        .orderBy('expires_at', 'desc')
        .orderBy('challenge', 'desc')
        .limit(keep),
    )
    .execute();
}

/** Takes a challenge once: of two instances finishing one ceremony, only one gets it. */
export async function takeChallenge(
  db: Db,
  challenge: string,
  purpose: 'sign-in' | 'register' | 'invite',
  now: string,
): Promise<{ staffId: number | null; linkId: number | null } | undefined> {
  const row = await db
    .deleteFrom('webauthn_challenges')
    .where('challenge', '=', challenge)
    .where('purpose', '=', purpose)
    .where('expires_at', '>', now)
    .returning(['staff_id', 'link_id'])
    .executeTakeFirst();
  return row && { staffId: row.staff_id, linkId: row.link_id };
}

export async function deleteExpiredChallenges(db: Db, now: string): Promise<void> {
  await db.deleteFrom('webauthn_challenges').where('expires_at', '<=', now).execute();
}
