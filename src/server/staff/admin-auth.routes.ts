/**
 * Getting in (issue 27): a password, a passkey, an invite, a one-time link, or, once on an
 * upgraded site, the old admin password making the first owner. None needs a session; the
 * changing ones must come from this site. Refusals say the same whoever the e-mail belongs to.
 * Tokens come in bodies, never in URLs; no password is hashed before the throttles and the
 * token have been checked. Every way in is first counted per network (the site's per-address
 * limit, with its /48 tier), before its body is read: a flood costs one count a request and
 * writes nothing else (issue 34, item 5).
 */
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { AdminSession, Confirmation, InviteDetails } from '../../shared/api.js';
import {
  acceptInviteRequest,
  invitePasskeyOptionsRequest,
  linkTokenRequest,
  ownerSetupRequest,
  passkeySignInRequest,
  signInRequest,
} from '../../shared/schemas.js';
import { adminSession, inviteDetails, passkeyOptions } from '../../shared/schemas/staff-answers.js';
import { confirmation } from '../../shared/schemas/poll-answers.js';
import { readCookie, setCookie } from '../http/cookies.js';
import { badRequest, conflict, notFound, tooManyRequests, unauthorized } from '../http/errors.js';
import type { ZodTypeProvider } from '../http/validation.js';
import type { Db } from '../db/connection.js';
import { hashSecretToken } from '../db/secret-tokens.js';
import { sameSiteOnly } from './admin-guard.js';
import type { AdminAuth, SignInResult } from './admin-auth.service.js';
import { browserOf } from './browser-name.js';
import type { Passkeys } from './passkeys.service.js';
import { COMMON_PASSWORD_MESSAGE, isCommonPassword } from './password-policy.js';
import { listStaff } from './staff.repository.js';
import { findLiveLink } from './staff-links.repository.js';
import type { Clock } from '../clock.js';
import { addressLimit, hitAddressLimit, type KeyedHash } from '../http/address-limits.js';
import { reportTo } from '../http/limit-headers.js';
import { SIGN_IN_WINDOW_MS } from './sign-in-guard.js';

/**
 * Requests to the ways in per network (an IPv4 address, an IPv6 /64) in 15 minutes, every way
 * together: a passkey sign-in is two (options, then the answer), so a person has a dozen tries
 * and more; a script has 30, then 429 until the window ends.
 */
export const STAFF_DOOR_PER_WINDOW = 30;
/** The calls here that need no limit: signing out, and asking whether one is signed in. */
const NOT_A_WAY_IN = new Set(['/api/admin/logout', '/api/admin/session']);

export const LINK_GONE = 'This link has expired or was already used. Ask the site owner for a new one.';

/** A new password on the list of common ones is refused, with the field named like the schema's. */
export function refuseCommonPassword(password: string | undefined, field = 'password') {
  if (password !== undefined && isCommonPassword(password))
    throw badRequest(COMMON_PASSWORD_MESSAGE, [{ path: field, message: COMMON_PASSWORD_MESSAGE }]);
}

export const adminAuthRoutes: FastifyPluginAsync<{
  auth: AdminAuth;
  passkeys: Passkeys;
  db: Db;
  clock: Clock;
  publicUrl: string;
  keyedHash: KeyedHash;
}> = async (app, { auth, passkeys, db, clock, publicUrl, keyedHash }) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  app.addHook('onRequest', sameSiteOnly(publicUrl));
  app.addHook('onRequest', async (request, reply) => {
    if (NOT_A_WAY_IN.has(request.routeOptions.url ?? '')) return;
    const limit = await addressLimit(keyedHash, {
      kind: 'staff-door',
      address: request.ip,
      max: STAFF_DOOR_PER_WINDOW,
      windowMs: SIGN_IN_WINDOW_MS,
    });
    const hit = await hitAddressLimit(db, limit, clock.now(), reportTo(request));
    if (hit.allowed) return;
    const minutes = Math.max(1, Math.ceil(hit.retryAfterMs / 60_000));
    reply.header('retry-after', String(minutes * 60));
    throw tooManyRequests(
      `Too many sign-in requests from your network. Please try again in ${minutes === 1 ? '1 minute' : `${minutes} minutes`}.`,
    );
  });
  const cookie = { sameSite: 'Strict' as const, secure: auth.secureCookies };

  async function signedIn(reply: FastifyReply, result: SignInResult): Promise<AdminSession> {
    if (result.outcome === 'throttled') {
      const minutes = result.retryAfterMinutes === 1 ? '1 minute' : `${result.retryAfterMinutes} minutes`;
      reply.header('retry-after', String(result.retryAfterMinutes * 60));
      throw tooManyRequests(`Too many failed sign-in attempts. Please try again in ${minutes}.`);
    }
    if (result.outcome === 'wrong-password') throw unauthorized('Incorrect email or password');
    setCookie(reply, auth.cookieName, result.token, { maxAgeSeconds: result.maxAgeSeconds, ...cookie });
    const staff = await auth.signedIn(result.token);
    return { authenticated: true, ...(staff ? { staff: await memberOf(staff.id) } : {}) };
  }

  const memberOf = async (id: number) => (await listStaff(db, id))[0];

  const current = (request: Parameters<typeof readCookie>[0]) => readCookie(request, auth.cookieName);

  api.post(
    '/api/admin/login',
    { schema: { summary: 'Sign in with e-mail and password', body: signInRequest, response: { 200: adminSession } } },
    async (request, reply): Promise<AdminSession> => {
      const { email, password } = request.body;
      const browser = browserOf(request.headers['user-agent']);
      return signedIn(
        reply,
        await auth.signIn(email, password, request.ip, browser, current(request), reportTo(request)),
      );
    },
  );

  api.post(
    '/api/admin/setup',
    {
      schema: {
        summary: 'Create the owner account (with the old admin password)',
        body: ownerSetupRequest,
        response: { 200: adminSession },
      },
    },
    async (request, reply): Promise<AdminSession> => {
      const { adminPassword, email, displayName, password } = request.body;
      refuseCommonPassword(password);
      const browser = browserOf(request.headers['user-agent']);
      const result = await auth.createFirstOwner(
        adminPassword,
        { email, displayName, password },
        request.ip,
        browser,
        reportTo(request),
      );
      if (result.outcome === 'owner-exists')
        throw conflict('The owner account exists already: sign in with your own e-mail and password or passkey.');
      if (result.outcome === 'wrong-password') throw unauthorized('Incorrect admin password');
      return signedIn(reply, result);
    },
  );

  api.post(
    '/api/admin/sign-in-link',
    { schema: { summary: 'Sign in with a one-time link', body: linkTokenRequest, response: { 200: adminSession } } },
    async (request, reply) => {
      const result = await auth.signInWithLink(
        request.body.token,
        browserOf(request.headers['user-agent']),
        current(request),
      );
      if (!result) throw notFound(LINK_GONE);
      return signedIn(reply, result);
    },
  );

  api.post(
    '/api/admin/passkeys/sign-in/options',
    { schema: { summary: 'Options for signing in with a passkey', response: { 200: passkeyOptions } } },
    async (request) => ({ ...(await passkeys.signInOptions(request.ip)) }),
  );

  api.post(
    '/api/admin/passkeys/sign-in',
    { schema: { summary: 'Sign in with a passkey', body: passkeySignInRequest, response: { 200: adminSession } } },
    async (request, reply) => {
      const browser = browserOf(request.headers['user-agent']);
      const result = await passkeys.signIn(request.body.response, browser, current(request));
      if (result === 'refused') throw unauthorized('That passkey was not accepted. Try again, or sign in another way.');
      return signedIn(reply, result);
    },
  );

  api.post(
    '/api/admin/invites/lookup',
    { schema: { summary: 'What an invite link offers', body: linkTokenRequest, response: { 200: inviteDetails } } },
    async (request): Promise<InviteDetails> => {
      const link = await findLiveLink(db, hashSecretToken(request.body.token), 'invite', clock.now().toISOString());
      if (!link?.email || !link.role) throw notFound(LINK_GONE);
      return { email: link.email, role: link.role };
    },
  );

  api.post(
    '/api/admin/invites/passkey-options',
    {
      schema: {
        summary: "Options for an invited person's first passkey",
        body: invitePasskeyOptionsRequest,
        response: { 200: passkeyOptions },
      },
    },
    async (request) => {
      const options = await passkeys.inviteOptions(request.body.token, request.body.displayName);
      if (!options) throw notFound(LINK_GONE);
      return { ...options };
    },
  );

  api.post(
    '/api/admin/invites/accept',
    { schema: { summary: 'Accept an invite and sign in', body: acceptInviteRequest, response: { 201: adminSession } } },
    async (request, reply) => {
      const { token, displayName, password, passkey } = request.body;
      const browser = browserOf(request.headers['user-agent']);
      let result: SignInResult | 'gone' | 'taken' | 'refused';
      if (passkey) {
        result = await passkeys.acceptInvite(token, displayName, passkey, browser);
      } else {
        if (password === undefined)
          throw badRequest('Please choose a password or a passkey.', [
            { path: 'password', message: 'Please choose a password or a passkey.' },
          ]);
        refuseCommonPassword(password);
        result = await auth.acceptInvite(token, { displayName, password }, browser);
      }
      if (result === 'gone') throw notFound(LINK_GONE);
      if (result === 'taken') throw conflict('There is already an account with this e-mail. Sign in instead.');
      if (result === 'refused') throw unauthorized('That passkey was not accepted. Please try again.');
      reply.status(201);
      return signedIn(reply, result);
    },
  );

  api.post(
    '/api/admin/logout',
    { schema: { summary: 'Sign out', response: { 200: confirmation } } },
    async (request, reply): Promise<Confirmation> => {
      await auth.signOut(current(request));
      setCookie(reply, auth.cookieName, '', { maxAgeSeconds: 0, ...cookie });
      return { message: 'Logged out' };
    },
  );

  api.get(
    '/api/admin/session',
    { schema: { summary: 'Who is signed in', response: { 200: adminSession } } },
    async (request): Promise<AdminSession> => {
      const staff = await auth.signedIn(current(request));
      if (!staff) return { authenticated: false, ...((await auth.needsOwner()) ? { needsOwner: true } : {}) };
      const member = await memberOf(staff.id);
      return { authenticated: true, ...(member ? { staff: member } : {}) };
    },
  );
};
