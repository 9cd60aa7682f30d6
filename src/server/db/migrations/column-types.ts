import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import { isPostgres } from '../connection.js';

/**
 * The few column types that SQLite and PostgreSQL spell differently. One migration serves
 * both; only these words change.
 */
export function columnTypes<T>(db: Kysely<T>) {
  const postgres = isPostgres(db);
  return {
    id: postgres ? ('serial' as const) : ('integer' as const),
    /** SQLite's AUTOINCREMENT (like a PostgreSQL sequence) never hands out a used id again. */
    idConstraints: (c: ColumnDefinitionBuilder) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()),
    timestamp: postgres ? ('timestamptz' as const) : ('text' as const),
    date: postgres ? ('date' as const) : ('text' as const),
  };
}
