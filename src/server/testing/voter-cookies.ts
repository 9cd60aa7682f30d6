/** Voter cookies as the server signs them, for tests that start from a browser with a known id. */
import { systemClock } from '../clock.js';
import type { Db } from '../db/connection.js';
import { createVoterIds } from '../voters/voter-ids.service.js';

/**
 * The cookie value the server would have given `voterId` at `issuedAt`, under the site's key
 * (made by the app's first start on `db`, or here when no app has started yet).
 */
export async function signedVoterCookie(db: Db, voterId: string, issuedAt = Date.now()): Promise<string> {
  const voterIds = await createVoterIds({ db, clock: systemClock, secureCookies: false });
  return voterIds.sign(voterId, issuedAt);
}
