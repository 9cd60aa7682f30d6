/**
 * The voter ids of the site: the key voter cookies are signed with, and what the database says
 * about bare ids from before signing (voters/voter-cookie.ts signs and checks the cookies).
 *
 * A bare id is taken only when the database knows it: it has votes or profile answers, so the
 * server issued it to a browser that used it (made-up ids from before signing that were voted
 * with are in the database too: they stay what they were, one voter each). Unknown bare ids
 * are no id.
 *
 * Re-issued once. The first write (a vote, a profile saved) that brings a known bare id sets
 * the same id back signed, and reissued_voter_ids records the id's SHA-256 and the time (the
 * first record stands). From then on the browser holds the signed cookie, so the bare form is a
 * copy: a restored backup, a copied cookie jar, a script replaying it. Sent again more than
 * REISSUE_GRACE_MS after the re-issue, it is no id: reads show nothing, a write gets a new id.
 * The grace is for the same browser's requests already under way when the signed cookie was
 * set: a page's reads sent together, and a vote retried because its answer was lost on a
 * school's Wi-Fi, which without it would be counted again under a new id. Reads set no cookie
 * and re-issue nothing, so a browser that only reads keeps its bare id until its next write;
 * each such read costs one query by key, and every other request none.
 *
 * The id is kept by its hash, as the tokens the site hands out are (db/secret-tokens.ts): the
 * table outlives the votes and profiles a poll's deletion or "Forget this browser" removes.
 *
 * A re-issued id's issuedAt is when the database first saw it (its first vote), not now: the
 * id is at least that old, so the cookie's age stays true. Were it now, every returning voter
 * on the day of this release would look like a brand-new cookie.
 */
import type { Clock } from '../clock.js';
import type { Db } from '../db/connection.js';
import { hashSecretToken } from '../db/secret-tokens.js';
import { siteKey } from '../db/settings.js';
import { VoterIds, type LegacyVoterIds } from './voter-cookie.js';
import { findLegacyVoter, markReissued, type LegacyVoterRecord } from './voter-ids.repository.js';

/** The setting that holds the signing key (base64, 256 bits), made on the site's first start. */
export const VOTER_COOKIE_KEY = 'voter_cookie_key';

/** How long after its re-issue a bare id is still taken from requests already under way. */
export const REISSUE_GRACE_MS = 10 * 60_000;

/** The key voter cookies are signed with: VOTER_COOKIE_KEY's, or made on the first start and shared by every instance. */
export async function voterCookieKey(db: Db, fromEnvironment?: string): Promise<Buffer> {
  return Buffer.from(await siteKey(db, VOTER_COOKIE_KEY, { fromEnvironment }), 'base64');
}

export function createLegacyVoterIds(db: Db, clock: Clock): LegacyVoterIds {
  /** When the id was first seen, if it may be taken now. */
  const usable = ({ firstSeenAt, reissuedAt }: LegacyVoterRecord, now: Date): number | null => {
    if (firstSeenAt === null) return null;
    if (reissuedAt !== null && now.getTime() - reissuedAt.getTime() > REISSUE_GRACE_MS) return null;
    return firstSeenAt.getTime();
  };
  return {
    async find(id) {
      return usable(await findLegacyVoter(db, id, hashSecretToken(id)), clock.now());
    },
    async reissue(id) {
      const now = clock.now();
      const idHash = hashSecretToken(id);
      const record = await findLegacyVoter(db, id, idHash);
      const firstSeen = usable(record, now);
      if (firstSeen !== null && record.reissuedAt === null) await markReissued(db, idHash, now);
      return firstSeen;
    },
  };
}

/** The voter cookies of the site, signed with its key. */
export async function createVoterIds({
  db,
  clock,
  secureCookies,
  key,
}: {
  db: Db;
  clock: Clock;
  secureCookies: boolean;
  /** VOTER_COOKIE_KEY, when the environment gives it. */
  key?: string | undefined;
}): Promise<VoterIds> {
  return new VoterIds({
    key: await voterCookieKey(db, key),
    clock,
    secureCookies,
    legacy: createLegacyVoterIds(db, clock),
  });
}
