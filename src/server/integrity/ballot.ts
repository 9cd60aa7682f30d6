/**
 * The ballot a served page carries (ActivePoll.ballot): the poll, when it was served, a random
 * part and a MAC under the site's ballot key, 28 bytes in base64url. A vote that sends it back
 * tells how long after the page it came (a person reads before choosing; a loop does not), and
 * a vote without one came from no page. Verifying is one HMAC: no database, no state shared
 * between instances.
 *
 * A script can fetch a page and reuse its ballot for many votes. Each instance remembers the
 * ballots it has seen for a day's worth of votes (bounded), and a ballot seen before counts as
 * none; across instances a reused ballot may count once per instance, which is still once per
 * instance against thousands of votes.
 */
import { createHmac, randomFillSync, timingSafeEqual } from 'node:crypto';

const MAC_BYTES = 12;
const RANDOM_BYTES = 6;
const TOKEN_BYTES = 4 + 6 + RANDOM_BYTES + MAC_BYTES;

/** A ballot older than this is no ballot: no page is left open on a phone for a day and a half. */
export const BALLOT_MAX_AGE_MS = 36 * 60 * 60 * 1000;

const CLOCK_SKEW_MS = 5_000;

/**
 * A page asks for its ballot on the first intent to vote, saying how long it has shown the
 * question; the ballot counts from then, up to this long before (a page-to-vote time past it is
 * no sign of a loop anyway).
 */
export const BALLOT_SHOWN_MAX_MS = 10 * 60 * 1000;

/** How many used ballots an instance remembers; the oldest are forgotten first. */
const REMEMBERED_BALLOTS = 200_000;

export interface BallotReading {
  /** Milliseconds from the page being served to the vote; null when the ballot is missing, forged, stale, for another poll or used before. */
  pageMs: number | null;
}

export function createBallots(key: string) {
  const mac = (bytes: Buffer) => createHmac('sha256', key).update(bytes).digest().subarray(0, MAC_BYTES);
  const used = new Map<string, true>();

  return {
    /** A ballot for a vote on `pollId` from a page served at `now`. */
    issue(pollId: number, now: number): string {
      const token = Buffer.alloc(TOKEN_BYTES);
      token.writeUInt32BE(pollId, 0);
      token.writeUIntBE(now, 4, 6);
      randomFillSync(token, 10, RANDOM_BYTES);
      mac(token.subarray(0, 16)).copy(token, 16);
      return token.toString('base64url');
    },

    /** Reads the ballot a vote on `pollId` sent at `now`, and remembers it as used. */
    redeem(token: string | undefined, pollId: number, now: number): BallotReading {
      if (token === undefined || token.length !== Math.ceil((TOKEN_BYTES * 4) / 3)) return { pageMs: null };
      const bytes = Buffer.from(token, 'base64url');
      if (bytes.length !== TOKEN_BYTES || !timingSafeEqual(mac(bytes.subarray(0, 16)), bytes.subarray(16))) {
        return { pageMs: null };
      }
      const servedAt = bytes.readUIntBE(4, 6);
      // Instances' clocks may differ by a little: a ballot "from the future" by less is read as just served.
      if (bytes.readUInt32BE(0) !== pollId || servedAt > now + CLOCK_SKEW_MS || now - servedAt > BALLOT_MAX_AGE_MS) {
        return { pageMs: null };
      }
      if (used.has(token)) return { pageMs: null };
      if (used.size >= REMEMBERED_BALLOTS) used.delete(used.keys().next().value as string);
      used.set(token, true);
      return { pageMs: Math.max(0, now - servedAt) };
    },
  };
}

export type Ballots = ReturnType<typeof createBallots>;
