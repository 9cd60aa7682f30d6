import type { Db } from '../db/connection.js';

/**
 * Stores the subscription once per address. Subscribing again after unsubscribing is a new
 * opt-in, so it clears the unsubscription and records where it came from.
 */
export async function upsertSubscriber(
  db: Db,
  subscriber: { email: string; sourcePollId: number | null; now: string },
): Promise<void> {
  await db
    .insertInto('subscribers')
    .values({
      email: subscriber.email,
      source_poll_id: subscriber.sourcePollId,
      created_at: subscriber.now,
    })
    .onConflict((conflict) =>
      conflict
        .column('email')
        .doUpdateSet({ unsubscribed_at: null, source_poll_id: subscriber.sourcePollId })
        .where('subscribers.unsubscribed_at', 'is not', null),
    )
    .execute();
}
