/**
 * Sends the day's reminders. Each round first queues the reminders that have come due (one row
 * per subscription and site day, so any number of instances queue each once), then claims
 * queued ones in batches with a lease (SKIP LOCKED on PostgreSQL), sends each batch with a
 * bounded number of requests in flight, and records each answer:
 *
 * - 2xx: sent. 404 or 410: the push service forgot the subscription, so we do too (only if it
 *   still has that endpoint: the browser may have sent a new one meanwhile).
 * - 429 and 5xx (and no answer at all): tried again after `Retry-After`, or a growing wait.
 * - Any other 4xx (400, 401, 403, 413): the request was wrong, which is our bug: the row stays,
 *   the error is logged, the subscription is kept.
 *
 * A reminder lives until voting closes (its TTL), has the day as its `Topic` and its
 * notification's tag, so a resend after a sender died between sending and recording replaces
 * the first at the push service and on the screen instead of doubling it.
 */
import { randomBytes } from 'node:crypto';
import type { Agent } from 'node:https';
import os from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import webpush from 'web-push';
import { reminderTag, type ReminderPayload } from '../../shared/reminders.js';
import { votingDayAt } from '../../shared/time.js';
import type { Clock } from '../clock.js';
import type { Site } from '../config.js';
import type { Db } from '../db/connection.js';
import { findActivePollId } from '../polls/polls.repository.js';
import { endpointHash } from './endpoints.js';
import { nextDueAfter } from './next-due.js';
import {
  advanceNextDue,
  claimReminders,
  deleteSubscriptionWithEndpoint,
  enqueueReminders,
  findDueSubscriptions,
  settleReminder,
  settleSent,
  type ClaimedReminder,
  type SettledReminder,
  type StoredSubscription,
} from './reminders.repository.js';
import type { VapidKeys } from './vapid.js';

export interface ReminderSenderSettings {
  /** How long a claimed reminder is this instance's alone: far longer than a batch takes. */
  leaseMs: number;
  /** Reminders claimed at once. */
  batchSize: number;
  /** Requests to push services in flight at once. */
  concurrency: number;
  /** After this many tries a reminder is given up (voting closing ends it sooner). */
  maxAttempts: number;
  /** A push service that does not answer within this long is tried again later. */
  timeoutMs: number;
}

export const DEFAULT_SENDER_SETTINGS: ReminderSenderSettings = {
  leaseMs: 5 * 60_000,
  batchSize: 500,
  concurrency: 64,
  maxAttempts: 6,
  timeoutMs: 15_000,
};

/** 30 s, 1 min, 2 min ... at most half an hour. */
const backoffMs = (attempts: number) => Math.min(30_000 * 2 ** (attempts - 1), 30 * 60_000);

/** Retry-After in seconds or as an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | string[] | undefined, now: Date): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now.getTime());
}

export interface SendRound {
  queued: number;
  sent: number;
  retried: number;
  gone: number;
  failed: number;
  skipped: number;
  expired: number;
}

export interface PushMessage {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/** A VAPID token is good for 12 hours (web-push's default); a new one is made with an hour still left. */
const VAPID_RENEW_BEFORE_MS = 3_600_000;
const VAPID_VALID_S = 12 * 3600;

/**
 * One encrypted, VAPID-signed POST to a push service (web-push), with our agent. The VAPID
 * token is signed once per push service origin and reused until it nears its expiry, rather
 * than signed again for every message.
 */
export function createPushTransport({
  vapid,
  subject,
  agent,
  timeoutMs,
}: {
  vapid: VapidKeys;
  subject: string;
  agent: Agent;
  timeoutMs: number;
}) {
  const tokens = new Map<string, { authorization: string; renewAt: number }>();
  function authorization(endpoint: string): string {
    const audience = new URL(endpoint).origin;
    const now = Date.now();
    let token = tokens.get(audience);
    if (!token || token.renewAt <= now) {
      const expiration = Math.floor(now / 1000) + VAPID_VALID_S;
      const headers = webpush.getVapidHeaders(
        audience,
        subject,
        vapid.publicKey,
        vapid.privateKey,
        'aes128gcm',
        expiration,
      );
      token = { authorization: headers.Authorization, renewAt: expiration * 1000 - VAPID_RENEW_BEFORE_MS };
      tokens.set(audience, token);
    }
    return token.authorization;
  }
  return async (subscription: PushMessage, payload: ReminderPayload, options: { ttlSeconds: number; topic: string }) =>
    webpush.sendNotification(subscription, JSON.stringify(payload), {
      headers: { Authorization: authorization(subscription.endpoint) },
      TTL: options.ttlSeconds,
      topic: options.topic,
      urgency: 'normal',
      agent,
      timeout: timeoutMs,
    });
}

export type PushTransport = ReturnType<typeof createPushTransport>;

/** Runs `work` on every item with at most `limit` running at once. */
async function eachWithLimit<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>) {
  const queue = items.entries();
  const lane = async () => {
    for (let next = queue.next(); !next.done; next = queue.next()) await work(next.value[1]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

/** The HTTP status of a failed send, or null when no answer came (refused, reset, timed out). */
function statusOf(error: unknown): { status: number | null; headers: Record<string, string | string[] | undefined> } {
  if (error instanceof webpush.WebPushError) {
    return { status: error.statusCode, headers: error.headers };
  }
  return { status: null, headers: {} };
}

export function reminderPayload(site: Site, question: string, siteDate: string): ReminderPayload {
  return { title: site.siteName, body: question, url: `${site.publicUrl}/`, tag: reminderTag(siteDate) };
}

export function createReminderSender({
  db,
  clock,
  site,
  send,
  log,
  settings,
}: {
  db: Db;
  clock: Clock;
  site: Site;
  send: PushTransport;
  log: FastifyBaseLogger;
  settings?: Partial<ReminderSenderSettings> | undefined;
}) {
  const { leaseMs, batchSize, concurrency, maxAttempts } = { ...DEFAULT_SENDER_SETTINGS, ...settings };
  const owner = `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;

  /** Queues the reminders that have come due and moves each subscription's next one on. */
  async function queueDue(): Promise<number> {
    const now = clock.now();
    const day = votingDayAt(now, site);
    const pollId = day.votingOpen ? await findActivePollId(db) : undefined;
    let queued = 0;
    for (;;) {
      const due = await findDueSubscriptions(db, now, batchSize);
      if (due.length === 0) break;
      // A time left from an earlier site day (the site was down, or no poll was live) counts
      // only if the teacher's time has also come today; a reminder is for voting open now.
      const dueToday = (s: StoredSubscription) => {
        if (s.nextDueAt === null) return false;
        if (Date.parse(s.nextDueAt) >= day.startsAt.getTime()) return true;
        const today = nextDueAfter(new Date(day.startsAt.getTime() - 1), s.settings);
        return today !== null && today.getTime() <= now.getTime();
      };
      const sendable = pollId === undefined ? [] : due.filter(dueToday);
      await db.transaction().execute(async (trx) => {
        if (pollId !== undefined) {
          queued += await enqueueReminders(
            trx,
            sendable.map((s) => s.id),
            { siteDate: day.date, pollId },
            now,
          );
        }
        for (const s of due) await advanceNextDue(trx, s.id, s.nextDueAt ?? '', nextDueAfter(now, s.settings));
      });
      if (due.length < batchSize) break;
    }
    return queued;
  }

  /** Sends one reminder; a success is left for the batch to record, anything else is recorded now. */
  async function deliver(reminder: ClaimedReminder, round: SendRound, sent: number[]): Promise<void> {
    const now = clock.now();
    const closesAt = votingDayAt(now, site);
    const ttlSeconds = Math.floor((closesAt.closesAt.getTime() - now.getTime()) / 1000);
    const hash = endpointHash(reminder.endpoint);
    let outcome: SettledReminder;
    if (reminder.voted) {
      round.skipped++;
      outcome = { status: 'skipped', httpStatus: null };
    } else if (closesAt.date !== reminder.siteDate || ttlSeconds <= 0) {
      round.expired++;
      outcome = { status: 'expired', httpStatus: null };
    } else {
      outcome = await sendOne(reminder, ttlSeconds, hash, round);
    }
    if (outcome.status === 'sent' && outcome.httpStatus === 201) sent.push(reminder.id);
    else await settleReminder(db, reminder.id, owner, outcome);
  }

  async function sendOne(
    reminder: ClaimedReminder,
    ttlSeconds: number,
    hash: string,
    round: SendRound,
  ): Promise<SettledReminder> {
    const tag = reminderTag(reminder.siteDate);
    try {
      const answer = await send(
        { endpoint: reminder.endpoint, keys: { p256dh: reminder.p256dh, auth: reminder.auth } },
        reminderPayload(site, reminder.question, reminder.siteDate),
        { ttlSeconds, topic: tag },
      );
      round.sent++;
      return { status: 'sent', at: clock.now(), httpStatus: answer.statusCode };
    } catch (error) {
      const { status, headers } = statusOf(error);
      const now = clock.now();
      if (status === 404 || status === 410) {
        await deleteSubscriptionWithEndpoint(db, reminder.subscriptionId, reminder.endpoint);
        log.info({ endpoint: hash, status }, 'push subscription gone: deleted');
        round.gone++;
        return { status: 'failed', httpStatus: status };
      }
      if (status === null || status === 429 || status >= 500) {
        const waitMs =
          (status === null ? undefined : retryAfterMs(headers['retry-after'], now)) ?? backoffMs(reminder.attempts);
        const retryAt = new Date(now.getTime() + waitMs);
        const closesAt = votingDayAt(now, site).closesAt;
        if (reminder.attempts >= maxAttempts || retryAt.getTime() >= closesAt.getTime()) {
          log.warn({ endpoint: hash, status, attempts: reminder.attempts }, 'push reminder given up');
          round.expired++;
          return { status: 'expired', httpStatus: status };
        }
        log.info({ endpoint: hash, status, retryInMs: waitMs }, 'push service busy: reminder will be retried');
        round.retried++;
        return { status: 'queued', retryAt, httpStatus: status };
      }
      // 400, 401, 403, 413 ...: the service refused what we sent. Our bug, not the teacher's.
      log.error({ endpoint: hash, status }, 'push service refused our request: a bug in how we send');
      round.failed++;
      return { status: 'failed', httpStatus: status };
    }
  }

  return {
    queueDue,
    /** Queues what is due, then sends until nothing due is left. */
    async runOnce(): Promise<SendRound> {
      const round: SendRound = { queued: 0, sent: 0, retried: 0, gone: 0, failed: 0, skipped: 0, expired: 0 };
      round.queued = await queueDue();
      for (;;) {
        const now = clock.now();
        const batch = await claimReminders(db, owner, now, new Date(now.getTime() + leaseMs), batchSize);
        if (batch.length === 0) break;
        const sent: number[] = [];
        await eachWithLimit(batch, concurrency, (reminder) => deliver(reminder, round, sent));
        await settleSent(db, sent, owner, clock.now(), 201);
        if (batch.length < batchSize) break;
      }
      return round;
    },
  };
}

export type ReminderSender = ReturnType<typeof createReminderSender>;
