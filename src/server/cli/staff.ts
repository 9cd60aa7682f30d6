/**
 * `npm run staff -- sign-in-link`: prints a one-time owner sign-in link, good for 15 minutes,
 * for when mail or every passkey is lost. Only someone on the server can run it; the link is in
 * the audit log.
 */
import { systemClock } from '../clock.js';
import { openDatabase } from '../db/connection.js';
import { migrateToLatest } from '../db/migrate.js';
import { createAdminAuth } from '../staff/admin-auth.service.js';
import { useAuditChainKey } from '../staff/audit.js';
import { createAddressKeys } from '../http/address-limits.js';
import { readConfigOrExit } from '../server.js';
import { staffLink } from '../../shared/staff-links.js';

const command = process.argv[3];
if (command !== 'sign-in-link') {
  console.error('usage: npm run staff -- sign-in-link');
  process.exit(2);
}

const config = readConfigOrExit();
useAuditChainKey(config.auditChainKey);
const db = openDatabase(config.database);
try {
  await migrateToLatest(db);
  const addressKeys = createAddressKeys({ db, clock: systemClock, site: config.site });
  const auth = createAdminAuth({
    db,
    clock: systemClock,
    config,
    legacyPasswordHash: null,
    keyedHash: (value) => addressKeys.hash(value),
    secureCookies: config.site.publicUrl.startsWith('https:'),
  });
  const link = await auth.signInLink();
  if (!link) {
    console.error('There is no owner yet: sign in at /admin with ADMIN_PASSWORD to create the owner account.');
    process.exitCode = 1;
  } else {
    console.log(`A one-time sign-in link for ${link.owner.displayName} (owner), good for 15 minutes:\n`);
    console.log(`    ${staffLink(config.site.publicUrl, 'sign-in', link.token)}\n`);
  }
} finally {
  await db.destroy();
}
