/**
 * A fresh, empty database for each test file: a new SQLite file, or a new schema on the
 * PostgreSQL server named by TEST_DATABASE_URL. Real databases, never a stand-in.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { DatabaseTarget } from '../config.js';
import { openDatabase, withDefaultPostgresUser, type Db } from '../db/connection.js';
import { migrateToLatest } from '../db/migrate.js';

export type DatabaseKind = 'sqlite' | 'postgres';

export interface TestDatabase {
  kind: DatabaseKind;
  target: DatabaseTarget;
  drop(): Promise<void>;
}

/**
 * Which databases the database-backed tests run on: SQLite always, PostgreSQL as well when
 * TEST_DATABASE_URL is set. TEST_DATABASES=postgres runs PostgreSQL alone (the CI's PG suite).
 */
export function testDatabaseKinds(): DatabaseKind[] {
  const only = process.env.TEST_DATABASES;
  if (only === 'postgres' || only === 'sqlite') return [only];
  return process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
}

/**
 * A fresh database. `migrated`: a copy of one migrated once per test process (sqliteTemplate,
 * postgresTemplate), which the app's own migration at start then finds up to date; an empty
 * one otherwise.
 */
export async function createTestDatabase(
  kind: DatabaseKind,
  { migrated = false }: { migrated?: boolean } = {},
): Promise<TestDatabase> {
  if (kind === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hot-take-test-'));
    if (migrated) fs.writeFileSync(path.join(dir, 'test.sqlite'), await sqliteTemplate());
    return {
      kind,
      target: { kind: 'sqlite', file: path.join(dir, 'test.sqlite') },
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  if (!process.env.TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set');
  const serverUrl = await workerDatabase(process.env.TEST_DATABASE_URL);
  const schema = `test_${randomBytes(6).toString('hex')}`;
  const template = migrated ? await postgresTemplate(serverUrl) : null;
  await withClient(serverUrl, (client) =>
    client.query(
      template ? `begin;\n${template.dump.replaceAll(template.schema, schema)}\ncommit;` : `create schema ${schema}`,
    ),
  );
  const url = new URL(serverUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    kind,
    target: { kind: 'postgres', url: url.href },
    drop: () => withClient(serverUrl, (client) => client.query(`drop schema ${schema} cascade`)).then(() => undefined),
  };
}

let migratedSqlite: Promise<Buffer> | undefined;

/**
 * The bytes of an SQLite file migrated to the latest schema, made once per test process and
 * written out for each test that wants a migrated database: that takes a millisecond, where
 * migrating a new file from nothing took 150-350 ms before every test that starts an app
 * (2026-12-07, load 13). The file is closed before it is read, so it holds everything (no -wal
 * beside it), and removed at once: a test process stopped by a signal leaves nothing behind.
 */
function sqliteTemplate(): Promise<Buffer> {
  migratedSqlite ??= (async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hot-take-template-'));
    try {
      const file = path.join(dir, 'template.sqlite');
      const db = openDatabase({ kind: 'sqlite', file });
      try {
        await migrateToLatest(db);
      } finally {
        await db.destroy();
      }
      return fs.readFileSync(file);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  })();
  return migratedSqlite;
}

let migratedPostgres: Promise<{ schema: string; dump: string } | null> | undefined;

/**
 * A migrated PostgreSQL schema as SQL (pg_dump's, schema, data and all, of a schema migrated once
 * per test process), for a test that wants a migrated database to make its own by sending it
 * back under its own name: one round trip, 310-670 ms where migrating a new schema took
 * 550-1,100 ms (2026-12-07, load 11). The template's name is random, so that it stands for
 * nothing else in the text. Without pg_dump, null: each schema is then migrated by the app.
 */
function postgresTemplate(serverUrl: string): Promise<{ schema: string; dump: string } | null> {
  migratedPostgres ??= (async () => {
    const schema = `test_template_${randomBytes(6).toString('hex')}`;
    await withClient(serverUrl, (client) => client.query(`create schema ${schema}`));
    try {
      const url = new URL(serverUrl);
      url.searchParams.set('options', `-c search_path=${schema}`);
      const db = openDatabase({ kind: 'postgres', url: url.href });
      try {
        await migrateToLatest(db);
      } finally {
        await db.destroy();
      }
      const dump = await new Promise<string | null>((resolve, reject) => {
        execFile(
          'pg_dump',
          [
            '--dbname',
            withDefaultPostgresUser(serverUrl),
            '--schema',
            schema,
            '--inserts',
            '--no-owner',
            '--no-privileges',
          ],
          { maxBuffer: 64 * 1024 * 1024 },
          (error, stdout) => {
            if (!error) resolve(stdout);
            else if (error.code === 'ENOENT') resolve(null);
            else reject(new Error(`pg_dump failed: ${error.message}`, { cause: error }));
          },
        );
      });
      // psql's own commands (\restrict) are not SQL.
      return dump === null
        ? null
        : {
            schema,
            dump: dump
              .split('\n')
              .filter((line) => !line.startsWith('\\'))
              .join('\n'),
          };
    } finally {
      await withClient(serverUrl, (client) => client.query(`drop schema ${schema} cascade`));
    }
  })();
  return migratedPostgres;
}

let workerDatabaseUrl: Promise<string> | undefined;

/**
 * The database this test worker makes its schemas in: one of its own beside the one named,
 * made once. Kysely's migrator looks for its tables in every schema of the database, naming
 * each as it goes, so a schema another worker drops meanwhile fails the migration ("schema
 * does not exist"); another database's schemas are not in its catalog. Where databases cannot
 * be made, the schemas go in the one named.
 */
function workerDatabase(serverUrl: string): Promise<string> {
  const worker = process.env.VITEST_POOL_ID;
  if (!worker) return Promise.resolve(serverUrl);
  workerDatabaseUrl ??= (async () => {
    const url = new URL(serverUrl);
    const name = `${decodeURIComponent(url.pathname.slice(1)) || 'test'}_worker_${worker}`.replace(/\W/g, '_');
    const made = await withClient(serverUrl, (client) =>
      // template0 takes no connections, so workers making theirs at once never wait on it.
      client.query(`create database ${name} template template0`).then(
        () => true,
        (error: unknown) => {
          const code = (error as { code?: string }).code;
          if (code === '42P04') return true; // made by an earlier run
          if (code === '42501') return false; // not allowed to make databases
          throw error;
        },
      ),
    );
    if (made) url.pathname = `/${name}`;
    return url.href;
  })();
  return workerDatabaseUrl;
}

async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: withDefaultPostgresUser(url) });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/** A fresh, migrated database, opened; `close` also drops it. */
export async function openTestDatabase(kind: DatabaseKind): Promise<{ db: Db; close: () => Promise<void> }> {
  const database = await createTestDatabase(kind, { migrated: true });
  const db = openDatabase(database.target);
  await migrateToLatest(db);
  return {
    db,
    close: async () => {
      await db.destroy();
      await database.drop();
    },
  };
}
