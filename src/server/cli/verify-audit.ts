/** `npm run db:verify-audit`: checks the audit log's hash chain; exits 1 when it is broken. */
import { openDatabase } from '../db/connection.js';
import { verifyAuditChain } from '../admin/audit.js';
import { readConfigOrExit } from '../server.js';

const config = readConfigOrExit();
const db = openDatabase(config.database);
try {
  const check = await verifyAuditChain(db);
  if (check.ok) console.log(`The audit log is intact: ${check.rows} rows, each following the one before.`);
  else {
    console.error(`The audit log is broken after ${check.rows} good rows. ${check.problem}`);
    process.exitCode = 1;
  }
} finally {
  await db.destroy();
}
