/**
 * Counting actions per key in a fixed window, in the database, so every instance shares one
 * count. The hit is counted before the action is allowed, in one atomic statement: a burst of
 * concurrent requests cannot all see the count from before any of them.
 */
import { sql } from 'kysely';
import type { Db } from './connection.js';

export interface RateLimit {
  /** What is counted, e.g. "subscribe", and whose, e.g. a keyed hash of an address. */
  key: string;
  max: number;
  windowMs: number;
}

export interface Hit {
  /** Whether this hit is within the limit. */
  allowed: boolean;
  /** The hits in the window, this one included. */
  hits: number;
  /** When the window ends: from then on the count starts again. */
  retryAfterMs: number;
}

/** Counts one hit. Run it inside the action's transaction when the action may be undone. */
export async function hitRateLimit(db: Db, { key, max, windowMs }: RateLimit, now: Date): Promise<Hit> {
  const at = now.toISOString();
  const expired = new Date(now.getTime() - windowMs).toISOString();
  const row = await db
    .insertInto('rate_limits')
    .values({ key, window_started_at: at, hits: 1 })
    .onConflict((conflict) =>
      conflict.column('key').doUpdateSet({
        hits: sql`case when rate_limits.window_started_at <= ${expired} then 1 else rate_limits.hits + 1 end`,
        window_started_at: sql`case when rate_limits.window_started_at <= ${expired} then ${at} else rate_limits.window_started_at end`,
      }),
    )
    .returning(['hits', 'window_started_at'])
    .executeTakeFirstOrThrow();
  return {
    allowed: row.hits <= max,
    hits: row.hits,
    retryAfterMs: new Date(row.window_started_at).getTime() + windowMs - now.getTime(),
  };
}

/** Forgets the count of `key` (a success that ends a run of failures). */
export async function clearRateLimit(db: Db, key: string): Promise<void> {
  await db.deleteFrom('rate_limits').where('key', '=', key).execute();
}

/** Forgets counts whose window started before `before`. */
export async function deleteStaleRateLimits(db: Db, before: Date): Promise<void> {
  await db.deleteFrom('rate_limits').where('window_started_at', '<', before.toISOString()).execute();
}

/** The hits of `key` in its window still running at `now` (0 when there are none). */
export async function countRateLimit(db: Db, key: string, windowMs: number, now: Date): Promise<number> {
  const row = await db
    .selectFrom('rate_limits')
    .select('hits')
    .where('key', '=', key)
    .where('window_started_at', '>', new Date(now.getTime() - windowMs).toISOString())
    .executeTakeFirst();
  return row?.hits ?? 0;
}

/** Forgets the counts of keys starting with `prefix` whose window started before `before`. */
export async function deleteEndedRateLimits(db: Db, prefix: string, before: Date): Promise<void> {
  await db
    .deleteFrom('rate_limits')
    .where('key', 'like', `${prefix}%`)
    .where('window_started_at', '<', before.toISOString())
    .execute();
}
