/**
 * A fresh, migrated database for every test of the describe block that calls this, dropped after
 * the test. `use` is handed it before each test, and before the block's own beforeEach hooks
 * (which run in the order they are declared, after this one).
 */
import { afterEach, beforeEach } from 'vitest';
import type { Db } from '../db/connection.js';
import { openTestDatabase, type DatabaseKind } from './test-database.js';

export function openDatabaseEachTest(kind: DatabaseKind, use: (db: Db) => void): void {
  let close: (() => Promise<void>) | undefined;
  beforeEach(async () => {
    const opened = await openTestDatabase(kind);
    close = opened.close;
    use(opened.db);
  });
  afterEach(async () => {
    await close?.();
    close = undefined;
  });
}
