/** A real app on a real database, for `app.inject()` tests. */
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from '../app.js';
import { loadConfig, type Config } from '../config.js';
import { openDatabase, type Db } from '../db/connection.js';
import { createTestDatabase, type DatabaseKind, type TestDatabase } from './test-database.js';
import { newYorkTime, TestClock } from './test-clock.js';
import { SmtpTestServer } from './smtp-test-server.js';

export const TEST_ADMIN_PASSWORD = 'correct horse battery staple';
/** The owner every test app starts with (ADMIN_EMAIL with ADMIN_PASSWORD, as a scripted install). */
export const TEST_ADMIN_EMAIL = 'owner@school.example';
/** The body of POST /api/admin/login that signs the test owner in. */
export const TEST_SIGN_IN = { email: TEST_ADMIN_EMAIL, password: TEST_ADMIN_PASSWORD };

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  clock: TestClock;
  config: Config;
  close(): Promise<void>;
}

export interface TestAppOptions extends Pick<
  AppOptions,
  | 'clientDir'
  | 'ssrEntry'
  | 'logStream'
  | 'announceAdminPassword'
  | 'outbox'
  | 'previewImages'
  | 'requestTimeoutMs'
  | 'onRoute'
  | 'proofOfWorkBaseMaxNumber'
  | 'pushAgent'
  | 'reminderSender'
> {
  /** Environment variables, as a deploy would set them. */
  env?: Record<string, string>;
  /** Defaults to 10:00 in New York on 2026-11-21, well before the close time. */
  now?: Date;
}

export async function createTestApp(kind: DatabaseKind, options: TestAppOptions = {}): Promise<TestApp> {
  return createTestAppOn(await createTestDatabase(kind, { migrated: true }), options);
}

/**
 * An app on an existing test database: call it twice with one database for two server
 * instances sharing it. Closing the app drops the database unless `keepDatabase` is set.
 */
export async function createTestAppOn(
  database: TestDatabase,
  options: TestAppOptions & { keepDatabase?: boolean } = {},
): Promise<TestApp> {
  const { env, now, keepDatabase, ...appOptions } = options;
  const config = loadConfig({
    DATABASE_URL: database.target.kind === 'sqlite' ? database.target.file : database.target.url,
    SITE_TIMEZONE: 'America/New_York',
    LOG_LEVEL: options.logStream ? 'info' : 'silent',
    ADMIN_EMAIL: TEST_ADMIN_EMAIL,
    ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
    ...env,
  });
  const db = openDatabase(config.database);
  const clock = new TestClock(now ?? newYorkTime('2026-11-21', '10:00'));
  const app = await buildApp({ ...appOptions, config, db, clock, clientDir: options.clientDir ?? null });
  return {
    app,
    db,
    clock,
    config,
    async close() {
      await app.close();
      await db.destroy();
      if (!keepDatabase) await database.drop();
    },
  };
}

export type MailTestApp = TestApp & { smtp: SmtpTestServer };

/** An app whose e-mail goes over SMTP to a real mail server in this process; closing stops both. */
export async function createTestAppWithMail(kind: DatabaseKind, options: TestAppOptions = {}): Promise<MailTestApp> {
  const smtp = new SmtpTestServer();
  await smtp.start();
  const t = await createTestApp(kind, {
    ...options,
    env: { SMTP_URL: smtp.url, MAIL_POSTAL_ADDRESS: '1 School Lane, Springfield, IL 62701', ...options.env },
  });
  return {
    ...t,
    smtp,
    async close() {
      await t.close();
      await smtp.stop();
    },
  };
}
