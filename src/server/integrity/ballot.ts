/**
 * The ballot a vote carries (shared/api.ts, Ballot): the poll, when its page first showed the
 * question, whether it was issued within its network's rate, a random part and a MAC under the
 * site's ballot key over all that *and the voter id of the browser it was issued to*, 28 bytes in
 * base64url. A vote that sends it back tells how long after the page it came (a person reads
 * before choosing; a loop does not); a vote without one came from no page. Verifying is one
 * HMAC: no database, no state shared between instances.
 *
 * Single use, across instances and restarts, with no state of its own (issue 37 item 7): a
 * ballot is good only with the voter cookie it was issued to, and that browser has one vote on
 * the poll, which the database's one-vote-per-voter constraint enforces on every instance. A
 * script that fetches one ballot and votes with fresh cookies sends, for every vote after the
 * first, a ballot of someone else: no ballot.
 *
 * Issued at a bounded rate per network (BALLOTS_PER_MINUTE, counted in the database for every
 * instance): past it a ballot is still issued, never refused (a school is not an attack), but it
 * reads as no ballot, so a flood of fetched ballots is a flood without pages.
 */
import { createHmac, randomFillSync, timingSafeEqual } from 'node:crypto';

const MAC_BYTES = 12;
const RANDOM_BYTES = 5;
/** Poll (4), time (6), within the rate (1), random (5), MAC (12). */
const TOKEN_BYTES = 4 + 6 + 1 + RANDOM_BYTES + MAC_BYTES;
const SIGNED_BYTES = TOKEN_BYTES - MAC_BYTES;

/**
 * Ballots that count as ballots, per network and minute: above a 120-teacher staff meeting's
 * busiest minute (about 90), below a flood at the write limit.
 */
export const BALLOTS_PER_MINUTE = 150;

/** A ballot older than this is no ballot: no page is left open on a phone for a day and a half. */
export const BALLOT_MAX_AGE_MS = 36 * 60 * 60 * 1000;

const CLOCK_SKEW_MS = 5_000;

/**
 * A page asks for its ballot on the first intent to vote, saying how long it has shown the
 * question; the ballot counts from then, up to this long before (a page-to-vote time past it is
 * no sign of a loop anyway).
 */
export const BALLOT_SHOWN_MAX_MS = 10 * 60 * 1000;

export interface BallotReading {
  /**
   * Milliseconds from the page being served to the vote; null when the ballot is missing,
   * forged, stale, for another poll or another browser, or was issued past its network's rate.
   */
  pageMs: number | null;
}

export function createBallots(key: string) {
  const mac = (bytes: Buffer, voterId: string) =>
    createHmac('sha256', key).update(bytes).update(voterId).digest().subarray(0, MAC_BYTES);

  return {
    /**
     * A ballot for a vote on `pollId` by the browser of `voterId`, whose page first showed the
     * question at `shownAt`; `withinRate`: its network's ballots this minute are within BALLOTS_PER_MINUTE.
     */
    issue(pollId: number, shownAt: number, voterId: string, withinRate = true): string {
      const token = Buffer.alloc(TOKEN_BYTES);
      token.writeUInt32BE(pollId, 0);
      token.writeUIntBE(shownAt, 4, 6);
      token.writeUInt8(withinRate ? 1 : 0, 10);
      randomFillSync(token, 11, RANDOM_BYTES);
      mac(token.subarray(0, SIGNED_BYTES), voterId).copy(token, SIGNED_BYTES);
      return token.toString('base64url');
    },

    /** Reads the ballot a vote on `pollId` by the browser of `voterId` sent at `now`. */
    redeem(token: string | undefined, pollId: number, now: number, voterId: string): BallotReading {
      if (token === undefined || token.length !== Math.ceil((TOKEN_BYTES * 4) / 3)) return { pageMs: null };
      const bytes = Buffer.from(token, 'base64url');
      if (
        bytes.length !== TOKEN_BYTES ||
        !timingSafeEqual(mac(bytes.subarray(0, SIGNED_BYTES), voterId), bytes.subarray(SIGNED_BYTES))
      ) {
        return { pageMs: null };
      }
      const servedAt = bytes.readUIntBE(4, 6);
      // Instances' clocks may differ by a little: a ballot "from the future" by less is read as just served.
      if (bytes.readUInt32BE(0) !== pollId || servedAt > now + CLOCK_SKEW_MS || now - servedAt > BALLOT_MAX_AGE_MS) {
        return { pageMs: null };
      }
      if (bytes.readUInt8(10) !== 1) return { pageMs: null };
      return { pageMs: Math.max(0, now - servedAt) };
    },
  };
}

export type Ballots = ReturnType<typeof createBallots>;
