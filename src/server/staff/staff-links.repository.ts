/** SQL for invites and one-time sign-in links. */
import type { StaffRole } from '../../shared/staff-permissions.js';
import type { Db } from '../db/connection.js';
import { toIsoString } from '../db/tables.js';

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

export interface InviteToMail {
  id: number;
  email: string | null;
  role: StaffRole | null;
  expiresAt: string;
  /** The display name of who sent it, while they are on the staff. */
  invitedBy: string | null;
}

/** An invite still waiting (not used, not expired), with who sent it: for its e-mail. */
export async function findInviteToMail(db: Db, id: number, now: string): Promise<InviteToMail | undefined> {
  const row = await db
    .selectFrom('staff_links')
    .leftJoin('staff', 'staff.id', 'staff_links.created_by')
    .select(['staff_links.id', 'staff_links.email', 'staff_links.role', 'staff_links.expires_at', 'staff.display_name'])
    .where('staff_links.id', '=', id)
    .where('staff_links.kind', '=', 'invite')
    .where('staff_links.used_at', 'is', null)
    .where('staff_links.expires_at', '>', now)
    .executeTakeFirst();
  return (
    row && {
      id: row.id,
      email: row.email,
      role: row.role,
      expiresAt: toIsoString(row.expires_at),
      invitedBy: row.display_name,
    }
  );
}

/** Keeps the hash of the token an invite's e-mail carries (the token itself is only in the e-mail). */
export async function setMailToken(db: Db, id: number, tokenHash: string): Promise<void> {
  await db.updateTable('staff_links').set({ mail_token_hash: tokenHash }).where('id', '=', id).execute();
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
