/**
 * A fresh, empty database for each test file: a new SQLite file, or a new schema on the
 * PostgreSQL server named by TEST_DATABASE_URL. Real databases, never a stand-in.
 */
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

export async function createTestDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  if (kind === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hot-take-test-'));
    return {
      kind,
      target: { kind: 'sqlite', file: path.join(dir, 'test.sqlite') },
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error('TEST_DATABASE_URL is not set');
  const schema = `test_${randomBytes(6).toString('hex')}`;
  await withClient(serverUrl, (client) => client.query(`create schema ${schema}`));
  const url = new URL(serverUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    kind,
    target: { kind: 'postgres', url: url.href },
    drop: () => withClient(serverUrl, (client) => client.query(`drop schema ${schema} cascade`)).then(() => undefined),
  };
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
  const database = await createTestDatabase(kind);
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
