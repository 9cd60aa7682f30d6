/**
 * Opens the database named by the configuration: SQLite (a file, no set-up) or PostgreSQL.
 * The rest of the server sees only Kysely and does not care which.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  PostgresAdapter,
  PostgresDialect,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type SqliteDatabase,
  type SqliteDialectConfig,
} from 'kysely';
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
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    postgresPools.set(db, pool);
    return db;
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
  const db = new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: withStatementCache(sqlite) }) });
  sqliteHandles.set(db, sqlite);
  return db;
}

/**
 * A read-only connection of its own to a SQLite file (WAL: it reads while the site writes, each
 * statement seeing what was committed when it began), for work kept off the site's connection,
 * such as search's worker thread (search/search.worker.ts).
 */
export function openReadOnlySqlite(file: string): Db {
  const sqlite = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('cache_size = -16384');
  sqlite.pragma('mmap_size = 268435456');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
}

/** The file under a SQLite Db, or undefined: PostgreSQL, or SQLite in memory. */
export function sqliteFileOf(db: Db): string | undefined {
  const sqlite = sqliteHandles.get(db);
  return sqlite && !sqlite.memory ? sqlite.name : undefined;
}

const sqliteHandles = new WeakMap<Db, BetterSqlite3.Database>();
const postgresPools = new WeakMap<Db, pg.Pool>();

/** The connection pool under a PostgreSQL Db (for its figures in /metrics). */
export function postgresPoolOf(db: Db): pg.Pool | undefined {
  return postgresPools.get(db);
}

/**
 * The better-sqlite3 handle under a SQLite Db, for the one hot path that runs a whole batch of
 * statements synchronously (group-committed votes). Use it only while holding Kysely's
 * connection (`db.connection().execute(...)`), so no Kysely transaction is open on it.
 */
export function sqliteHandleOf(db: Db): BetterSqlite3.Database | undefined {
  return sqliteHandles.get(db);
}

/**
 * SQLite transactions that take the write lock when they begin. Kysely begins them DEFERRED:
 * two connections (two instances, or a migration beside a server) that both read before
 * writing then deadlock on the upgrade, which SQLite reports at once as "database is locked"
 * instead of waiting its busy timeout.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;

  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }
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
