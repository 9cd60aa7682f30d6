/**
 * What the outbox sends a subscriber, written when the row is sent (so it says what is true
 * then): the confirmation e-mail, or the day's e-mail with the results of the poll before. And
 * whether the address may still get it: a row queued for someone who has since unsubscribed,
 * or about a poll since deleted, is cancelled. Every e-mail carries a one-click unsubscribe link.
 */
import { EMAIL_PATTERN } from '../../shared/limits.js';
import { localDateAt } from '../../shared/time.js';
import type { Db } from '../db/connection.js';
import type { ClaimedMail } from '../email/outbox.repository.js';
import type { ComposedMail } from '../email/outbox.worker.js';
import { confirmationEmail, dailyEmail, type MailSite, type RenderedMail } from '../email/templates.js';
import { toPollResults } from '../polls/poll.js';
import { findPollById } from '../polls/polls.repository.js';
import { findRecipient, type MailRecipient } from './subscriptions.repository.js';

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
  const refusedSince =
    recipient.unsubscribedAt !== null && recipient.unsubscribedAt >= (recipient.confirmationSentAt ?? '');
  return !confirmed && !refusedSince && recipient.confirmToken !== null;
}

export function createSubscriberMail({ db, site }: { db: Db; site: MailSite & { timeZone: string } }) {
  /** The message for a claimed row, or null when it should not be sent any more. */
  async function render(
    mail: ClaimedMail,
    recipient: MailRecipient,
    unsubscribeUrl: string,
  ): Promise<RenderedMail | null> {
    if (mail.kind === 'confirm') {
      const confirmUrl = `${site.publicUrl}/subscribe/confirm?token=${recipient.confirmToken ?? ''}`;
      return confirmationEmail(site, confirmUrl, unsubscribeUrl);
    }
    if (mail.kind !== 'daily') return null; // a welcome from before double opt-in
    const today = mail.pollId === null ? undefined : await findPollById(db, mail.pollId);
    if (!today) return null; // the poll was deleted
    const previous = mail.previousPollId === null ? undefined : await findPollById(db, mail.previousPollId);
    const day = localDateAt(new Date(mail.createdAt), site.timeZone);
    return dailyEmail(site, unsubscribeUrl, day, today, previous ? toPollResults(previous) : null);
  }

  return async function compose(mail: ClaimedMail): Promise<ComposedMail> {
    const recipient = await findRecipient(db, mail.subscriberId);
    if (!recipient) return { cancelled: 'subscriber deleted' };
    const unsubscribeUrl = `${site.publicUrl}/unsubscribe?token=${recipient.unsubscribeToken}`;
    const message = mayReceive(mail, recipient) ? await render(mail, recipient, unsubscribeUrl) : null;
    if (!message) return { cancelled: 'no longer to be sent' };
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
