/**
 * Everything the site's database stores, table by table: what, why and for how long, as data
 * (stored-data.json). The privacy page lists it as it is written there, and
 * `src/server/db/stored-data.test.ts` checks it against the migrated schema (every table and
 * every column, on SQLite and PostgreSQL), so a table or column added without a line there
 * fails the tests.
 */
import file from './stored-data.json' with { type: 'json' };

export interface StoredTable {
  table: string;
  /** What a row holds, in words a visitor reads. */
  what: string;
  why: string;
  howLong: string;
  /** Every column of the table, exactly as the schema names them. */
  columns: readonly string[];
}

export const STORED_DATA: readonly StoredTable[] = file;
