/**
 * A consistent copy of a SQLite database, taken while the site runs: SQLite's online backup
 * (better-sqlite3's `backup`). Copied a few pages at a time, a backup starts over whenever the
 * site writes in between, which under steady voting is forever; so after the first step it
 * copies the rest in one step, inside one read transaction. In WAL mode that blocks no vote,
 * and the copy is the database as of one moment.
 */
import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';

const ALL_PAGES = 2_000_000_000;

export async function backupSqlite(source: string, target: string): Promise<{ pages: number }> {
  if (!fs.existsSync(source)) throw new Error(`There is no SQLite database at ${source}.`);
  fs.mkdirSync(path.dirname(path.resolve(target)), { recursive: true });
  const db = new BetterSqlite3(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    const { totalPages } = await db.backup(target, { progress: () => ALL_PAGES });
    return { pages: totalPages };
  } finally {
    db.close();
  }
}
