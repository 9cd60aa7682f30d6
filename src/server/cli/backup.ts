/**
 * `npm run db:backup -- FILE`: a consistent copy of the configured SQLite database in FILE,
 * taken while the site runs. PostgreSQL is backed up with pg_dump (see the README).
 */
import { backupSqlite } from '../db/backup.js';
import { readConfigOrExit } from '../server.js';

// Run as `run-built.mjs backup FILE` or straight as `backup.js FILE`.
const [file] = process.argv.slice(process.argv[2] === 'backup' ? 3 : 2);
if (!file) {
  console.error('usage: npm run db:backup -- FILE');
  process.exit(2);
}
const config = readConfigOrExit();
if (config.database.kind !== 'sqlite') {
  console.error('DATABASE_URL is PostgreSQL: back it up with pg_dump (see the README).');
  process.exit(2);
}
const { pages } = await backupSqlite(config.database.file, file);
console.log(`Copied ${config.database.file} (${pages} pages) to ${file}.`);
