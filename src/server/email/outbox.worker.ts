/**
 * Sends what the outbox holds. Each round claims a batch with a lease, sends each message, and
 * records the outcome; failures are retried with growing waits, and a message that keeps
 * failing is marked failed with its error. A message counts as sent when the mail server has
 * accepted it: if the process dies before that, the lease runs out and the message goes again;
 * only a death between the server's acceptance and the next write could send one twice.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.js';
import type { Db } from '../db/connection.js';
import { scrubEmails } from '../http/logging.js';
import { findPollById, type PollRecord } from '../polls/polls.repository.js';
import { resultItems } from '../../shared/results.js';
import { EMAIL_PATTERN } from '../../shared/limits.js';
import { localDateAt } from '../../shared/time.js';
import { findRecipient, type MailRecipient } from '../subscriptions/subscriptions.repository.js';
import type { MailTransport } from './mail-transport.js';
import { claimDue, settle, type ClaimedMail } from './outbox.repository.js';
import { confirmationEmail, dailyEmail, type FinalResults, type MailSite, type RenderedMail } from './templates.js';

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

export interface OutboxDeps {
  db: Db;
  clock: Clock;
  transport: MailTransport;
  site: MailSite & { timeZone: string };
  log: FastifyBaseLogger;
  settings?: Partial<OutboxSettings>;
}

const finalResults = (poll: PollRecord): FinalResults => ({
  pollNumber: poll.pollNumber,
  liveDate: poll.liveDate,
  question: poll.question,
  results: resultItems(
    poll.options.map((o) => o.label),
    poll.options.map((o) => o.votes),
  ),
  totalVotes: poll.options.reduce((sum, o) => sum + o.votes, 0),
});

export function createOutboxWorker({ db, clock, transport, site, log, settings }: OutboxDeps) {
  const { leaseMs, batchSize, maxAttempts } = { ...DEFAULT_OUTBOX_SETTINGS, ...settings };
  const owner = `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const host = new URL(site.publicUrl).hostname;

  /**
   * Who may still be sent what: the daily e-mail goes to confirmed subscribers only; a
   * confirmation only to an address still waiting for one, and not if it refused (unsubscribed)
   * after asking.
   */
  function mayReceive(mail: ClaimedMail, recipient: MailRecipient): boolean {
    // An address stored before addresses were checked as browsers check them is not written to.
    if (!EMAIL_PATTERN.test(recipient.email)) return false;
    const confirmed = recipient.confirmedAt !== null && recipient.unsubscribedAt === null;
    if (mail.kind !== 'confirm') return confirmed;
    const refusedSince = recipient.unsubscribedAt !== null && recipient.unsubscribedAt >= (recipient.confirmationSentAt ?? '');
    return !confirmed && !refusedSince && recipient.confirmToken !== null;
  }

  /** The message for a claimed row, or null when it should not be sent any more. */
  async function render(mail: ClaimedMail, recipient: MailRecipient, unsubscribeUrl: string): Promise<RenderedMail | null> {
    if (mail.kind === 'confirm') {
      const confirmUrl = `${site.publicUrl}/subscribe/confirm?token=${recipient.confirmToken ?? ''}`;
      return confirmationEmail(site, confirmUrl, unsubscribeUrl);
    }
    if (mail.kind !== 'daily') return null; // a welcome from before double opt-in
    const today = mail.pollId === null ? undefined : await findPollById(db, mail.pollId);
    if (!today) return null; // the poll was deleted
    const previous = mail.previousPollId === null ? undefined : await findPollById(db, mail.previousPollId);
    const day = localDateAt(new Date(mail.createdAt), site.timeZone);
    return dailyEmail(site, unsubscribeUrl, day, today, previous ? finalResults(previous) : null);
  }

  async function deliver(mail: ClaimedMail, result: RoundResult) {
    try {
      const recipient = await findRecipient(db, mail.subscriberId);
      const unsubscribeUrl = `${site.publicUrl}/unsubscribe?token=${recipient?.unsubscribeToken ?? ''}`;
      const message = recipient && mayReceive(mail, recipient) ? await render(mail, recipient, unsubscribeUrl) : null;
      if (!recipient || !message) {
        await settle(db, mail.id, owner, { status: 'cancelled', error: recipient ? 'no longer to be sent' : 'subscriber deleted' });
        result.cancelled += 1;
        return;
      }
      await transport.send({
        // A parsed address: nodemailer would read a string as a list ("a@x.org, b@y.org").
        to: { name: '', address: recipient.email },
        ...message,
        messageId: `<outbox-${mail.id}@${host}>`,
        headers: {
          // RFC 8058: mail clients show an unsubscribe button that POSTs to this address.
          'List-Unsubscribe': `<${unsubscribeUrl}>`,
          'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
        },
      });
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
        log.warn({ outboxId: mail.id, kind: mail.kind, attempts: mail.attempts, reason }, 'e-mail not sent; will retry');
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
