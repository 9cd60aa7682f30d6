/**
 * What stands in front of every staff call: requests that change something must come from this
 * site (not a page elsewhere riding on the staff cookie), all of them need a session, and the
 * signed-in person's role must allow the route's action (`config.permission`, read from the
 * permission table in src/shared). All before the body is read: a refused call does nothing.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { can, RECENT_SIGN_IN_MINUTES, type StaffAction } from '../../shared/staff-permissions.js';
import { readCookie } from '../http/cookies.js';
import { forbidden, HttpError, unauthorized } from '../http/errors.js';
import { sameSiteOnly } from '../http/same-site.js';
import type { ZodTypeProvider } from '../http/validation.js';
import { actorOf, type AdminAuth, type SignedIn } from './admin-auth.service.js';
import { appendAudit, appendAuditAlone, type AuditWrite } from './audit.js';
import type { Db } from '../db/connection.js';

export { sameSiteOnly };

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What a staff route does, in the permission table's words; a staff route without one is refused. */
    permission?: StaffAction;
    /**
     * What makes access permanent (a passkey, a password, an invite) also needs a recent sign-in:
     * the start of the sentence that says so ("Adding a passkey needs").
     */
    recentSignIn?: string;
  }
  interface FastifyRequest {
    /** The signed-in person, set by `signedInOnly`. */
    staff?: SignedIn;
  }
}

export const NOT_ALLOWED = 'Your role does not allow this. Ask the site owner if you need it.';

/**
 * Answers 401 without a live staff session, 403 when the person's role may not make the call,
 * and 403 `sign-in-again` when the call needs a recent sign-in the session does not have.
 */
export function signedInOnly(auth: AdminAuth) {
  return async (request: FastifyRequest) => {
    const staff = await auth.signedIn(readCookie(request, auth.cookieName));
    if (!staff) throw unauthorized('Please sign in to the admin panel.');
    request.staff = staff;
    const { permission, recentSignIn } = request.routeOptions.config;
    if (!permission || !can(staff.role, permission)) throw forbidden(NOT_ALLOWED);
    if (recentSignIn) requireRecentSignIn(staff, auth.now(), recentSignIn);
  };
}

/**
 * A staff plugin's guard, set once for all its routes: same-site calls only, then a live session
 * whose role allows the route's `config.permission`, both before the body is read. Answers the
 * typed instance the plugin declares its routes on.
 */
export function staffApi(app: FastifyInstance, auth: AdminAuth, publicUrl: string) {
  app.addHook('onRequest', sameSiteOnly(publicUrl));
  app.addHook('onRequest', signedInOnly(auth));
  return app.withTypeProvider<ZodTypeProvider>();
}

/** The signed-in person of a staff route (signedInOnly ran first). */
export function staffOf(request: FastifyRequest): SignedIn {
  if (!request.staff) throw unauthorized('Please sign in to the admin panel.');
  return request.staff;
}

/** Whether the person signed in (or re-confirmed) within the last 10 minutes. */
export function signedInRecently(staff: SignedIn, now: Date): boolean {
  return new Date(staff.signedInAt).getTime() + RECENT_SIGN_IN_MINUTES * 60_000 >= now.getTime();
}

/**
 * Refuses with 403 `sign-in-again` unless the person signed in recently: the code tells the
 * panel to ask for the passkey or password, then retry. `needs` starts the sentence.
 */
export function requireRecentSignIn(staff: SignedIn, now: Date, needs: string): void {
  if (signedInRecently(staff, now)) return;
  throw new HttpError(
    403,
    'sign-in-again',
    `${needs} a sign-in within the last ${RECENT_SIGN_IN_MINUTES} minutes. Please confirm it is you, then try again.`,
  );
}

/** Voter e-mails: the owner only, signed in (or re-confirmed) within the last 10 minutes. */
export function voterEmailsAllowed(request: FastifyRequest, now: Date): SignedIn {
  const staff = staffOf(request);
  if (!can(staff.role, 'votes.emails')) throw forbidden(NOT_ALLOWED);
  requireRecentSignIn(staff, now, 'Voter e-mails need');
  return staff;
}

/**
 * The audit row of a staff call, for its service to write inside the action's transaction
 * (`target` when the service learns it there, such as a new poll's id).
 */
export function auditOf(request: FastifyRequest, now: () => Date) {
  const actor = actorOf(staffOf(request));
  return (action: string, summary: string, target: string): AuditWrite =>
    (trx, known) =>
      appendAudit(trx, now(), actor, { action, target: known ?? target, summary });
}

/** An audit row on its own, for a call that reads (an export, voter e-mails shown). */
export function auditRead(db: Db, request: FastifyRequest, now: Date, action: string, target: string, summary: string) {
  return appendAuditAlone(db, now, actorOf(staffOf(request)), { action, target, summary });
}
