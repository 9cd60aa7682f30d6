import { randomBytes } from 'node:crypto';
import type { Db } from '../db/connection.js';

export interface NewSubscription {
  email: string;
  sourcePollId: number | null;
  consentText: string;
  now: string;
}

/**
 * Stores the subscription once per address, with the record of consent. Subscribing again
 * after unsubscribing is a new opt-in: it clears the unsubscription and records the new consent.
 * Returns the subscriber's id when this was a new (or renewed) subscription, else undefined.
 */
export async function upsertSubscriber(db: Db, subscription: NewSubscription): Promise<number | undefined> {
  const row = await db
    .insertInto('subscribers')
    .values({
      email: subscription.email,
      source_poll_id: subscription.sourcePollId,
      created_at: subscription.now,
      unsubscribe_token: randomBytes(24).toString('base64url'),
      consent_text: subscription.consentText,
      consented_at: subscription.now,
    })
    .onConflict((conflict) =>
      conflict
        .column('email')
        .doUpdateSet({
          unsubscribed_at: null,
          source_poll_id: subscription.sourcePollId,
          consent_text: subscription.consentText,
          consented_at: subscription.now,
        })
        .where('subscribers.unsubscribed_at', 'is not', null),
    )
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

export interface MailRecipient {
  email: string;
  unsubscribeToken: string;
  subscribed: boolean;
}

export async function findRecipient(db: Db, subscriberId: number): Promise<MailRecipient | undefined> {
  const row = await db
    .selectFrom('subscribers')
    .select(['email', 'unsubscribe_token', 'unsubscribed_at'])
    .where('id', '=', subscriberId)
    .executeTakeFirst();
  return row && { email: row.email, unsubscribeToken: row.unsubscribe_token ?? '', subscribed: row.unsubscribed_at === null };
}

export async function findByUnsubscribeToken(db: Db, token: string): Promise<{ email: string; subscribed: boolean } | undefined> {
  const row = await db
    .selectFrom('subscribers')
    .select(['email', 'unsubscribed_at'])
    .where('unsubscribe_token', '=', token)
    .executeTakeFirst();
  return row && { email: row.email, subscribed: row.unsubscribed_at === null };
}

/** Unsubscribes the holder of `token` (once: the first time is kept); false for an unknown token. */
export async function unsubscribeByToken(db: Db, token: string, now: string): Promise<boolean> {
  const known = await findByUnsubscribeToken(db, token);
  if (!known) return false;
  await db
    .updateTable('subscribers')
    .set({ unsubscribed_at: now })
    .where('unsubscribe_token', '=', token)
    .where('unsubscribed_at', 'is', null)
    .execute();
  return true;
}

export async function subscriberCounts(db: Db): Promise<{ subscribed: number; unsubscribed: number }> {
  const row = await db
    .selectFrom('subscribers')
    .select((eb) => [
      eb.fn.countAll<number>().as('all'),
      eb.fn.count<number>('unsubscribed_at').as('unsubscribed'),
    ])
    .executeTakeFirstOrThrow();
  return { subscribed: row.all - row.unsubscribed, unsubscribed: row.unsubscribed };
}
