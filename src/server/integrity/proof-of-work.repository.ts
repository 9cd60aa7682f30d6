/** SQL for the proofs of work already redeemed. */
import type { Db } from '../db/connection.js';

/** Writes the challenge down as redeemed: true if this call did, false if any did before (on any instance). */
export async function insertRedeemed(db: Db, challengeSignature: string, expiresAt: string): Promise<boolean> {
  const inserted = await db
    .insertInto('proof_of_work_redeemed')
    .values({ challenge_signature: challengeSignature, expires_at: expiresAt })
    .onConflict((conflict) => conflict.column('challenge_signature').doNothing())
    .returning('challenge_signature')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** Forgets redeemed proofs whose challenges expired before `before`: their expiry alone refuses them now. */
export async function deleteRedeemedBefore(db: Db, before: string): Promise<void> {
  await db.deleteFrom('proof_of_work_redeemed').where('expires_at', '<', before).execute();
}
