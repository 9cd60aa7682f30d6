/** Values the site makes for itself once and every instance shares: keys, the generated password's hash. */
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
