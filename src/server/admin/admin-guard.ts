/**
 * What stands in front of every admin call: requests that change something must come from this
 * site (not a page elsewhere riding on the staff cookie), and all of them need a session.
 */
import type { FastifyRequest } from 'fastify';
import { readCookie } from '../http/cookies.js';
import { unauthorized } from '../http/errors.js';
import { sameSiteOnly } from '../http/same-site.js';
import type { AdminAuth } from './admin-auth.service.js';

export const ADMIN_COOKIE = 'admin_session';

export { sameSiteOnly };

/** Answers 401 unless the request carries a live staff session. */
export function signedInOnly(auth: AdminAuth) {
  return async (request: FastifyRequest) => {
    if (!(await auth.isSignedIn(readCookie(request, ADMIN_COOKIE)))) {
      throw unauthorized('Please sign in to the admin panel.');
    }
  };
}
