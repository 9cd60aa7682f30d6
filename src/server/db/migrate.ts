import { Migrator, sql, type Kysely } from 'kysely';
import { isPostgres } from './connection.js';
import { migrations } from './migrations/index.js';

/**
 * Brings the schema up to date. Safe to run from several instances at once: Kysely holds a
 * lock row while it migrates, so one instance migrates and the others wait.
 */
export async function migrateToLatest<T>(db: Kysely<T>): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
    // On PostgreSQL, Kysely looks for its own tables in every schema unless told which one:
    // another app's (or another schema's) migration tables would make it skip creating ours.
    ...(isPostgres(db) ? { migrationTableSchema: await currentSchema(db) } : {}),
  });
  const { error, results = [] } = await migrator.migrateToLatest();
  const failed = results.find((result) => result.status === 'Error');
  if (error || failed) {
    const cause = error instanceof Error ? error : new Error(String(error));
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${cause.message}`, { cause });
  }
  return results.map((result) => result.migrationName);
}

async function currentSchema<T>(db: Kysely<T>): Promise<string> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  const schema = rows[0]?.schema;
  if (!schema) throw new Error('PostgreSQL has no current schema: check the search_path of DATABASE_URL.');
  return schema;
}
