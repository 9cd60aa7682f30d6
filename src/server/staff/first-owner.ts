/** The first owner of a site: from ADMIN_EMAIL and ADMIN_PASSWORD, or from the old shared password. */
import type { Clock } from '../clock.js';
import type { Db } from '../db/connection.js';
import { isUniqueViolation } from '../db/errors.js';
import { settingOrInsert } from '../db/settings.js';
import { appendAudit, SYSTEM_ACTOR } from './audit.js';
import { generatePassword, hashPassword } from './password.js';
import { countStaff, insertStaff } from './staff.repository.js';

/**
 * The site's old shared password, kept only to make the first owner on an upgraded site.
 * ADMIN_PASSWORD wins; without it, a site with no staff yet makes a strong password on its first
 * start, keeps only the hash, and hands the password to `announce` that one time.
 */
export async function adminPasswordHash(
  db: Db,
  configured: string | undefined,
  announce: (password: string) => void,
): Promise<string | null> {
  if (configured !== undefined) return hashPassword(configured);
  const existing = await db
    .selectFrom('settings')
    .select('value')
    .where('name', '=', 'admin_password_hash')
    .executeTakeFirst();
  if (existing) return existing.value;
  if ((await countStaff(db)) > 0) return null;
  const password = generatePassword();
  const stored = await settingOrInsert(db, 'admin_password_hash', await hashPassword(password));
  if (stored.inserted) announce(password);
  return stored.value;
}

/**
 * The first owner from ADMIN_EMAIL and ADMIN_PASSWORD, at start, on a site with no staff yet
 * (a scripted install). Several instances starting together make one.
 */
export async function createOwnerFromConfig(
  db: Db,
  clock: Clock,
  email: string,
  password: string,
): Promise<'created' | 'exists'> {
  if ((await countStaff(db)) > 0) return 'exists';
  const now = clock.now();
  const passwordHash = await hashPassword(password);
  const displayName = email.split('@')[0] ?? 'Owner';
  try {
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('settings').values({ name: 'first_owner_at', value: now.toISOString() }).execute();
      const id = await insertStaff(trx, { email, displayName, role: 'owner', passwordHash }, now.toISOString());
      await appendAudit(trx, now, SYSTEM_ACTOR, {
        action: 'staff.create',
        target: `staff ${id}`,
        summary: `Created the owner account ${email} from ADMIN_EMAIL at start`,
      });
    });
    return 'created';
  } catch (error) {
    if (isUniqueViolation(error)) return 'exists';
    throw error;
  }
}
