import type { Kysely } from 'kysely';

/**
 * No address at rest (issue 34): the one address key that never changed goes, with everything
 * hashed under it (the limit counts, the sign-in challenges' networks). From now on each site
 * day has its own key, made when first needed and deleted the next day (http/address-limits.ts).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('settings').where('name', '=', 'address_hash_key').execute();
  await db.deleteFrom('rate_limits').execute();
  await db.updateTable('webauthn_challenges').set({ network: null }).execute();
}

/** Nothing to bring back: a key deleted is gone, and the counts start again. */
export async function down(): Promise<void> {}
