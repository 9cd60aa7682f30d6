/**
 * Subscribing, double opt-in (DESIGN.md): a request stores the address as pending and queues
 * one e-mail asking to confirm; only a confirmed address gets the daily e-mail. So nobody can
 * sign a stranger up, and a stranger's inbox gets at most one confirmation a day from us,
 * however often the form is sent. Requests are also limited per client address.
 */
import { consentText } from '../../shared/consent.js';
import { addressLimit, hitAddressLimit } from '../http/address-limits.js';
import type { CountReport } from '../http/limit-headers.js';
import { enqueueConfirmation } from '../email/outbox.repository.js';
import { findPollById } from '../polls/polls.repository.js';
import type { ServiceDeps } from '../service-deps.js';
import {
  confirmByToken,
  deleteLinksBefore,
  deleteUnconfirmed,
  findByConfirmToken,
  findByUnsubscribeToken,
  findFrequencyByToken,
  setFrequencyByToken,
  insertPendingSubscriber,
  lockSubscriber,
  renewRequest,
  unsubscribeByToken,
  type ConfirmOutcome,
  type SubscriberState,
} from './subscriptions.repository.js';
import { HOUR_MS } from '../../shared/time.js';
import type { MailFrequency } from '../../shared/schemas.js';

/** A pending address gets one confirmation e-mail a day at most. */
export const CONFIRMATION_RESEND_MS = 24 * 3_600_000;
/** A confirmation link works for a week; then the pending address is deleted. */
export const CONFIRMATION_VALID_MS = 7 * 24 * 3_600_000;
/**
 * The links in an e-mail (unsubscribe, and confirm for a week) work for a year after it was
 * sent: CAN-SPAM asks for 30 days at least, and a reader may act on an e-mail kept for months.
 * Each e-mail's links are a row or two in email_links until then.
 */
export const EMAIL_LINK_VALID_MS = 365 * 24 * 3_600_000;

export type SubscribeOutcome = 'subscribed' | 'poll-not-found' | 'rate-limited';

export interface SubscriptionSettings {
  /**
   * Subscription requests per client address and hour, whatever the address asked for; 0 turns
   * the limit off. The form is offered once per browser, so a school's honest requests are
   * about as many as its new subscribers.
   */
  perAddressPerHour: number;
}

const receivesMail = (state: Pick<SubscriberState, 'confirmedAt' | 'unsubscribedAt'>) =>
  state.confirmedAt !== null && state.unsubscribedAt === null;

/** Whether a request from a known address should send it a (new) confirmation e-mail. */
function confirmationDue(state: SubscriberState, now: Date): boolean {
  if (receivesMail(state)) return false;
  return (
    state.confirmationSentAt === null ||
    new Date(state.confirmationSentAt).getTime() <= now.getTime() - CONFIRMATION_RESEND_MS
  );
}

export function createSubscriptionsService(
  { db, clock, site, mailQueued, keyedHash }: ServiceDeps,
  { perAddressPerHour }: SubscriptionSettings,
) {
  return {
    /**
     * The answer is the same whether the address is new, pending or confirmed, so the form
     * tells nobody who is on the list. Everything happens in one transaction: no confirmation
     * e-mail without its pending row, and a request refused by the limit stores nothing.
     */
    async subscribe(
      email: string,
      pollId: number | undefined,
      clientAddress: string,
      frequency: MailFrequency = 'daily',
      /** Where the address's count goes (the RateLimit headers). */
      report?: CountReport,
    ): Promise<SubscribeOutcome> {
      if (pollId !== undefined && !(await findPollById(db, pollId))) return 'poll-not-found';
      const now = clock.now();
      const request = {
        email,
        sourcePollId: pollId ?? null,
        frequency,
        consentText: consentText(site.siteName, site.brandName),
        now,
      };
      const limit = await addressLimit(keyedHash, {
        kind: 'subscribe',
        address: clientAddress,
        max: perAddressPerHour,
        windowMs: HOUR_MS,
      });
      const trx = await db.startTransaction().execute();
      try {
        // Every request is counted, before the address is looked up: were only those that send
        // an e-mail counted, a spent limit would refuse strangers and still answer "subscribed"
        // for addresses on the list, and anyone could sort a list of addresses that way.
        if (perAddressPerHour > 0 && !(await hitAddressLimit(trx, limit, now, report)).allowed) {
          await trx.rollback().execute();
          return 'rate-limited';
        }
        let subscriberId = await insertPendingSubscriber(trx, request);
        if (subscriberId === undefined) {
          const known = await lockSubscriber(trx, email);
          if (!known || !confirmationDue(known, now)) {
            await trx.commit().execute();
            return 'subscribed';
          }
          subscriberId = known.id;
          await renewRequest(trx, subscriberId, request);
        }
        await enqueueConfirmation(trx, subscriberId, now);
        await trx.commit().execute();
      } catch (error) {
        if (!trx.isCommitted && !trx.isRolledBack) await trx.rollback().execute();
        throw error;
      }
      mailQueued();
      return 'subscribed';
    },

    /** Follows a confirmation link (the POST of its page). */
    async confirm(token: string): Promise<ConfirmOutcome> {
      const now = clock.now();
      return confirmByToken(db, token, now, new Date(now.getTime() - CONFIRMATION_VALID_MS));
    },

    /** What the confirmation page shows before its button is pressed. */
    async confirmation(token: string): Promise<{ email: string; subscribed: boolean } | undefined> {
      const found = await findByConfirmToken(db, token);
      if (!found) return undefined;
      const expired =
        found.requestedAt === null ||
        new Date(found.requestedAt).getTime() <= clock.now().getTime() - CONFIRMATION_VALID_MS;
      return found.subscribed || !expired ? { email: found.email, subscribed: found.subscribed } : undefined;
    },

    /** What the unsubscribe page shows before its button is pressed. */
    async unsubscription(token: string): Promise<{ email: string; subscribed: boolean } | undefined> {
      return findByUnsubscribeToken(db, token);
    },

    /**
     * Follows an unsubscribe link (the POST of its page, or a mail client's one-click button).
     * False for an unknown token.
     */
    async unsubscribe(token: string): Promise<boolean> {
      return unsubscribeByToken(db, token, clock.now().toISOString());
    },

    /**
     * What the frequency page shows: the address an e-mail's link is for and its choice.
     * The link is the e-mail's unsubscribe link's token: whoever may stop the e-mails may
     * choose how often they come.
     */
    async frequency(
      token: string,
    ): Promise<{ email: string; frequency: MailFrequency; subscribed: boolean } | undefined> {
      return findFrequencyByToken(db, token);
    },

    /** Sets daily, weekly or both for the address an e-mail's link is for; false for an unknown token. */
    async setFrequency(token: string, frequency: MailFrequency): Promise<boolean> {
      return setFrequencyByToken(db, token, frequency);
    },

    /** Forgets pending addresses whose link has expired. */
    async purgeUnconfirmed(): Promise<number> {
      return deleteUnconfirmed(db, new Date(clock.now().getTime() - CONFIRMATION_VALID_MS));
    },

    /** Forgets the links of e-mails sent more than a year ago: they no longer work. */
    async purgeOldLinks(): Promise<number> {
      return deleteLinksBefore(db, new Date(clock.now().getTime() - EMAIL_LINK_VALID_MS));
    },
  };
}

export type SubscriptionsService = ReturnType<typeof createSubscriptionsService>;
