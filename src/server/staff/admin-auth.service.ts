/**
 * Staff sign-in, on the server (issue 27): each person has an account with a role, and signs in
 * with a passkey, a password, an invite or a one-time link. A session per sign-in is kept in the
 * database so every instance honours it, ended by sign-out, by idleness, by age, or at once for
 * all of a person's when they are disabled. Password attempts meet the sign-in guard
 * (sign-in-guard.ts) before any password is hashed. Every sign-in is in the audit log; a failed
 * one is only counted (per network, for the window), never written there.
 */
import type { StaffMember } from '../../shared/api.js';
import type { StaffRole } from '../../shared/staff-permissions.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Db } from '../db/connection.js';
import { isUniqueViolation } from '../db/errors.js';
import { hashSecretToken, newSecretToken } from '../db/secret-tokens.js';
import { enqueueStaffAlert } from '../email/outbox.repository.js';
import type { KeyedHash } from '../http/address-limits.js';
import { limitAddress } from '../http/client-address.js';
import { appendAudit, SYSTEM_ACTOR, type Actor } from './audit.js';
import { hashPassword, verifyPassword } from './password.js';
import { createSignInGuard } from './sign-in-guard.js';
import {
  countStaff,
  deleteEndedSessions,
  deleteSessionByToken,
  findSession,
  findStaffByEmail,
  findStaffById,
  insertSession,
  insertStaff,
  touchSession,
  type StaffRow,
} from './staff.repository.js';
import { deleteExpiredChallenges } from './passkeys.repository.js';
import { findLiveLink, insertLink, markAccepted, useLink } from './staff-links.repository.js';
import type { CountReport } from '../http/limit-headers.js';

/** Seen-at is written at most this often, not on every request. */
const TOUCH_INTERVAL_MS = 60_000;
export const INVITE_LIFETIME_MS = 48 * 3_600_000;
export const SIGN_IN_LINK_LIFETIME_MS = 15 * 60_000;
/** Checked against when no account matches, so a wrong e-mail takes as long as a wrong password. */
const DUMMY_HASH = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

/** The signed-in person, as a request sees them. */
export interface SignedIn {
  id: number;
  email: string;
  name: string;
  role: StaffRole;
  sessionId: number;
  /** When they last proved who they are. */
  signedInAt: string;
}

export const actorOf = (staff: { id: number; name: string; role: StaffRole }): Actor => ({
  id: staff.id,
  name: staff.name,
  role: staff.role,
});

export type SignInResult =
  | { outcome: 'signed-in'; token: string; maxAgeSeconds: number }
  | { outcome: 'wrong-password' }
  | { outcome: 'throttled'; retryAfterMinutes: number };

export interface AdminAuthDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'adminSessionIdleMinutes' | 'adminSessionMaxHours' | 'adminLoginAttempts'>;
  /** The old shared password's hash: opens "Create the owner account" only, while there is no staff. */
  legacyPasswordHash: string | null;
  /** Keyed hash of a client address or an e-mail under the day's key: counted ones are only ever keyed hashes. */
  keyedHash: KeyedHash;
  /** On https the cookie takes the __Host- prefix: Secure, Path=/, no Domain, so no subdomain can set it. */
  secureCookies: boolean;
  /** Wakes the outbox after an e-mail is queued (an account under attack). */
  mailQueued?: () => void;
}

export function createAdminAuth({
  db,
  clock,
  config,
  legacyPasswordHash,
  keyedHash,
  secureCookies,
  mailQueued = () => {},
}: AdminAuthDeps) {
  const idleMs = config.adminSessionIdleMinutes * 60_000;
  const maxMs = config.adminSessionMaxHours * 3_600_000;
  const guard = createSignInGuard({ db, keyedHash, attempts: config.adminLoginAttempts });

  /** A new session for a person, in the caller's transaction, with its audit row. */
  async function startSession(
    trx: Db,
    person: StaffRow,
    browser: string,
    how: string,
    replacing: string | undefined,
  ): Promise<SignInResult> {
    const now = clock.now();
    // Always a new token: a session id known before sign-in is worth nothing after it.
    const token = newSecretToken();
    if (replacing) await deleteSessionByToken(trx, hashSecretToken(replacing));
    await insertSession(trx, {
      tokenHash: hashSecretToken(token),
      staffId: person.id,
      browser,
      now: now.toISOString(),
      expiresAt: new Date(now.getTime() + maxMs).toISOString(),
    });
    await appendAudit(trx, now, actorOf({ id: person.id, name: person.displayName, role: person.role }), {
      action: 'sign-in',
      target: `staff ${person.id}`,
      summary: `Signed in ${how} (${browser})`,
    });
    return { outcome: 'signed-in', token, maxAgeSeconds: maxMs / 1000 };
  }

  /** A wrong password for `email`; the first that puts a person's account under attack tells them. */
  async function wrongPassword(email: string, person: StaffRow | undefined, now: Date): Promise<void> {
    if (!(await guard.failed(email, now)) || !person || person.disabled) return;
    await enqueueStaffAlert(db, person.id, now);
    mailQueued();
  }

  return {
    cookieName: secureCookies ? '__Host-admin_session' : 'admin_session',
    secureCookies,
    startSession,
    /** The time by the site's clock (a recent sign-in is measured against it). */
    now: () => clock.now(),
    /** A client's network (its IPv4 address, its IPv6 /64) as a keyed hash under the day's key. */
    networkCode: (address: string) => keyedHash(limitAddress(address)),

    /** Whether the site still needs its first owner. */
    async needsOwner(): Promise<boolean> {
      return (await countStaff(db)) === 0;
    },

    async signIn(
      email: string,
      password: string,
      address: string,
      browser: string,
      replacing?: string,
      /** Where the network's count goes (the RateLimit headers). */
      report?: CountReport,
    ): Promise<SignInResult> {
      const now = clock.now();
      // Counted first, and refused before the slow hash: a flood of guesses costs the server little.
      const refused = (await guard.network(address, now, report)) ?? (await guard.person(email, address, now));
      if (refused) return { outcome: 'throttled', retryAfterMinutes: refused.wait };
      const person = await findStaffByEmail(db, email);
      const usable = person && !person.disabled && person.passwordHash !== null ? person : undefined;
      const matches = await verifyPassword(password, usable?.passwordHash ?? DUMMY_HASH);
      if (!usable || !matches) {
        await wrongPassword(email, person, now);
        return { outcome: 'wrong-password' };
      }
      await guard.succeeded(email, address);
      await deleteEndedSessions(db, now.toISOString(), new Date(now.getTime() - idleMs).toISOString());
      return db.transaction().execute((trx) => startSession(trx, usable, browser, 'with a password', replacing));
    },

    /**
     * The first owner, made with the site's old shared password (an upgraded site) on the one
     * screen it opens. Refused once anyone is on the staff: then the old password signs nobody in.
     */
    async createFirstOwner(
      adminPassword: string,
      owner: { email: string; displayName: string; password: string },
      address: string,
      browser: string,
      report?: CountReport,
    ): Promise<SignInResult | { outcome: 'owner-exists' }> {
      const now = clock.now();
      const refused = await guard.network(address, now, report);
      if (refused) return { outcome: 'throttled', retryAfterMinutes: refused.wait };
      if (!(await this.needsOwner())) return { outcome: 'owner-exists' };
      if (!legacyPasswordHash || !(await verifyPassword(adminPassword, legacyPasswordHash))) {
        return { outcome: 'wrong-password' };
      }
      // Only now, past every check, is the new password hashed.
      const passwordHash = await hashPassword(owner.password);
      try {
        return await db.transaction().execute(async (trx) => {
          // One first owner, whatever races: this row's primary key lets one transaction in.
          await trx.insertInto('settings').values({ name: 'first_owner_at', value: now.toISOString() }).execute();
          const { email, displayName } = owner;
          const id = await insertStaff(trx, { email, displayName, passwordHash, role: 'owner' }, now.toISOString());
          const person: StaffRow = { id, email, displayName, passwordHash, role: 'owner', disabled: false };
          await appendAudit(trx, now, actorOf({ id, name: owner.displayName, role: 'owner' }), {
            action: 'staff.create',
            target: `staff ${id}`,
            summary: `Created the owner account ${owner.email} with the old admin password`,
          });
          return startSession(trx, person, browser, 'for the first time', undefined);
        });
      } catch (error) {
        if (isUniqueViolation(error)) return { outcome: 'owner-exists' };
        throw error;
      }
    },

    /** The signed-in person behind `token`, if the session is live; using it keeps it alive. */
    async signedIn(token: string | undefined): Promise<SignedIn | undefined> {
      if (!token) return undefined;
      const now = clock.now().getTime();
      const session = await findSession(db, hashSecretToken(token));
      if (!session) return undefined;
      const lastSeen = new Date(session.lastSeenAt).getTime();
      if (new Date(session.expiresAt).getTime() <= now || lastSeen + idleMs <= now) {
        await deleteSessionByToken(db, hashSecretToken(token));
        return undefined;
      }
      if (now - lastSeen >= TOUCH_INTERVAL_MS) await touchSession(db, session.id, new Date(now).toISOString());
      const { staff } = session;
      return {
        id: staff.id,
        email: staff.email,
        name: staff.displayName,
        role: staff.role,
        sessionId: session.id,
        signedInAt: session.signedInAt,
      };
    },

    async isSignedIn(token: string | undefined): Promise<boolean> {
      return (await this.signedIn(token)) !== undefined;
    },

    async signOut(token: string | undefined): Promise<void> {
      if (!token) return;
      const person = await this.signedIn(token);
      await db.transaction().execute(async (trx) => {
        await deleteSessionByToken(trx, hashSecretToken(token));
        if (person)
          await appendAudit(trx, clock.now(), actorOf(person), {
            action: 'sign-out',
            target: `staff ${person.id}`,
            summary: 'Signed out',
          });
      });
    },

    /** A one-time owner sign-in link's token (npm run staff -- sign-in-link), good for 15 minutes. */
    async signInLink(): Promise<{ token: string; owner: StaffRow } | undefined> {
      const owner = await db
        .selectFrom('staff')
        .select('id')
        .where('role', '=', 'owner')
        .where('disabled_at', 'is', null)
        .orderBy('id')
        .executeTakeFirst();
      const person = owner && (await findStaffById(db, owner.id));
      if (!person) return undefined;
      const now = clock.now();
      const token = newSecretToken();
      await db.transaction().execute(async (trx) => {
        await insertLink(
          trx,
          {
            tokenHash: hashSecretToken(token),
            kind: 'sign-in',
            email: null,
            role: null,
            staffId: person.id,
            createdBy: null,
          },
          now.toISOString(),
          new Date(now.getTime() + SIGN_IN_LINK_LIFETIME_MS).toISOString(),
        );
        await appendAudit(trx, now, SYSTEM_ACTOR, {
          action: 'sign-in-link.create',
          target: `staff ${person.id}`,
          summary: `A one-time sign-in link for ${person.displayName} was printed on the server`,
        });
      });
      return { token, owner: person };
    },

    /** Signs in with a one-time link: once, within its 15 minutes, and only while its person is enabled. */
    async signInWithLink(token: string, browser: string, replacing?: string): Promise<SignInResult | undefined> {
      const now = clock.now().toISOString();
      const link = await findLiveLink(db, hashSecretToken(token), 'sign-in', now);
      if (!link?.staffId) return undefined;
      const person = await findStaffById(db, link.staffId);
      if (!person || person.disabled) return undefined;
      return db.transaction().execute(async (trx) => {
        if (!(await useLink(trx, link.id, now))) return undefined;
        return startSession(trx, person, browser, 'with a one-time link', replacing);
      });
    },

    /**
     * Accepts an invite with a password (hashed only once the invite is found good) or, with
     * `password` null, a passkey `within` adds: one account, however many accept at once.
     */
    async acceptInvite(
      token: string,
      person: { displayName: string; password: string | null },
      browser: string,
      within?: (trx: Db, staffId: number) => Promise<void>,
    ): Promise<SignInResult | 'gone' | 'taken'> {
      const now = clock.now().toISOString();
      const link = await findLiveLink(db, hashSecretToken(token), 'invite', now);
      if (!link?.email || !link.role) return 'gone';
      const { email, role } = link;
      const { displayName } = person;
      const passwordHash = person.password === null ? null : await hashPassword(person.password);
      try {
        return await db.transaction().execute(async (trx) => {
          if (!(await useLink(trx, link.id, now))) return 'gone' as const;
          const id = await insertStaff(trx, { email, role, displayName, passwordHash }, now);
          await markAccepted(trx, link.id, id);
          if (within) await within(trx, id);
          await appendAudit(trx, clock.now(), actorOf({ id, name: displayName, role }), {
            action: 'invite.accept',
            target: `invite ${link.id}`,
            summary: `Accepted the invite as ${role}`,
          });
          return startSession(
            trx,
            { id, email, role, displayName, passwordHash, disabled: false },
            browser,
            'for the first time',
            undefined,
          );
        });
      } catch (error) {
        if (isUniqueViolation(error)) return 'taken';
        throw error;
      }
    },

    /** Forgets sessions, challenges and counts of failed sign-ins that have ended (housekeeping). */
    async purgeEndedSessions(): Promise<void> {
      const now = clock.now();
      await deleteEndedSessions(db, now.toISOString(), new Date(now.getTime() - idleMs).toISOString());
      await deleteExpiredChallenges(db, now.toISOString());
      await guard.forgetEnded(now);
    },
  };
}

export type AdminAuth = ReturnType<typeof createAdminAuth>;

export type { StaffMember };
