/**
 * The site's one rule for a per-address limit (issue 34, items 2 and 7), used by every one of
 * them: the write limit, votes' e-mail tries, subscribe, suggestions, push, the staff sign-in
 * routes.
 *
 * - Who is counted: a client's network (an IPv4 address, an IPv6 /64), and for IPv6 also its /48
 *   at WIDE_TIER_FACTOR times the limit: a /48 (free from tunnel brokers) holds 65,536 /64s, and
 *   rotating through them must not multiply the limit. An IPv4 /24 gets no tier of its own: it is
 *   a school or a carrier's customers as often as one client.
 * - As what: a keyed hash under the site day's address key, never the address. Each site day has
 *   a fresh random key, stored in `settings` so every instance shares it; the first instance to
 *   need today's key makes it and deletes every older one, with the counts made under them. After
 *   that nothing counted can be tied back to an address, even by someone holding the database.
 *   A count running across midnight starts again: the price of forgetting.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { votingDayAt, type SiteClock } from '../../shared/time.js';
import type { Clock } from '../clock.js';
import type { Db } from '../db/connection.js';
import { clearRateLimit, deleteStaleRateLimits, hitRateLimit, type Hit } from '../db/rate-limits.js';
import { settingOrInsert } from '../db/settings.js';
import { limitAddress, wideNetwork } from './client-address.js';
import type { CountReport } from './limit-headers.js';

/** An IPv6 /48's limit, as a multiple of the limit of one network (a /64). */
export const WIDE_TIER_FACTOR = 4;

/** A keyed hash under today's address key. */
export type KeyedHash = (value: string) => Promise<string>;

const KEY_SETTING = 'address_key:';

/** The daily address keys of the site: `hash` hashes under today's. */
export function createAddressKeys({ db, clock, site }: { db: Db; clock: Clock; site: SiteClock }) {
  let today: { day: string; key: Promise<Buffer> } | undefined;

  async function keyOf(day: string, now: Date): Promise<Buffer> {
    const name = `${KEY_SETTING}${day}`;
    const stored = await settingOrInsert(db, name, randomBytes(32).toString('base64'));
    // Yesterday's key and what was counted under it go: nothing can be tied to an address again.
    await db.deleteFrom('settings').where('name', 'like', `${KEY_SETTING}%`).where('name', '<', name).execute();
    await deleteStaleRateLimits(db, votingDayAt(now, site).startsAt);
    return Buffer.from(stored.value, 'base64');
  }

  return {
    async hash(value: string): Promise<string> {
      const now = clock.now();
      const day = votingDayAt(now, site).date;
      if (today?.day !== day) {
        const key = keyOf(day, now);
        today = { day, key };
        key.catch(() => {
          if (today?.key === key) today = undefined;
        });
      }
      return createHmac('sha256', await today.key)
        .update(value)
        .digest('hex');
    },
  };
}

export type AddressKeys = ReturnType<typeof createAddressKeys>;

/** A per-address limit to count, as `addressLimit` makes it. */
export interface AddressLimitRequest {
  /** What is counted ("subscribe", "sign-in"); the tiers' keys are `kind:` and `kind-48:`. */
  kind: string;
  /** The client's address, as the request gives it. */
  address: string;
  /** A network's (IPv4 address, IPv6 /64) count in a window; the /48's is WIDE_TIER_FACTOR times it. */
  max: number;
  windowMs: number;
}

/** The counts one request adds to: each tier's key (keyed hashes, no address) and limit. */
export interface AddressLimit {
  tiers: { key: string; max: number }[];
  windowMs: number;
}

/**
 * The tiers `address` is counted in. Hashed before any transaction the count runs in (making
 * today's key reads the database, which on SQLite a transaction would be holding).
 */
export async function addressLimit(
  keyedHash: KeyedHash,
  { kind, address, max, windowMs }: AddressLimitRequest,
): Promise<AddressLimit> {
  const wide = wideNetwork(address);
  const tiers = [{ key: `${kind}:${await keyedHash(limitAddress(address))}`, max }];
  if (wide !== null) tiers.push({ key: `${kind}-48:${await keyedHash(wide)}`, max: max * WIDE_TIER_FACTOR });
  return { tiers, windowMs };
}

/**
 * Counts one hit in every tier, in the database every instance shares (inside the action's
 * transaction when the action may be undone): allowed only when each tier is within its limit.
 * A tier past its limit stops the count there. Each count goes to `report`: the RateLimit headers
 * of the request it is made for (limit-headers.ts), when the caller has one.
 */
export async function hitAddressLimit(
  db: Db,
  { tiers, windowMs }: AddressLimit,
  now: Date,
  report?: CountReport,
): Promise<Hit> {
  let last: Hit = { allowed: true, hits: 0, retryAfterMs: 0 };
  for (const { key, max } of tiers) {
    last = await hitRateLimit(db, { key, max, windowMs }, now);
    // The tier's kind (`subscribe`, `subscribe-48`), never its keyed hash, names it in the headers.
    report?.({ name: key.slice(0, key.indexOf(':')), max, windowMs, hits: last.hits, resetMs: last.retryAfterMs });
    if (!last.allowed) return last;
  }
  return last;
}

/** Forgets the network's count (its /48's stays: one success there ends no run elsewhere). */
export async function clearAddressLimit(db: Db, { tiers }: AddressLimit): Promise<void> {
  const [network] = tiers;
  if (network) await clearRateLimit(db, network.key);
}
