import { Migrator, type Kysely } from 'kysely';
import { migrations } from './migrations/index.js';

/**
 * Brings the schema up to date. Safe to run from several instances at once: Kysely holds a
 * lock row while it migrates, so one instance migrates and the others wait.
 */
export async function migrateToLatest<T>(db: Kysely<T>): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
  });
  const { error, results = [] } = await migrator.migrateToLatest();
  const failed = results.find((result) => result.status === 'Error');
  if (error || failed) {
    const cause = error instanceof Error ? error : new Error(String(error));
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${cause.message}`, { cause });
  }
  return results.map((result) => result.migrationName);
}
