/** `npm run db:migrate`: brings the configured database up to date, then exits. */
import { openDatabase } from '../db/connection.js';
import { migrateToLatest } from '../db/migrate.js';
import { readConfigOrExit } from '../server.js';

const config = readConfigOrExit();
const db = openDatabase(config.database);
try {
  const applied = await migrateToLatest(db);
  console.log(applied.length === 0 ? 'The database is up to date.' : `Applied: ${applied.join(', ')}`);
} finally {
  await db.destroy();
}
