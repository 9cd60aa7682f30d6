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

/** Counts one hit; true when it is within the limit. Run it inside the action's transaction. */
export async function hitRateLimit(db: Db, { key, max, windowMs }: RateLimit, now: Date): Promise<boolean> {
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
    .returning('hits')
    .executeTakeFirstOrThrow();
  return row.hits <= max;
}

/** Forgets counts whose window started before `before`. */
export async function deleteStaleRateLimits(db: Db, before: Date): Promise<void> {
  await db.deleteFrom('rate_limits').where('window_started_at', '<', before.toISOString()).execute();
}
