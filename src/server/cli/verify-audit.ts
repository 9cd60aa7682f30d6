/**
 * `npm run db:verify-audit [-- --head HASH]`: checks the audit log's hash chain, every row,
 * with AUDIT_CHAIN_KEY; with --head, also that a head published earlier (the daily "Audit log
 * head" log line) is still in the chain, which a cut tail or a restored older copy is not.
 * Exits 1 when anything fails.
 */
import { parseArgs } from 'node:util';
import { openDatabase } from '../db/connection.js';
import { holdsAuditHead, useAuditChainKey, verifyAuditChain } from '../staff/audit.js';
import { readConfigOrExit } from '../server.js';

const { values } = parseArgs({ args: process.argv.slice(3), options: { head: { type: 'string' } } });
const config = readConfigOrExit();
useAuditChainKey(config.auditChainKey);
const db = openDatabase(config.database);
try {
  const check = await verifyAuditChain(db, { full: true });
  if (!check.keyed)
    console.warn('AUDIT_CHAIN_KEY is not set: the chain is unkeyed, so a rewrite of it would verify too.');
  else if (check.unkeyedRows > 0)
    console.warn(`The first ${check.unkeyedRows} rows were written before AUDIT_CHAIN_KEY was set.`);
  if (!check.ok) {
    console.error(`The audit log is broken after ${check.rows} good rows. ${check.problem}`);
    process.exitCode = 1;
  } else if (values.head !== undefined && !(await holdsAuditHead(db, values.head))) {
    console.error(
      `The published head ${values.head} is not in the audit log: the log was cut after it, rewritten, or replaced by an older copy.`,
    );
    process.exitCode = 1;
  } else {
    console.log(`The audit log is intact: ${check.rows} rows, each following the one before.`);
    if (values.head !== undefined) console.log(`It still holds the published head ${values.head}.`);
    if (check.head) console.log(`Its head now: row ${check.head.id}, hash ${check.head.hash}.`);
  }
} finally {
  await db.destroy();
}
