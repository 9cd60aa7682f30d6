/**
 * What the outbox sends to staff, written when it is sent. An invite's e-mail carries a link of
 * its own, whose token is made here and kept only as a hash (staff_links.mail_token_hash), as
 * subscribers' links are; an invite used, withdrawn or expired by then is not sent. An alert
 * tells a person their account is under attack (staff/sign-in-guard.ts); not to a disabled one.
 */
import { ROLE_LABELS } from '../../shared/staff-permissions.js';
import type { Clock } from '../clock.js';
import type { Db } from '../db/connection.js';
import { hashSecretToken, newSecretToken } from '../db/secret-tokens.js';
import type { ClaimedMail } from '../email/outbox.repository.js';
import type { ComposedMail } from '../email/outbox.worker.js';
import { staffAlertEmail, staffIntegrityEmail, staffInviteEmail, type MailSite } from '../email/templates.js';
import { staffLink } from '../../shared/staff-links.js';
import { findStaffById } from './staff.repository.js';
import { findInviteToMail, setMailToken } from './staff-links.repository.js';
import { SURGE_KEY } from '../integrity/detector.js';

export function createStaffMail({ db, clock, site }: { db: Db; clock: Clock; site: MailSite & { timeZone: string } }) {
  const moment = (iso: string) =>
    new Intl.DateTimeFormat('en-US', { timeZone: site.timeZone, dateStyle: 'long', timeStyle: 'short' }).format(
      new Date(iso),
    );

  async function alert(mail: ClaimedMail): Promise<ComposedMail> {
    const person = mail.staffId === null ? undefined : await findStaffById(db, mail.staffId);
    if (!person || person.disabled) return { cancelled: 'no such person on the staff, or disabled' };
    const message = staffAlertEmail(site, {
      name: person.displayName,
      email: person.email,
      adminUrl: `${site.publicUrl}/admin`,
      at: moment(mail.createdAt),
    });
    return { mail: { to: { name: person.displayName, address: person.email }, ...message, headers: {} } };
  }

  /** A poll's votes need a look: to an owner or editor still on the staff, about a poll still there. */
  async function integrity(mail: ClaimedMail): Promise<ComposedMail> {
    const person = mail.staffId === null ? undefined : await findStaffById(db, mail.staffId);
    if (!person || person.disabled) return { cancelled: 'no such person on the staff, or disabled' };
    if (person.role !== 'owner' && person.role !== 'editor') return { cancelled: 'no longer an owner or editor' };
    const poll =
      mail.pollId === null
        ? undefined
        : await db
            .selectFrom('polls')
            .select(['question', 'poll_number'])
            .where('id', '=', mail.pollId)
            .executeTakeFirst();
    if (!poll || mail.pollId === null) return { cancelled: 'poll deleted' };
    const surge = await db
      .selectFrom('integrity_buckets')
      .select('bucket')
      .where('poll_id', '=', mail.pollId)
      .where('bucket', '=', SURGE_KEY)
      .executeTakeFirst();
    const message = staffIntegrityEmail(site, {
      name: person.displayName,
      question: poll.question,
      integrityUrl: `${site.publicUrl}/admin/polls/${poll.poll_number}/integrity`,
      at: moment(mail.createdAt),
      surge: surge !== undefined,
    });
    return { mail: { to: { name: person.displayName, address: person.email }, ...message, headers: {} } };
  }

  return async function compose(mail: ClaimedMail): Promise<ComposedMail> {
    if (mail.kind === 'staff-alert') return alert(mail);
    if (mail.kind === 'staff-integrity') return integrity(mail);
    if (mail.staffLinkId === null) return { cancelled: 'no invite' };
    const now = clock.now().toISOString();
    const link = await findInviteToMail(db, mail.staffLinkId, now);
    if (!link?.email || !link.role) return { cancelled: 'invite used, withdrawn or expired' };
    const token = newSecretToken();
    await setMailToken(db, link.id, hashSecretToken(token));
    const message = staffInviteEmail(site, {
      url: staffLink(site.publicUrl, 'invite', token),
      role: ROLE_LABELS[link.role].toLowerCase(),
      invitedBy: link.invitedBy ?? 'The site owner',
      expiresAt: moment(link.expiresAt),
    });
    return { mail: { to: { name: '', address: link.email }, ...message, headers: {} } };
  };
}
