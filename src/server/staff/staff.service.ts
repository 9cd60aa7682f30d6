/**
 * Managing the staff (owner): people and their roles, invites, anyone's sessions; and each
 * person's own sessions and password. Every change is one transaction with its audit row. The
 * last enabled owner can be neither demoted nor disabled; disabling a person ends all their
 * sessions in the same transaction, on every instance at once (sessions live in the database).
 */
import type { StaffInvite, StaffMember, StaffSession } from '../../shared/api.js';
import { can, type StaffRole } from '../../shared/staff-permissions.js';
import type { Clock } from '../clock.js';
import type { Db } from '../db/connection.js';
import { hashSecretToken, newSecretToken } from '../db/secret-tokens.js';
import { enqueueStaffInvite } from '../email/outbox.repository.js';
import { appendAudit } from './audit.js';
import { actorOf, INVITE_LIFETIME_MS, type SignedIn } from './admin-auth.service.js';
import { hashPassword } from './password.js';
import {
  countActiveOwners,
  deleteSession,
  deleteSessionsOf,
  findStaffByEmail,
  findStaffById,
  listSessions,
  listStaff,
  updateStaff,
} from './staff.repository.js';
import { insertLink, listPendingInvites, withdrawInvite } from './staff-links.repository.js';

export type StaffChangeOutcome = 'done' | 'not-found' | 'last-owner' | 'unchanged';

export function createStaffService({ db, clock, mailQueued }: { db: Db; clock: Clock; mailQueued: () => void }) {
  return {
    list: (): Promise<StaffMember[]> => listStaff(db),

    async change(by: SignedIn, id: number, change: { role?: StaffRole | undefined; disabled?: boolean | undefined }) {
      return db.transaction().execute(async (trx): Promise<StaffChangeOutcome> => {
        const person = await findStaffById(trx, id);
        if (!person) return 'not-found';
        const demoting = change.role !== undefined && change.role !== 'owner' && person.role === 'owner';
        const disabling = change.disabled === true && !person.disabled && person.role === 'owner';
        if ((demoting || disabling) && (await countActiveOwners(trx)) <= 1) return 'last-owner';
        const summaries: string[] = [];
        if (change.role !== undefined && change.role !== person.role) {
          await updateStaff(trx, id, { role: change.role });
          summaries.push(`role ${person.role} → ${change.role}`);
        }
        if (change.disabled !== undefined && change.disabled !== person.disabled) {
          await updateStaff(trx, id, { disabledAt: change.disabled ? clock.now().toISOString() : null });
          summaries.push(change.disabled ? 'disabled, every session ended' : 'enabled again');
        }
        // A new role or a disabled account: every open session ends, so nobody keeps what they lost.
        if (summaries.length === 0) return 'unchanged';
        await deleteSessionsOf(trx, id);
        await appendAudit(trx, clock.now(), actorOf(by), {
          action:
            change.disabled === true
              ? 'staff.disable'
              : change.disabled === false && !change.role
                ? 'staff.enable'
                : 'staff.role',
          target: `staff ${id}`,
          summary: `${person.displayName}: ${summaries.join('; ')}`,
        });
        return 'done';
      });
    },

    async invite(
      by: SignedIn,
      email: string,
      role: StaffRole,
    ): Promise<{ token: string; invite: StaffInvite } | 'exists'> {
      if (await findStaffByEmail(db, email)) return 'exists';
      const now = clock.now();
      const token = newSecretToken();
      const expiresAt = new Date(now.getTime() + INVITE_LIFETIME_MS).toISOString();
      const id = await db.transaction().execute(async (trx) => {
        const linkId = await insertLink(
          trx,
          { tokenHash: hashSecretToken(token), kind: 'invite', email, role, staffId: null, createdBy: by.id },
          now.toISOString(),
          expiresAt,
        );
        // The e-mail, queued with the invite: both or neither.
        await enqueueStaffInvite(trx, linkId, now);
        await appendAudit(trx, now, actorOf(by), {
          action: 'invite.create',
          target: `invite ${linkId}`,
          summary: `Invited ${email} as ${role}`,
        });
        return linkId;
      });
      mailQueued();
      return { token, invite: { id, email, role, createdAt: now.toISOString(), expiresAt } };
    },

    invites: (): Promise<StaffInvite[]> => listPendingInvites(db, clock.now().toISOString()),

    async withdraw(by: SignedIn, id: number): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        if (!(await withdrawInvite(trx, id, clock.now().toISOString()))) return false;
        await appendAudit(trx, clock.now(), actorOf(by), {
          action: 'invite.withdraw',
          target: `invite ${id}`,
          summary: 'Withdrew an invite',
        });
        return true;
      });
    },

    /** Sessions: a person's own; the owner may see anyone's, or everyone's. */
    sessions(by: SignedIn, staffId: number | undefined, all: boolean): Promise<StaffSession[]> {
      const owner = can(by.role, 'staff.manage');
      const whose = owner && all ? undefined : owner && staffId !== undefined ? staffId : by.id;
      return listSessions(db, whose, by.sessionId);
    },

    /** Ends a session: one's own, or anyone's for the owner. */
    async endSession(by: SignedIn, id: number): Promise<boolean> {
      const owner = can(by.role, 'staff.manage');
      return db.transaction().execute(async (trx) => {
        if (!(await deleteSession(trx, id, owner ? undefined : by.id))) return false;
        await appendAudit(trx, clock.now(), actorOf(by), {
          action: 'session.end',
          target: `session ${id}`,
          summary: 'Ended a session',
        });
        return true;
      });
    },

    /** A new password, which ends the person's other sessions: one may be whoever knew the old one. */
    async setPassword(by: SignedIn, password: string): Promise<void> {
      const passwordHash = await hashPassword(password);
      await db.transaction().execute(async (trx) => {
        await updateStaff(trx, by.id, { passwordHash });
        await deleteSessionsOf(trx, by.id, { except: by.sessionId });
        await appendAudit(trx, clock.now(), actorOf(by), {
          action: 'password.change',
          target: `staff ${by.id}`,
          summary: 'Changed their password; their other sessions ended',
        });
      });
    },
  };
}

export type StaffService = ReturnType<typeof createStaffService>;
