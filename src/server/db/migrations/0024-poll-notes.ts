import type { Kysely } from 'kysely';
import { columnTypes } from './column-types.js';

/**
 * Staff notes (issue 39, item 3): "What we learned", one per poll, written by an editor after
 * the close. `body` is the Markdown as typed; it is rendered (a safe subset, no raw HTML) when
 * read, so a better renderer later changes every note at once. `updated_by` is the staff id
 * of the last edit (who and what is in the audit log); a deleted poll takes its note with it.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('poll_notes')
    .addColumn('poll_id', 'integer', (c) => c.primaryKey().references('polls.id').onDelete('cascade'))
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_by', 'integer')
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('poll_notes').execute();
}
