/**
 * Sends what the outbox holds. Each round claims a batch with a lease, sends each message, and
 * records the outcome; failures are retried with growing waits, and a message that keeps
 * failing is marked failed with its error. A message counts as sent when the mail server has
 * accepted it: if the process dies before that, the lease runs out and the message goes again;
 * only a death between the server's acceptance and the next write could send one twice.
 *
 * What a row says, and to whom, is not the outbox's business: `compose` writes it when it is
 * sent (subscriptions/subscriber-mail.ts), and may find it should no longer go.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.js';
import type { Db } from '../db/connection.js';
import { scrubEmails } from '../http/logging.js';
import type { MailTransport, OutgoingMail } from './mail-transport.js';
import { claimDue, settle, type ClaimedMail } from './outbox.repository.js';

export interface OutboxSettings {
  /** How long a claimed message is this instance's alone: far longer than one send can take. */
  leaseMs: number;
  batchSize: number;
  /** After this many tries a message is marked failed. */
  maxAttempts: number;
}

export const DEFAULT_OUTBOX_SETTINGS: OutboxSettings = { leaseMs: 5 * 60_000, batchSize: 25, maxAttempts: 8 };

/** 30 s, 1 min, 2 min ... at most an hour. */
export const retryDelayMs = (attempts: number) => Math.min(30_000 * 2 ** (attempts - 1), 3_600_000);

export interface RoundResult {
  sent: number;
  retried: number;
  failed: number;
  cancelled: number;
}

/** A claimed row's message (its Message-ID is the outbox's), or why it is no longer to be sent. */
export type ComposedMail = { mail: Omit<OutgoingMail, 'messageId'> } | { cancelled: string };

export interface OutboxDeps {
  db: Db;
  clock: Clock;
  transport: MailTransport;
  compose: (mail: ClaimedMail) => Promise<ComposedMail>;
  /** The site's host name, the right-hand side of each Message-ID. */
  messageIdHost: string;
  log: FastifyBaseLogger;
  settings?: Partial<OutboxSettings>;
}

export function createOutboxWorker({ db, clock, transport, compose, messageIdHost, log, settings }: OutboxDeps) {
  const { leaseMs, batchSize, maxAttempts } = { ...DEFAULT_OUTBOX_SETTINGS, ...settings };
  const owner = `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;

  async function deliver(mail: ClaimedMail, result: RoundResult) {
    try {
      const composed = await compose(mail);
      if ('cancelled' in composed) {
        await settle(db, mail.id, owner, { status: 'cancelled', error: composed.cancelled });
        result.cancelled += 1;
        return;
      }
      // Stable per row: a resend after a crash carries the same Message-ID.
      await transport.send({ ...composed.mail, messageId: `<outbox-${mail.id}@${messageIdHost}>` });
      await settle(db, mail.id, owner, { status: 'sent', at: clock.now() });
      result.sent += 1;
    } catch (error) {
      const reason = scrubEmails(error instanceof Error ? error.message : String(error)).slice(0, 500);
      if (mail.attempts >= maxAttempts) {
        await settle(db, mail.id, owner, { status: 'failed', error: reason });
        result.failed += 1;
        log.error({ outboxId: mail.id, kind: mail.kind, attempts: mail.attempts, reason }, 'e-mail failed for good');
      } else {
        await settle(db, mail.id, owner, {
          status: 'queued',
          retryAt: new Date(clock.now().getTime() + retryDelayMs(mail.attempts)),
          error: reason,
        });
        result.retried += 1;
        log.warn(
          { outboxId: mail.id, kind: mail.kind, attempts: mail.attempts, reason },
          'e-mail not sent; will retry',
        );
      }
    }
  }

  return {
    owner,

    /** Sends everything due now, batch by batch. */
    async runOnce(): Promise<RoundResult> {
      const result: RoundResult = { sent: 0, retried: 0, failed: 0, cancelled: 0 };
      for (;;) {
        const now = clock.now();
        const batch = await claimDue(db, owner, now, new Date(now.getTime() + leaseMs), batchSize);
        if (batch.length === 0) return result;
        for (const mail of batch) await deliver(mail, result);
      }
    },
  };
}

export type OutboxWorker = ReturnType<typeof createOutboxWorker>;
