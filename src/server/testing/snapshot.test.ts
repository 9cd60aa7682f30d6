import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { snapshotDatabase } from './snapshot.js';
import { openTestDatabase, testDatabaseKinds } from './test-database.js';

describe.each(testDatabaseKinds())('snapshotDatabase (%s)', (kind) => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it('reads every table of the migrated database but the limit counts', async () => {
    const test = await openTestDatabase(kind);
    close = test.close;
    const snapshot = await snapshotDatabase(test.db);
    expect(snapshot).toHaveProperty('votes');
    expect(snapshot).not.toHaveProperty('rate_limits');
  });

  it('refuses to vouch for a database holding a table it does not read (a migration that created one without a type)', async () => {
    const test = await openTestDatabase(kind);
    close = test.close;
    await sql`create table staff_notes (id integer primary key, note text)`.execute(test.db);
    await expect(snapshotDatabase(test.db)).rejects.toThrow(
      /^The database has tables the snapshot does not read: staff_notes\. /,
    );
  });
});
