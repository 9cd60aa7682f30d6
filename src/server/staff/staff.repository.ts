/** SQL for staff: people, their sessions, passkeys, invites and sign-in links, WebAuthn challenges. */
import type { StaffRole } from '../../shared/staff-permissions.js';
import type { StaffMember, StaffPasskey, StaffSession } from '../../shared/api.js';
import type { Db } from '../db/connection.js';
import { toIsoString } from '../db/tables.js';

export interface StaffRow {
  id: number;
  email: string;
  displayName: string;
  role: StaffRole;
  passwordHash: string | null;
  disabled: boolean;
}

const staffColumns = ['id', 'email', 'display_name', 'role', 'password_hash', 'disabled_at'] as const;

function toStaffRow(row: {
  id: number;
  email: string;
  display_name: string;
  role: StaffRole;
  password_hash: string | null;
  disabled_at: Date | string | null;
}): StaffRow {
  return {
    id: row.id,
    email: row.email,
    displayName: row.display_name,
    role: row.role,
    passwordHash: row.password_hash,
    disabled: row.disabled_at !== null,
  };
}

export async function findStaffByEmail(db: Db, email: string): Promise<StaffRow | undefined> {
  const row = await db.selectFrom('staff').select(staffColumns).where('email', '=', email).executeTakeFirst();
  return row && toStaffRow(row);
}

export async function findStaffById(db: Db, id: number): Promise<StaffRow | undefined> {
  const row = await db.selectFrom('staff').select(staffColumns).where('id', '=', id).executeTakeFirst();
  return row && toStaffRow(row);
}

export async function countStaff(db: Db): Promise<number> {
  const row = await db
    .selectFrom('staff')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Enabled owners: the last one can be neither demoted nor disabled. */
export async function countActiveOwners(db: Db): Promise<number> {
  const row = await db
    .selectFrom('staff')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('role', '=', 'owner')
    .where('disabled_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertStaff(
  db: Db,
  person: { email: string; displayName: string; role: StaffRole; passwordHash: string | null },
  now: string,
): Promise<number> {
  const row = await db
    .insertInto('staff')
    .values({
      email: person.email,
      display_name: person.displayName,
      role: person.role,
      password_hash: person.passwordHash,
      created_at: now,
      disabled_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateStaff(
  db: Db,
  id: number,
  change: { role?: StaffRole; disabledAt?: string | null; passwordHash?: string },
): Promise<void> {
  await db
    .updateTable('staff')
    .set({
      ...(change.role ? { role: change.role } : {}),
      ...(change.disabledAt !== undefined ? { disabled_at: change.disabledAt } : {}),
      ...(change.passwordHash ? { password_hash: change.passwordHash } : {}),
    })
    .where('id', '=', id)
    .execute();
}

/** Every person on the staff, or only the one with `onlyId`, with their passkey count. */
export async function listStaff(db: Db, onlyId?: number): Promise<StaffMember[]> {
  const rows = await db
    .selectFrom('staff')
    .$if(onlyId !== undefined, (query) => query.where('staff.id', '=', onlyId ?? 0))
    .leftJoin('staff_passkeys', 'staff_passkeys.staff_id', 'staff.id')
    .select((eb) => [
      'staff.id',
      'staff.email',
      'staff.display_name',
      'staff.role',
      'staff.password_hash',
      'staff.disabled_at',
      'staff.created_at',
      eb.fn.count<number | string>('staff_passkeys.id').as('passkeys'),
    ])
    .groupBy([
      'staff.id',
      'staff.email',
      'staff.display_name',
      'staff.role',
      'staff.password_hash',
      'staff.disabled_at',
      'staff.created_at',
    ])
    .orderBy('staff.id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    displayName: row.display_name,
    role: row.role,
    disabled: row.disabled_at !== null,
    hasPassword: row.password_hash !== null,
    passkeys: Number(row.passkeys),
    createdAt: toIsoString(row.created_at),
  }));
}

// Sessions

export interface SessionRow {
  id: number;
  staffId: number;
  signedInAt: string;
  lastSeenAt: string;
  expiresAt: string;
}

export async function insertSession(
  db: Db,
  session: { tokenHash: string; staffId: number; browser: string; now: string; expiresAt: string },
): Promise<number> {
  const row = await db
    .insertInto('admin_sessions')
    .values({
      token_hash: session.tokenHash,
      staff_id: session.staffId,
      browser: session.browser,
      created_at: session.now,
      signed_in_at: session.now,
      last_seen_at: session.now,
      expires_at: session.expiresAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A session and its person, only while that person is enabled. */
export async function findSession(db: Db, tokenHash: string): Promise<(SessionRow & { staff: StaffRow }) | undefined> {
  const row = await db
    .selectFrom('admin_sessions')
    .innerJoin('staff', 'staff.id', 'admin_sessions.staff_id')
    .select([
      'admin_sessions.id as session_id',
      'admin_sessions.signed_in_at',
      'admin_sessions.last_seen_at',
      'admin_sessions.expires_at',
      'staff.id',
      'staff.email',
      'staff.display_name',
      'staff.role',
      'staff.password_hash',
      'staff.disabled_at',
    ])
    .where('admin_sessions.token_hash', '=', tokenHash)
    .where('staff.disabled_at', 'is', null)
    .executeTakeFirst();
  return (
    row && {
      id: row.session_id,
      staffId: row.id,
      signedInAt: toIsoString(row.signed_in_at),
      lastSeenAt: toIsoString(row.last_seen_at),
      expiresAt: toIsoString(row.expires_at),
      staff: toStaffRow(row),
    }
  );
}

export async function touchSession(db: Db, id: number, now: string): Promise<void> {
  await db.updateTable('admin_sessions').set({ last_seen_at: now }).where('id', '=', id).execute();
}

export async function deleteSessionByToken(db: Db, tokenHash: string): Promise<void> {
  await db.deleteFrom('admin_sessions').where('token_hash', '=', tokenHash).execute();
}

export async function deleteSession(db: Db, id: number, staffId?: number): Promise<boolean> {
  let query = db.deleteFrom('admin_sessions').where('id', '=', id);
  if (staffId !== undefined) query = query.where('staff_id', '=', staffId);
  const result = await query.executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Ends every session of a person, or every one but `except`. */
export async function deleteSessionsOf(db: Db, staffId: number, { except }: { except?: number } = {}): Promise<void> {
  await db
    .deleteFrom('admin_sessions')
    .where('staff_id', '=', staffId)
    .$if(except !== undefined, (query) => query.where('id', '!=', except ?? 0))
    .execute();
}

export async function deleteEndedSessions(db: Db, now: string, idleSince: string): Promise<void> {
  await db
    .deleteFrom('admin_sessions')
    .where((eb) => eb.or([eb('expires_at', '<=', now), eb('last_seen_at', '<', idleSince)]))
    .execute();
}

export async function listSessions(db: Db, staffId: number | undefined, currentId: number): Promise<StaffSession[]> {
  let query = db
    .selectFrom('admin_sessions')
    .innerJoin('staff', 'staff.id', 'admin_sessions.staff_id')
    .select([
      'admin_sessions.id',
      'admin_sessions.staff_id',
      'staff.display_name',
      'admin_sessions.browser',
      'admin_sessions.created_at',
      'admin_sessions.last_seen_at',
    ])
    .orderBy('admin_sessions.last_seen_at', 'desc');
  if (staffId !== undefined) query = query.where('admin_sessions.staff_id', '=', staffId);
  const rows = await query.execute();
  return rows.map((row) => ({
    id: row.id,
    staffId: row.staff_id,
    staffName: row.display_name,
    browser: row.browser,
    createdAt: toIsoString(row.created_at),
    lastSeenAt: toIsoString(row.last_seen_at),
    current: row.id === currentId,
  }));
}

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

// Invites and one-time sign-in links

export async function insertLink(
  db: Db,
  link: {
    tokenHash: string;
    kind: 'invite' | 'sign-in';
    email: string | null;
    role: StaffRole | null;
    staffId: number | null;
    createdBy: number | null;
  },
  now: string,
  expiresAt: string,
): Promise<number> {
  const row = await db
    .insertInto('staff_links')
    .values({
      token_hash: link.tokenHash,
      kind: link.kind,
      email: link.email,
      role: link.role,
      staff_id: link.staffId,
      created_by: link.createdBy,
      created_at: now,
      expires_at: expiresAt,
      used_at: null,
      accepted_staff_id: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export interface LinkRow {
  id: number;
  email: string | null;
  role: StaffRole | null;
  staffId: number | null;
}

/** A link still good: not used, not expired. */
export async function findLiveLink(
  db: Db,
  tokenHash: string,
  kind: 'invite' | 'sign-in',
  now: string,
): Promise<LinkRow | undefined> {
  const row = await db
    .selectFrom('staff_links')
    .select(['id', 'email', 'role', 'staff_id'])
    .where((eb) => eb.or([eb('token_hash', '=', tokenHash), eb('mail_token_hash', '=', tokenHash)]))
    .where('kind', '=', kind)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row && { id: row.id, email: row.email, role: row.role, staffId: row.staff_id };
}

/**
 * Uses a link, once: the update succeeds only while it is unused and unexpired, so of two people
 * accepting one invite at once, on any instances, one gets it.
 */
export async function useLink(db: Db, id: number, now: string): Promise<boolean> {
  const result = await db
    .updateTable('staff_links')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function markAccepted(db: Db, id: number, staffId: number): Promise<void> {
  await db.updateTable('staff_links').set({ accepted_staff_id: staffId }).where('id', '=', id).execute();
}

export async function listPendingInvites(db: Db, now: string) {
  const rows = await db
    .selectFrom('staff_links')
    .select(['id', 'email', 'role', 'created_at', 'expires_at'])
    .where('kind', '=', 'invite')
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('id', 'desc')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    email: row.email ?? '',
    role: row.role ?? 'moderator',
    createdAt: toIsoString(row.created_at),
    expiresAt: toIsoString(row.expires_at),
  }));
}

/** Withdraws an invite: it is used up, by nobody. */
export async function withdrawInvite(db: Db, id: number, now: string): Promise<boolean> {
  const result = await db
    .updateTable('staff_links')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('kind', '=', 'invite')
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
