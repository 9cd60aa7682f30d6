/**
 * The only place SQL about subscribers lives. A subscriber row is one address: pending until
 * its confirmation link is followed, then confirmed until it unsubscribes. The links in its
 * e-mails are rows of email_links, found by the hash of their token.
 */
import { isPostgres, type Db } from '../db/connection.js';
import { hashSecretToken, newSecretToken } from '../db/secret-tokens.js';
import { toIsoString, type EmailLinkPurpose } from '../db/tables.js';
import type { MailFrequency } from '../../shared/schemas.js';

export interface SubscriptionRequest {
  email: string;
  sourcePollId: number | null;
  /** What the form chose; kept from a new or pending request only (a confirmed address changes it by its link). */
  frequency: MailFrequency;
  consentText: string;
  now: Date;
}

export interface SubscriberState {
  id: number;
  confirmedAt: string | null;
  unsubscribedAt: string | null;
  confirmationSentAt: string | null;
}

const iso = (value: Date | string | null) => (value === null ? null : toIsoString(value));

/**
 * Stores a new address as pending, with the consent given, and returns its id; undefined when
 * the address is already known (nothing is written then).
 */
export async function insertPendingSubscriber(db: Db, request: SubscriptionRequest): Promise<number | undefined> {
  const at = request.now.toISOString();
  const row = await db
    .insertInto('subscribers')
    .values({
      email: request.email,
      source_poll_id: request.sourcePollId,
      created_at: at,
      consent_text: request.consentText,
      consented_at: at,
      confirmation_sent_at: at,
      ...frequencyColumns(db, request.frequency),
    })
    .onConflict((conflict) => conflict.column('email').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

/** A known address, locked until the transaction ends on PostgreSQL (SQLite's writes are serial). */
export async function lockSubscriber(db: Db, email: string): Promise<SubscriberState | undefined> {
  let query = db
    .selectFrom('subscribers')
    .select(['id', 'confirmed_at', 'unsubscribed_at', 'confirmation_sent_at'])
    .where('email', '=', email);
  if (isPostgres(db)) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  return (
    row && {
      id: row.id,
      confirmedAt: iso(row.confirmed_at),
      unsubscribedAt: iso(row.unsubscribed_at),
      confirmationSentAt: iso(row.confirmation_sent_at),
    }
  );
}

/**
 * A new request from a known address: its new consent, and a confirmation to send. The links
 * of the confirmation e-mails already sent are kept, so each of them works too.
 */
export async function renewRequest(db: Db, id: number, request: Omit<SubscriptionRequest, 'email'>): Promise<void> {
  const at = request.now.toISOString();
  await db
    .updateTable('subscribers')
    .set({
      source_poll_id: request.sourcePollId,
      consent_text: request.consentText,
      consented_at: at,
      confirmation_sent_at: at,
      ...frequencyColumns(db, request.frequency),
    })
    .where('id', '=', id)
    .execute();
}

/**
 * A new link for one of a subscriber's e-mails: its token, which is stored only as its hash
 * and so must go into the e-mail now.
 */
export async function insertLink(db: Db, subscriberId: number, purpose: EmailLinkPurpose, now: Date): Promise<string> {
  const token = newSecretToken();
  await db
    .insertInto('email_links')
    .values({ token_hash: hashSecretToken(token), subscriber_id: subscriberId, purpose, created_at: now.toISOString() })
    .execute();
  return token;
}

/** The subscriber a link's token is for, as a subquery. */
const linkHolder = (db: Db, token: string, purpose: EmailLinkPurpose) =>
  db
    .selectFrom('email_links')
    .select('subscriber_id')
    .where('token_hash', '=', hashSecretToken(token))
    .where('purpose', '=', purpose);

export type ConfirmOutcome = 'confirmed' | 'already-confirmed' | 'invalid';

/**
 * Confirms the subscription that confirmation `token` is for, if its request is newer than
 * `requestedAfter` (a link works for a week). Following the link again later says it is
 * confirmed.
 */
export async function confirmByToken(db: Db, token: string, now: Date, requestedAfter: Date): Promise<ConfirmOutcome> {
  const confirmed = await db
    .updateTable('subscribers')
    .set({ confirmed_at: now.toISOString(), unsubscribed_at: null })
    .where('id', 'in', linkHolder(db, token, 'confirm'))
    .where('consented_at', '>', requestedAfter.toISOString())
    .where((eb) => eb.or([eb('confirmed_at', 'is', null), eb('unsubscribed_at', 'is not', null)]))
    .executeTakeFirst();
  if (confirmed.numUpdatedRows > 0n) return 'confirmed';
  const row = await db
    .selectFrom('subscribers')
    .select('id')
    .where('id', 'in', linkHolder(db, token, 'confirm'))
    .where('confirmed_at', 'is not', null)
    .where('unsubscribed_at', 'is', null)
    .executeTakeFirst();
  return row ? 'already-confirmed' : 'invalid';
}

/** The address confirmation `token` is for: when it asked, and whether it is subscribed now. */
export async function findByConfirmToken(
  db: Db,
  token: string,
): Promise<{ email: string; requestedAt: string | null; subscribed: boolean } | undefined> {
  const row = await db
    .selectFrom('subscribers')
    .select(['email', 'consented_at', 'confirmed_at', 'unsubscribed_at'])
    .where('id', 'in', linkHolder(db, token, 'confirm'))
    .executeTakeFirst();
  return (
    row && {
      email: row.email,
      requestedAt: iso(row.consented_at),
      subscribed: row.confirmed_at !== null && row.unsubscribed_at === null,
    }
  );
}

export interface MailRecipient extends Omit<SubscriberState, 'id'> {
  email: string;
  frequency: MailFrequency;
}

/** What a subscriber chose, from its two columns. */
export const frequencyOf = (row: { wants_daily: boolean | number; wants_weekly: boolean | number }): MailFrequency =>
  row.wants_weekly ? (row.wants_daily ? 'both' : 'weekly') : 'daily';

/** The two columns of a choice (better-sqlite3 binds no booleans: SQLite keeps them as 0 and 1). */
export function frequencyColumns(db: Db, frequency: MailFrequency) {
  const bool = (on: boolean) => (isPostgres(db) ? on : Number(on));
  return { wants_daily: bool(frequency !== 'weekly'), wants_weekly: bool(frequency !== 'daily') };
}

export async function findRecipient(db: Db, subscriberId: number): Promise<MailRecipient | undefined> {
  const row = await db
    .selectFrom('subscribers')
    .select(['email', 'confirmed_at', 'unsubscribed_at', 'confirmation_sent_at', 'wants_daily', 'wants_weekly'])
    .where('id', '=', subscriberId)
    .executeTakeFirst();
  return (
    row && {
      email: row.email,
      confirmedAt: iso(row.confirmed_at),
      unsubscribedAt: iso(row.unsubscribed_at),
      confirmationSentAt: iso(row.confirmation_sent_at),
      frequency: frequencyOf(row),
    }
  );
}

/** The choice of the subscriber an unsubscribe link (the frequency page's) is for, and its address. */
export async function findFrequencyByToken(
  db: Db,
  token: string,
): Promise<{ email: string; frequency: MailFrequency; subscribed: boolean } | undefined> {
  const row = await db
    .selectFrom('subscribers')
    .select(['email', 'wants_daily', 'wants_weekly', 'unsubscribed_at'])
    .where('id', 'in', linkHolder(db, token, 'unsubscribe'))
    .executeTakeFirst();
  return row && { email: row.email, frequency: frequencyOf(row), subscribed: row.unsubscribed_at === null };
}

/** Sets the choice of the subscriber `token` is for; false for an unknown token. */
export async function setFrequencyByToken(db: Db, token: string, frequency: MailFrequency): Promise<boolean> {
  const result = await db
    .updateTable('subscribers')
    .set(frequencyColumns(db, frequency))
    .where('id', 'in', linkHolder(db, token, 'unsubscribe'))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function findByUnsubscribeToken(
  db: Db,
  token: string,
): Promise<{ id: number; email: string; subscribed: boolean } | undefined> {
  const row = await db
    .selectFrom('subscribers')
    .select(['id', 'email', 'unsubscribed_at'])
    .where('id', 'in', linkHolder(db, token, 'unsubscribe'))
    .executeTakeFirst();
  return row && { id: row.id, email: row.email, subscribed: row.unsubscribed_at === null };
}

/**
 * Unsubscribes the address `token` is for (once: the first time is kept) and voids its
 * confirmation links, so an old confirmation e-mail cannot subscribe the address again. False
 * for an unknown token.
 */
export async function unsubscribeByToken(db: Db, token: string, now: string): Promise<boolean> {
  const known = await findByUnsubscribeToken(db, token);
  if (!known) return false;
  await db.transaction().execute(async (trx) => {
    const unsubscribed = await trx
      .updateTable('subscribers')
      .set({ unsubscribed_at: now })
      .where('id', '=', known.id)
      .where('unsubscribed_at', 'is', null)
      .executeTakeFirst();
    if (unsubscribed.numUpdatedRows === 0n) return;
    await trx
      .deleteFrom('email_links')
      .where('subscriber_id', '=', known.id)
      .where('purpose', '=', 'confirm')
      .execute();
  });
  return true;
}

/** Forgets links made before `before`: the e-mails holding them are that old. */
export async function deleteLinksBefore(db: Db, before: Date): Promise<number> {
  const result = await db.deleteFrom('email_links').where('created_at', '<', before.toISOString()).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Deletes the addresses never confirmed whose last request is older than `requestedBefore`,
 * whether they are still waiting or refused (unsubscribed from the confirmation e-mail): the
 * privacy policy promises that an address nobody confirmed is gone after a week. Within that
 * week a refused address still gets at most one confirmation a day; after it, a new request
 * starts afresh, one confirmation a day again.
 */
export async function deleteUnconfirmed(db: Db, requestedBefore: Date): Promise<number> {
  const result = await db
    .deleteFrom('subscribers')
    .where('confirmed_at', 'is', null)
    .where('consented_at', '<', requestedBefore.toISOString())
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** confirmed: gets the daily e-mail. unconfirmed: waiting for the link. unsubscribed: gets nothing. */
export async function subscriberCounts(
  db: Db,
): Promise<{ confirmed: number; unconfirmed: number; unsubscribed: number }> {
  const row = await db
    .selectFrom('subscribers')
    .select((eb) => [
      eb.fn.countAll<number>().as('all'),
      eb.fn.count<number>('unsubscribed_at').as('unsubscribed'),
      eb.fn
        .count<number>(eb.case().when('unsubscribed_at', 'is', null).then(eb.ref('confirmed_at')).end())
        .as('confirmed'),
    ])
    .executeTakeFirstOrThrow();
  return {
    confirmed: row.confirmed,
    unconfirmed: row.all - row.unsubscribed - row.confirmed,
    unsubscribed: row.unsubscribed,
  };
}
