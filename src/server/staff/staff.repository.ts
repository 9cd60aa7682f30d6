/** SQL for staff: people and their sessions (passkeys.repository.ts and staff-links.repository.ts hold the rest). */
import type { StaffRole } from '../../shared/staff-permissions.js';
import type { StaffMember, StaffSession } from '../../shared/api.js';
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

/** staffColumns as a query that joins another table names them. */
const joinedStaffColumns = staffColumns.map((column) => `staff.${column}` as const);
const listedColumns = [...joinedStaffColumns, 'staff.created_at' as const];

/** Every person on the staff, or only the one with `onlyId`, with their passkey count. */
export async function listStaff(db: Db, onlyId?: number): Promise<StaffMember[]> {
  const rows = await db
    .selectFrom('staff')
    .$if(onlyId !== undefined, (query) => query.where('staff.id', '=', onlyId ?? 0))
    .leftJoin('staff_passkeys', 'staff_passkeys.staff_id', 'staff.id')
    .select((eb) => [...listedColumns, eb.fn.count<number | string>('staff_passkeys.id').as('passkeys')])
    .groupBy([...listedColumns])
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
      ...joinedStaffColumns,
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
