/**
 * Push reminders (issue 28): a browser turns its daily reminder on after a vote, changes its
 * time, zone, days or pause, sends itself a test, and turns it off. The browser is its voter
 * cookie: the settings belong to the voter id, on each of its (at most a few) subscriptions.
 */
import type { ReminderSettings, RemindersState, ReminderSubscribeRequest } from '../../shared/reminders.js';
import { addDays, HOUR_MS, votingDayAt } from '../../shared/time.js';
import { addressLimit, hitAddressLimit } from '../http/address-limits.js';
import type { CountReport } from '../http/limit-headers.js';
import { findActivePoll } from '../polls/polls.repository.js';
import type { ServiceDeps } from '../service-deps.js';
import { endpointHash, endpointProblem } from './endpoints.js';
import { nextDueAfter } from './next-due.js';
import { reminderPayload, type PushTransport } from './reminder-sender.js';
import {
  deleteRemindersBefore,
  deleteSubscriptionWithEndpoint,
  deleteUnseenSubscriptions,
  deleteVoterSubscriptions,
  findVoterSubscriptions,
  touchVoterSubscriptions,
  trimVoterSubscriptions,
  updateVoterSettings,
  upsertSubscription,
} from './reminders.repository.js';
import webpush from 'web-push';
import type { FastifyBaseLogger } from 'fastify';

/** A teacher may have a phone, a laptop and a school computer in one browser profile's cookie... rarely more. */
export const MAX_SUBSCRIPTIONS_PER_VOTER = 3;
/** A browser not seen for this long (no vote, no reminders call) stops getting reminders. */
export const UNSEEN_SUBSCRIPTION_MS = 60 * 86_400_000;
/** Sent reminders are kept this long, for the figures, then forgotten. */
const REMINDER_MEMORY_DAYS = 14;

export type SubscribeResult =
  | { outcome: 'subscribed'; reminder: ReminderSettings }
  | { outcome: 'bad-endpoint'; message: string }
  | { outcome: 'rate-limited' };

export function createRemindersService(
  { db, clock, site, keyedHash }: ServiceDeps,
  {
    applicationServerKey,
    serviceHosts,
    perAddressPerHour,
    send,
    log,
  }: {
    applicationServerKey: string;
    serviceHosts: readonly string[];
    /** Subscriptions and test notifications per client address and hour (PUSH_SUBSCRIBE_LIMIT_PER_HOUR); 0: no limit. */
    perAddressPerHour: number;
    send: PushTransport;
    log: FastifyBaseLogger;
  },
) {
  async function limited(kind: string, clientAddress: string, report?: CountReport): Promise<boolean> {
    if (perAddressPerHour === 0) return false;
    const limit = await addressLimit(keyedHash, {
      kind,
      address: clientAddress,
      max: perAddressPerHour,
      windowMs: HOUR_MS,
    });
    return !(await hitAddressLimit(db, limit, clock.now(), report)).allowed;
  }

  return {
    applicationServerKey,

    async state(voterId: string | null): Promise<RemindersState> {
      const found = voterId === null ? [] : await findVoterSubscriptions(db, voterId);
      if (voterId !== null && found.length > 0) await touchVoterSubscriptions(db, voterId, clock.now());
      return { applicationServerKey, reminder: found[0]?.settings ?? null };
    },

    async subscribe(
      voterId: string,
      request: ReminderSubscribeRequest,
      clientAddress: string,
      report?: CountReport,
    ): Promise<SubscribeResult> {
      const problem = endpointProblem(request.subscription.endpoint, serviceHosts);
      if (problem) return { outcome: 'bad-endpoint', message: problem };
      if (await limited('push-subscribe', clientAddress, report)) return { outcome: 'rate-limited' };
      const { subscription, ...settings } = request;
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        await upsertSubscription(
          trx,
          { voterId, endpoint: subscription.endpoint, ...subscription.keys, settings },
          nextDueAfter(now, settings),
          now,
        );
        await trimVoterSubscriptions(trx, voterId, MAX_SUBSCRIPTIONS_PER_VOTER);
      });
      return { outcome: 'subscribed', reminder: settings };
    },

    /** New settings; null when this browser has no reminder. */
    async change(voterId: string | null, settings: ReminderSettings): Promise<ReminderSettings | null> {
      if (voterId === null) return null;
      const now = clock.now();
      const changed = await updateVoterSettings(db, voterId, settings, nextDueAfter(now, settings), now);
      return changed > 0 ? settings : null;
    },

    /** Turns this browser's reminders off; how many subscriptions went. */
    async remove(voterId: string | null): Promise<number> {
      return voterId === null ? 0 : deleteVoterSubscriptions(db, voterId);
    },

    async seen(voterId: string | null): Promise<void> {
      if (voterId !== null) await touchVoterSubscriptions(db, voterId, clock.now());
    },

    /**
     * Sends this browser a test notification now: today's question if a poll is live, else the
     * site's name. 'none' when it has no reminder; the count of subscriptions reached.
     */
    async test(
      voterId: string | null,
      clientAddress: string,
      report?: CountReport,
    ): Promise<number | 'none' | 'rate-limited'> {
      const found = voterId === null ? [] : await findVoterSubscriptions(db, voterId);
      if (found.length === 0) return 'none';
      if (await limited('push-test', clientAddress, report)) return 'rate-limited';
      const now = clock.now();
      const poll = await findActivePoll(db);
      const payload = {
        ...reminderPayload(site, poll?.question ?? 'Reminders are on.', votingDayAt(now, site).date),
        tag: 'reminder-test',
      };
      let reached = 0;
      for (const s of found) {
        try {
          await send({ endpoint: s.endpoint, keys: { p256dh: s.p256dh, auth: s.auth } }, payload, {
            ttlSeconds: 600,
            topic: 'reminder-test',
          });
          reached++;
        } catch (error) {
          const status = error instanceof webpush.WebPushError ? error.statusCode : null;
          if (status === 404 || status === 410) await deleteSubscriptionWithEndpoint(db, s.id, s.endpoint);
          log.info({ endpoint: endpointHash(s.endpoint), status }, 'test notification not delivered');
        }
      }
      return reached;
    },

    /** Forgets this browser's subscriptions ("Forget this browser"). */
    async forget(voterId: string): Promise<void> {
      await deleteVoterSubscriptions(db, voterId);
    },

    /** Drops browsers not seen for 60 days and reminders older than two weeks. */
    async purge(): Promise<void> {
      const now = clock.now();
      await deleteUnseenSubscriptions(db, new Date(now.getTime() - UNSEEN_SUBSCRIPTION_MS));
      await deleteRemindersBefore(db, addDays(votingDayAt(now, site).date, -REMINDER_MEMORY_DAYS));
    },
  };
}

export type RemindersService = ReturnType<typeof createRemindersService>;
