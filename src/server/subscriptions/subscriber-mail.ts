/**
 * What the outbox sends a subscriber, written when the row is sent (so it says what is true
 * then): the confirmation e-mail, or the day's e-mail with the results of the poll before. And
 * whether the address may still get it: a row queued for someone who has since unsubscribed,
 * or about a poll since deleted, is cancelled. Every e-mail carries a one-click unsubscribe link.
 *
 * The links' tokens are made here, for each e-mail as it is sent, and the database keeps only
 * their hashes (email_links), as it does for staff sessions: a copy of it can confirm or
 * unsubscribe nobody. A token must then be in no row at all, so one token per subscriber
 * cannot be: the worker could not put it in tomorrow's e-mail without keeping it in plain
 * text, or a key that makes it, beside the data. So each e-mail has its own, and each works
 * for EMAIL_LINK_VALID_MS: any e-mail still in an inbox unsubscribes in one click,
 * RFC 8058's button included. A token lives only in this process until the mail server has
 * the message; a send that fails is composed again with new tokens, and should a message go
 * twice (a crash just after the server took it), both copies' links work.
 */
import { EMAIL_PATTERN } from '../../shared/limits.js';
import { localDateAt } from '../../shared/time.js';
import type { Clock } from '../clock.js';
import type { Db } from '../db/connection.js';
import type { EmailLinkPurpose } from '../db/tables.js';
import type { ClaimedMail } from '../email/outbox.repository.js';
import type { ComposedMail } from '../email/outbox.worker.js';
import { confirmationEmail, dailyEmail, type MailSite, type RenderedMail } from '../email/templates.js';
import { weeklyEmail } from '../digest/weekly-email.js';
import type { WeekDigest } from '../digest/digest.service.js';
import { FREQUENCY_PATH } from './frequency.routes.js';
import { toRawResults } from '../polls/poll.js';
import { findPollById } from '../polls/polls.repository.js';
import { findRecipient, insertLink, type MailRecipient } from './subscriptions.repository.js';

/**
 * Who may still be sent what: the daily e-mail goes to confirmed subscribers only; a
 * confirmation only to an address still waiting for one, and not if it refused (unsubscribed)
 * after asking.
 */
function mayReceive(mail: ClaimedMail, recipient: MailRecipient): boolean {
  // An address stored before addresses were checked as browsers check them is not written to.
  if (!EMAIL_PATTERN.test(recipient.email)) return false;
  const confirmed = recipient.confirmedAt !== null && recipient.unsubscribedAt === null;
  // What they chose when the e-mail goes, not when it was queued.
  if (mail.kind === 'daily') return confirmed && recipient.frequency !== 'weekly';
  if (mail.kind === 'weekly') return confirmed && recipient.frequency !== 'daily';
  if (mail.kind !== 'confirm') return confirmed;
  const refusedSince =
    recipient.unsubscribedAt !== null && recipient.unsubscribedAt >= (recipient.confirmationSentAt ?? '');
  return !confirmed && !refusedSince;
}

export function createSubscriberMail({
  db,
  clock,
  site,
  weekDigest,
}: {
  db: Db;
  clock: Clock;
  site: MailSite & { timeZone: string };
  /** The week's digest (digest/digest.service.ts); undefined when the week has no closed poll. */
  weekDigest: (week: string) => Promise<WeekDigest | undefined>;
}) {
  /** A new link of the subscriber's for this e-mail. */
  const link = async (mail: ClaimedMail & { subscriberId: number }, purpose: EmailLinkPurpose) => {
    const token = await insertLink(db, mail.subscriberId, purpose, clock.now());
    return `${site.publicUrl}/${purpose === 'confirm' ? 'subscribe/confirm' : 'unsubscribe'}?token=${token}`;
  };
  /** The frequency page takes the e-mail's unsubscribe token (subscriptions.service.ts, frequency). */
  const frequencyUrlOf = (unsubscribeUrl: string) =>
    unsubscribeUrl.replace(`${site.publicUrl}/unsubscribe?`, `${site.publicUrl}${FREQUENCY_PATH}?`);

  /** The message for a claimed row and its unsubscribe link, or null when it should not be sent any more. */
  async function render(
    mail: ClaimedMail & { subscriberId: number },
  ): Promise<{ message: RenderedMail; unsubscribeUrl: string } | null> {
    if (mail.kind === 'weekly') {
      const digest = mail.week === null ? undefined : await weekDigest(mail.week);
      if (!digest) return null; // no poll closed that week
      const unsubscribeUrl = await link(mail, 'unsubscribe');
      const message = weeklyEmail(site, { unsubscribeUrl, frequencyUrl: frequencyUrlOf(unsubscribeUrl) }, digest);
      return { message, unsubscribeUrl };
    }
    if (mail.kind === 'confirm') {
      const unsubscribeUrl = await link(mail, 'unsubscribe');
      const confirmUrl = await link(mail, 'confirm');
      const message = confirmationEmail(site, confirmUrl, unsubscribeUrl, frequencyUrlOf(unsubscribeUrl));
      return { message, unsubscribeUrl };
    }
    if (mail.kind !== 'daily') return null; // a welcome from before double opt-in
    const today = mail.pollId === null ? undefined : await findPollById(db, mail.pollId);
    if (!today) return null; // the poll was deleted
    const previous = mail.previousPollId === null ? undefined : await findPollById(db, mail.previousPollId);
    const day = localDateAt(new Date(mail.createdAt), site.timeZone);
    const unsubscribeUrl = await link(mail, 'unsubscribe');
    const results = previous ? toRawResults(previous) : null;
    const message = dailyEmail(site, unsubscribeUrl, day, today, results, frequencyUrlOf(unsubscribeUrl));
    return { message, unsubscribeUrl };
  }

  return async function compose(mail: ClaimedMail): Promise<ComposedMail> {
    const { subscriberId } = mail;
    if (subscriberId === null) return { cancelled: 'not a subscriber e-mail' };
    const recipient = await findRecipient(db, subscriberId);
    if (!recipient) return { cancelled: 'subscriber deleted' };
    const rendered = mayReceive(mail, recipient) ? await render({ ...mail, subscriberId }) : null;
    if (!rendered) return { cancelled: 'no longer to be sent' };
    const { message, unsubscribeUrl } = rendered;
    return {
      mail: {
        // A parsed address: nodemailer would read a string as a list ("a@x.org, b@y.org").
        to: { name: '', address: recipient.email },
        ...message,
        headers: {
          // RFC 8058: mail clients show an unsubscribe button that POSTs to this address.
          'List-Unsubscribe': `<${unsubscribeUrl}>`,
          'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
        },
      },
    };
  };
}
