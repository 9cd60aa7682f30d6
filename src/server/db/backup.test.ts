/** `npm run db:backup -- FILE` copies the SQLite database while the site serves, and the copy holds every row. */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { seedPoll } from '../testing/fixtures.js';
import { snapshotDatabase } from '../testing/snapshot.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { Visitor } from '../testing/visitor.js';
import { backupSqlite } from './backup.js';
import { openDatabase } from './connection.js';

const CLI = path.resolve(import.meta.dirname, '../cli/backup.ts');

function runBackup(env: Record<string, string>, file: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, file], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise<{ code: number | null; output: string }>((resolve) =>
    child.on('exit', (code) => resolve({ code, output })),
  );
}

describe('db:backup', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('copies the database while the site takes votes, and the restored copy has every row', async () => {
    t = await createTestApp('sqlite');
    const app = t;
    const poll = await seedPoll(app.db, { options: ['Yes', 'No'], votes: [120, 80] });
    const source = app.config.database.kind === 'sqlite' ? app.config.database.file : '';
    const copy = path.join(path.dirname(source), 'backup', 'copy.sqlite');

    // Votes keep arriving while the copy is taken.
    let voting = true;
    const votes: Promise<unknown>[] = [];
    const keepVoting = async () => {
      while (voting) await new Visitor(app.app).vote(poll.id, 1);
    };
    votes.push(keepVoting());
    const backup = await backupSqlite(source, copy);
    voting = false;
    await Promise.all(votes);
    expect(backup.pages).toBeGreaterThan(0);

    // Restored on its own, the copy is consistent: its tallies equal its vote rows ...
    const restored = openDatabase({ kind: 'sqlite', file: copy });
    try {
      const snapshot = await snapshotDatabase(restored);
      const tallied = (snapshot.poll_options as { vote_count: number }[]).reduce((sum, row) => sum + row.vote_count, 0);
      expect(snapshot.votes?.length).toBeGreaterThanOrEqual(200);
      expect(tallied).toBe(snapshot.votes?.length);

      // ... and a copy taken by `npm run db:backup` has every row of the original.
      const quiet = path.join(path.dirname(copy), 'quiet.sqlite');
      expect((await runBackup({ DATABASE_URL: source }, quiet)).code).toBe(0);
      const quietCopy = openDatabase({ kind: 'sqlite', file: quiet });
      try {
        expect(await snapshotDatabase(quietCopy)).toEqual(await snapshotDatabase(app.db));
      } finally {
        await quietCopy.destroy();
      }
    } finally {
      await restored.destroy();
    }
    expect(fs.existsSync(copy)).toBe(true);
  }, 90_000);

  it('refuses PostgreSQL with a clear message', async () => {
    expect(await runBackup({ DATABASE_URL: 'postgres://127.0.0.1:5432/test' }, 'x.sqlite')).toMatchObject({
      code: 2,
      output: expect.stringContaining('pg_dump'),
    });
  });
});
