/** A real app on a real database, for `app.inject()` tests. */
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.js';
import { loadConfig, type Config } from '../config.js';
import { openDatabase, type Db } from '../db/connection.js';
import { createTestDatabase, type DatabaseKind, type TestDatabase } from './test-database.js';
import { newYorkTime, TestClock } from './test-clock.js';
import type { OutboxSettings } from '../email/outbox.worker.js';
import type { LogStream } from '../http/logging.js';
import type { PreviewImages } from '../og/og.routes.js';

export const TEST_ADMIN_PASSWORD = 'correct horse battery staple';

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  clock: TestClock;
  config: Config;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Environment variables, as a deploy would set them. */
  env?: Record<string, string>;
  /** Defaults to 10:00 in New York on 2026-11-21, well before the close time. */
  now?: Date;
  clientDir?: string | null;
  logStream?: LogStream;
  announceAdminPassword?: (password: string) => void;
  outbox?: Partial<OutboxSettings>;
  previewImages?: PreviewImages;
  requestTimeoutMs?: number;
}

export async function createTestApp(kind: DatabaseKind, options: TestAppOptions = {}): Promise<TestApp> {
  return createTestAppOn(await createTestDatabase(kind), options);
}

/**
 * An app on an existing test database: call it twice with one database for two server
 * instances sharing it. Closing the app drops the database unless `keepDatabase` is set.
 */
export async function createTestAppOn(
  database: TestDatabase,
  options: TestAppOptions & { keepDatabase?: boolean } = {},
): Promise<TestApp> {
  const config = loadConfig({
    DATABASE_URL: database.target.kind === 'sqlite' ? database.target.file : database.target.url,
    SITE_TIMEZONE: 'America/New_York',
    LOG_LEVEL: options.logStream ? 'info' : 'silent',
    ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
    ...options.env,
  });
  const db = openDatabase(config.database);
  const clock = new TestClock(options.now ?? newYorkTime('2026-11-21', '10:00'));
  const app = await buildApp({
    config,
    db,
    clock,
    clientDir: options.clientDir ?? null,
    ...(options.logStream ? { logStream: options.logStream } : {}),
    ...(options.announceAdminPassword ? { announceAdminPassword: options.announceAdminPassword } : {}),
    ...(options.outbox ? { outbox: options.outbox } : {}),
    ...(options.previewImages ? { previewImages: options.previewImages } : {}),
    ...(options.requestTimeoutMs ? { requestTimeoutMs: options.requestTimeoutMs } : {}),
  });
  return {
    app,
    db,
    clock,
    config,
    async close() {
      await app.close();
      await db.destroy();
      if (!options.keepDatabase) await database.drop();
    },
  };
}
