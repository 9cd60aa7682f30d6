/** Values the site makes for itself once and every instance shares: keys, the generated password's hash. */
import { randomBytes } from 'node:crypto';
import type { Db } from './connection.js';

/** A setting's value, writing `value` first if none was stored (the first writer wins). */
export async function settingOrInsert(
  db: Db,
  name: string,
  value: string,
): Promise<{ value: string; inserted: boolean }> {
  const inserted = await db
    .insertInto('settings')
    .values({ name, value })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .returning('name')
    .executeTakeFirst();
  const row = await db.selectFrom('settings').select('value').where('name', '=', name).executeTakeFirstOrThrow();
  return { value: row.value, inserted: inserted !== undefined };
}

/** Every key the site makes once and keeps in `settings` unless the environment gives it. */
export type SiteKeyName = 'voter_cookie_key' | 'ballot_key' | 'proof_of_work_key' | 'vapid_keys';

/**
 * A made-once site key: the environment's when it gives one (and then the copy a start before
 * kept in the database is deleted, so backups no longer carry it), otherwise the one in
 * `settings`, made by `make` (32 random bytes in base64 unless said) at the first start and
 * shared by every instance.
 */
export async function siteKey(
  db: Db,
  name: SiteKeyName,
  {
    fromEnvironment,
    make = () => randomBytes(32).toString('base64'),
  }: { fromEnvironment?: string | undefined; make?: () => string } = {},
): Promise<string> {
  if (fromEnvironment !== undefined) {
    await db.deleteFrom('settings').where('name', '=', name).execute();
    return fromEnvironment;
  }
  return (await settingOrInsert(db, name, make())).value;
}
