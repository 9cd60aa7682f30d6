/**
 * The only place SQL about named series (poll_series, migration 0020) lives. A series is the
 * runs sharing polls.series_id; its row names it and gives its tracker's slug.
 */
import { defaultSeriesName, slugOf } from '../../shared/trackers.js';
import type { Db } from '../db/connection.js';
import { isUniqueViolation } from '../db/errors.js';
import type { PollStatus } from '../db/tables.js';

export interface SeriesRow {
  id: number;
  name: string;
  slug: string;
}

/** A slug from `base` that no other series has: `base`, then `base-2`, `base-3`… */
async function freeSlug(db: Db, base: string, exceptId: number): Promise<string> {
  const rows = await db
    .selectFrom('poll_series')
    .select('slug')
    .where('id', '!=', exceptId)
    .where((eb) => eb.or([eb('slug', '=', base), eb('slug', 'like', `${base.slice(0, 55)}-%`)]))
    .execute();
  const taken = new Set(rows.map((row) => row.slug));
  let slug = base;
  for (let k = 2; taken.has(slug); k++) slug = `${base.slice(0, 55)}-${k}`;
  return slug;
}

/**
 * Gives series `seriesId` (the id of its first run) its row, named after that run's question,
 * unless it has one. Run it in the transaction that links the runs.
 */
export async function ensureSeries(db: Db, seriesId: number, now: Date): Promise<void> {
  const exists = await db.selectFrom('poll_series').select('id').where('id', '=', seriesId).executeTakeFirst();
  if (exists) return;
  const first = await db.selectFrom('polls').select('question').where('id', '=', seriesId).executeTakeFirst();
  if (!first) return;
  const name = defaultSeriesName(first.question);
  const slug = await freeSlug(db, slugOf(name), seriesId);
  await db
    .insertInto('poll_series')
    .values({ id: seriesId, name, slug, updated_at: now.toISOString() })
    .onConflict((conflict) => conflict.column('id').doNothing())
    .execute();
}

export async function findSeriesBySlug(db: Db, slug: string): Promise<SeriesRow | undefined> {
  return db.selectFrom('poll_series').select(['id', 'name', 'slug']).where('slug', '=', slug).executeTakeFirst();
}

export async function findSeriesById(db: Db, id: number): Promise<SeriesRow | undefined> {
  return db.selectFrom('poll_series').select(['id', 'name', 'slug']).where('id', '=', id).executeTakeFirst();
}

/** The named series of these series ids. */
export async function seriesNamed(db: Db, ids: readonly number[]): Promise<Map<number, SeriesRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('poll_series').select(['id', 'name', 'slug']).where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [row.id, row]));
}

export interface SeriesRunRow {
  seriesId: number;
  pollId: number;
  pollNumber: number;
  liveDate: string;
  status: PollStatus;
}

/** Every named series with every run (scheduled too), oldest run first: for staff. */
export async function listSeriesWithRuns(db: Db): Promise<{ series: SeriesRow[]; runs: SeriesRunRow[] }> {
  const series = await db.selectFrom('poll_series').select(['id', 'name', 'slug']).orderBy('id', 'desc').execute();
  const runs = await db
    .selectFrom('polls')
    .innerJoin('poll_series', 'poll_series.id', 'polls.series_id')
    .select(['polls.series_id as seriesId', 'polls.id as pollId', 'poll_number', 'live_date', 'status'])
    .orderBy('live_date')
    .orderBy('poll_number')
    .execute();
  return {
    series,
    runs: runs.map((row) => ({
      seriesId: row.seriesId as number,
      pollId: row.pollId,
      pollNumber: row.poll_number,
      liveDate: row.live_date,
      status: row.status,
    })),
  };
}

/** Renames a series; 'slug-taken' when another series has that slug (nothing changes). */
export async function renameSeries(
  db: Db,
  id: number,
  change: { name: string; slug: string },
  now: Date,
): Promise<'updated' | 'not-found' | 'slug-taken'> {
  const other = await findSeriesBySlug(db, change.slug);
  if (other && other.id !== id) return 'slug-taken';
  try {
    const result = await db
      .updateTable('poll_series')
      .set({ name: change.name, slug: change.slug, updated_at: now.toISOString() })
      .where('id', '=', id)
      .executeTakeFirst();
    return result.numUpdatedRows === 0n ? 'not-found' : 'updated';
  } catch (error) {
    if (isUniqueViolation(error)) return 'slug-taken';
    throw error;
  }
}
