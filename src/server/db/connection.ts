/**
 * Opens the database named by the configuration: SQLite (a file, no set-up) or PostgreSQL.
 * The rest of the server sees only Kysely and does not care which.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresAdapter, PostgresDialect, SqliteDialect, type SqliteDatabase } from 'kysely';
import pg from 'pg';
import type { DatabaseTarget } from '../config.js';
import type { Database } from './tables.js';

export type Db = Kysely<Database>;

// Counts and sums come back as int8; they stay far below 2^53, so read them as numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
// A date is a calendar day, not an instant: keep 'YYYY-MM-DD' rather than local midnight.
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);

export function openDatabase(target: DatabaseTarget): Db {
  if (target.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: withDefaultPostgresUser(target.url), max: 10 });
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  }
  if (target.file !== ':memory:') fs.mkdirSync(path.dirname(target.file), { recursive: true });
  const sqlite = new BetterSqlite3(target.file);
  // WAL lets readers run during a write; NORMAL syncs at checkpoints, which is safe in WAL mode.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // Keep the hot part of a large votes table in memory: 64 MB of page cache, and reads through
  // a memory map instead of a system call per page.
  sqlite.pragma('cache_size = -65536');
  sqlite.pragma('mmap_size = 268435456');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
}

/**
 * Like libpq (psql), connect as the operating-system user when the URL names no user. The pg
 * driver would use $USER, which is unset in some service managers and CI runners.
 */
export function withDefaultPostgresUser(url: string): string {
  const parsed = new URL(url);
  if (parsed.username !== '') return url;
  parsed.username = encodeURIComponent(process.env.PGUSER || process.env.USER || os.userInfo().username);
  return parsed.href;
}

/**
 * Kysely prepares every query anew; preparing costs more than running these small statements.
 * Kysely queries have a fixed SQL text per shape, so a cache keyed by SQL stays small.
 */
function withStatementCache(sqlite: BetterSqlite3.Database): SqliteDatabase {
  const statements = new Map<string, BetterSqlite3.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql) {
      let statement = statements.get(sql);
      if (!statement) {
        statement = sqlite.prepare(sql);
        if (statements.size >= 1000) statements.clear();
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}

export function isPostgres<T>(db: Kysely<T>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
