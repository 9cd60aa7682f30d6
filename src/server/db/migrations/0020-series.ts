import type { Kysely } from 'kysely';
import { columnTypes } from './column-types.js';

/**
 * Series named by staff (issue 38, item 3). A series was until now only the runs sharing
 * polls.series_id (the id of its first run). poll_series gives each a short name and the slug
 * of its tracker (/trackers/<slug>), both editable by staff. Its id is that series_id: the row
 * goes with its first run. Every series already linked gets a row here, named after its
 * question, with the slug made from the name (a number added where two would meet).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('poll_series')
    .addColumn('id', 'integer', (c) => c.primaryKey().references('polls.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  const firstRuns = (await db
    .selectFrom('polls')
    .select(['id', 'question'])
    .where('id', 'in', db.selectFrom('polls').select('series_id').where('series_id', 'is not', null))
    .orderBy('id')
    .execute()) as { id: number; question: string }[];
  const { defaultSeriesName, slugOf } = await import('../../../shared/trackers.js');
  const taken = new Set<string>();
  const now = new Date().toISOString();
  for (const run of firstRuns) {
    const name = defaultSeriesName(run.question);
    const base = slugOf(name);
    let slug = base;
    for (let k = 2; taken.has(slug); k++) slug = `${base.slice(0, 55)}-${k}`;
    taken.add(slug);
    await db.insertInto('poll_series').values({ id: run.id, name, slug, updated_at: now }).execute();
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('poll_series').execute();
}
