/**
 * The two e-mails. HTML for mail clients (tables, inline styles, one column that reads well on a
 * phone, real text rather than images so screen readers read everything) and a plain-text
 * alternative. Both carry the site's name, its postal address and an unsubscribe link.
 */
import type { Poll, PollResults } from '../../shared/api.js';
import { HONEST_RESULTS, honestResultsUrl } from '../../shared/honest-results.js';
import { pollUrlOf } from '../../shared/poll-links.js';
import { setAsideNote, votesText } from '../../shared/results.js';
import { daysBetween, type LocalDate } from '../../shared/time.js';
import { formatLocalDate } from '../../shared/time-labels.js';
import { escapeHtml as e } from '../pages/app-html.js';

export interface MailSite {
  siteName: string;
  publicUrl: string;
  postalAddress: string | null;
}

export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
}

/** The poll that went live on the day of the e-mail. */
export type DailyPoll = Pick<Poll, 'pollNumber' | 'question' | 'description'>;

/** The poll before it; `liveDate` is its own date (the day it first went live). */
export type FinalResults = Pick<
  PollResults,
  'pollNumber' | 'liveDate' | 'question' | 'results' | 'totalVotes' | 'setAsideVotes'
>;

export const GREEN = '#15803d';
const INK = '#1c1917';
export const MUTED = '#57534e';

export const JOINED = (siteName: string) => `You get this e-mail because you joined the ${siteName} list.`;

/** The words of the link in every subscriber e-mail to the page that changes how often they come. */
export const FREQUENCY_LINK = { lead: 'Daily, weekly or both?', label: 'Choose how often we write' } as const;

/**
 * Why the e-mail came, and a one-click link that stops them: "{label}{tail}"; and, with
 * `frequencyUrl`, the link to choose daily, weekly or both.
 */
export function footer(
  site: MailSite,
  unsubscribeUrl: string,
  reason: string,
  { label, tail }: { label: string; tail: string },
  frequencyUrl?: string,
): { html: string; text: string } {
  const address = site.postalAddress ?? 'Postal address not configured (set MAIL_POSTAL_ADDRESS).';
  const frequency = frequencyUrl
    ? {
        html: `
        <p style="margin:0 0 8px">${e(FREQUENCY_LINK.lead)} <a href="${e(frequencyUrl)}" style="color:${MUTED}">${e(FREQUENCY_LINK.label)}</a>.</p>`,
        text: `${FREQUENCY_LINK.lead} ${FREQUENCY_LINK.label}: ${frequencyUrl}\n`,
      }
    : { html: '', text: '' };
  return {
    html: `
      <tr><td style="padding:24px 24px 32px;color:${MUTED};font-size:13px;line-height:1.5">
        <p style="margin:0 0 8px">${e(reason)}
          <a href="${e(unsubscribeUrl)}" style="color:${MUTED}">${e(label)}</a>${e(tail)}</p>${frequency.html}
        <p style="margin:0">${e(site.siteName)} · ${e(address)}</p>
      </td></tr>`,
    text: `${reason}\n${label}${tail} ${unsubscribeUrl}\n${frequency.text}\n${site.siteName} · ${address}\n`,
  };
}

export function page(site: MailSite, title: string, body: string, foot: { html: string }): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${e(title)}</title></head>
<body style="margin:0;padding:0;background:#f5f7f4;font-family:system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif;color:${INK}">
  <table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f5f7f4">
    <tr><td align="center" style="padding:16px 8px">
      <table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:600px;background:#ffffff;border-radius:12px">
        <tr><td style="padding:24px 24px 0;color:${GREEN};font-size:14px;font-weight:800;letter-spacing:.06em">${e(site.siteName.toUpperCase())}</td></tr>
        ${body}
        ${foot.html}
      </table>
    </td></tr>
  </table>
</body>
</html>`;
}

export const button = (href: string, label: string) =>
  `<a href="${e(href)}" style="display:inline-block;padding:12px 20px;border-radius:999px;background:${GREEN};color:#ffffff;font-weight:700;text-decoration:none">${e(label)}</a>`;

/** The first e-mail after subscribing: nothing else is sent until its link is followed. */
export function confirmationEmail(
  site: MailSite,
  confirmUrl: string,
  unsubscribeUrl: string,
  frequencyUrl?: string,
): RenderedMail {
  const subject = `Confirm your subscription to ${site.siteName}`;
  const foot = footer(
    site,
    unsubscribeUrl,
    `You get this e-mail because someone asked to subscribe this address to the ${site.siteName} list.`,
    { label: 'Never e-mail this address again', tail: ': one click, and it hears nothing more from us.' },
    frequencyUrl,
  );
  const body = `
    <tr><td style="padding:16px 24px 0">
      <h1 style="margin:0 0 12px;font-size:24px;line-height:1.3">Confirm your subscription</h1>
      <p style="margin:0 0 12px;font-size:16px;line-height:1.5">Someone, hopefully you, asked to get ${e(site.siteName)} by e-mail:
        each day's new question and the final results of the one before. Press the button to confirm.</p>
      <p style="margin:0 0 12px">${button(confirmUrl, 'Confirm my subscription')}</p>
      <p style="margin:0 0 8px;font-size:15px;line-height:1.5;color:${MUTED}">Not you? Ignore this e-mail: without a confirmation
        we send nothing more, and we forget this address within a week.</p>
    </td></tr>`;
  const text = `Confirm your subscription\n\nSomeone, hopefully you, asked to get ${site.siteName} by e-mail: each day's new question and the final results of the one before.\n\nConfirm: ${confirmUrl}\n\nNot you? Ignore this e-mail: without a confirmation we send nothing more, and we forget this address within a week.\n\n${foot.text}`;
  return { subject, html: page(site, subject, body, foot), text };
}

/** "Yesterday's results", or the poll's own day when it was not yesterday's poll. */
export function resultsHeading(pollDate: LocalDate, mailDay: LocalDate): string {
  const age = daysBetween(pollDate, mailDay);
  if (age === 1) return "Yesterday's results";
  if (age === 0) return "Results of today's earlier poll";
  return `Results of ${formatLocalDate(pollDate)}`;
}

/** " <a>3 votes set aside after review</a> ·" after the total, when any were. */
function setAsideHtml(previous: FinalResults, publicUrl: string): string {
  const note = setAsideNote(previous.setAsideVotes);
  if (note === null) return '';
  return `
        <a href="${e(honestResultsUrl(publicUrl))}" style="color:${MUTED}">${e(note)}</a> ·`;
}

function resultsHtml(previous: FinalResults, heading: string, publicUrl: string): string {
  const rows = previous.results
    .map(
      (r) => `
      <tr><td style="padding:6px 0 2px;font-size:15px">${e(r.option)}</td>
          <td align="right" style="padding:6px 0 2px;font-size:15px;white-space:nowrap"><strong>${r.percentage}%</strong> · ${votesText(r.votes)}</td></tr>
      <tr><td colspan="2" style="padding:0 0 6px">
        <table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#e7e5e4;border-radius:6px">
          <tr><td style="height:10px;width:${Math.max(r.percentage, 1)}%;background:${GREEN};border-radius:6px;font-size:0;line-height:0">&nbsp;</td><td style="font-size:0;line-height:0">&nbsp;</td></tr>
        </table>
      </td></tr>`,
    )
    .join('');
  return `
    <tr><td style="padding:24px 24px 0">
      <h2 style="margin:0 0 4px;font-size:18px">${e(heading)}</h2>
      <p style="margin:0 0 12px;color:${MUTED};font-size:15px">${e(previous.question)}</p>
      <table role="presentation" width="100%" cellpadding="0" cellspacing="0">${rows}</table>
      <p style="margin:12px 0 0;font-size:15px">${votesText(previous.totalVotes)} in total ·${setAsideHtml(previous, publicUrl)}
        <a href="${e(pollUrlOf(publicUrl, previous.pollNumber))}" style="color:${GREEN}">See the full results</a></p>
    </td></tr>`;
}

/** The day's e-mail, sent on `day`: its question, and the final results of the poll before. */
export function dailyEmail(
  site: MailSite,
  unsubscribeUrl: string,
  day: LocalDate,
  today: DailyPoll,
  previous: FinalResults | null,
  frequencyUrl?: string,
): RenderedMail {
  const subject = `Today's hot take: ${today.question}`;
  const foot = footer(
    site,
    unsubscribeUrl,
    JOINED(site.siteName),
    { label: 'Unsubscribe', tail: ' with one click at any time.' },
    frequencyUrl,
  );
  const heading = previous && resultsHeading(previous.liveDate, day);
  const body = `
    <tr><td style="padding:16px 24px 0">
      <p style="margin:0 0 8px;color:${MUTED};font-size:14px">${e(formatLocalDate(day))}</p>
      <h1 style="margin:0 0 12px;padding:16px;border-radius:10px;background:${GREEN};color:#ffffff;font-size:22px;line-height:1.35">${e(today.question)}</h1>
      ${today.description ? `<p style="margin:0 0 12px;font-size:16px;line-height:1.5;color:${MUTED}">${e(today.description)}</p>` : ''}
      <p style="margin:0">${button(`${site.publicUrl}/`, 'Vote now')}</p>
    </td></tr>
    ${previous && heading ? resultsHtml(previous, heading, site.publicUrl) : ''}`;
  const setAside = previous && setAsideNote(previous.setAsideVotes);
  const setAsideLine = setAside ? `\n${setAside}. ${HONEST_RESULTS.title}: ${honestResultsUrl(site.publicUrl)}` : '';
  const resultLines = previous
    ? `\n\n${heading}: ${previous.question}\n${previous.results.map((r) => `- ${r.option}: ${r.percentage}% (${votesText(r.votes)})`).join('\n')}\n${votesText(previous.totalVotes)} in total. Full results: ${pollUrlOf(site.publicUrl, previous.pollNumber)}${setAsideLine}`
    : '';
  const text = `Today's hot take (${formatLocalDate(day)}):\n\n${today.question}\n${today.description ? `${today.description}\n` : ''}\nVote now: ${site.publicUrl}/${resultLines}\n\n${foot.text}`;
  return { subject, html: page(site, subject, body, foot), text };
}

/**
 * A staff invite: who invites, for which role, the link (good once, for 48 hours). Not a list
 * e-mail, so it has no unsubscribe link: it comes once, because the site's owner typed the address.
 */
export function staffInviteEmail(
  site: MailSite,
  invite: { url: string; role: string; invitedBy: string; expiresAt: string },
): RenderedMail {
  const subject = `You are invited to help run ${site.siteName}`;
  const postal = site.postalAddress ? `\n\n${site.siteName} · ${site.postalAddress}` : '';
  const foot = {
    html: `<tr><td style="padding:16px 24px;font-size:13px;line-height:1.5;color:${MUTED}">You get this e-mail because ${e(invite.invitedBy)} invited this address to the staff of ${e(site.siteName)}.${site.postalAddress ? `<br>${e(site.postalAddress)}` : ''}</td></tr>`,
  };
  const body = `
    <tr><td style="padding:16px 24px 0">
      <h1 style="margin:0 0 12px;font-size:24px;line-height:1.3">Join the staff of ${e(site.siteName)}</h1>
      <p style="margin:0 0 12px;font-size:16px;line-height:1.5">${e(invite.invitedBy)} invited you as ${e(invite.role)}.
        Open the link to choose your name and how you sign in: a passkey, or a password.</p>
      <p style="margin:0 0 12px">${button(invite.url, 'Accept the invite')}</p>
      <p style="margin:0 0 8px;font-size:15px;line-height:1.5;color:${MUTED}">The link works once, until ${e(invite.expiresAt)}.
        Not expecting this? Ignore this e-mail.</p>
    </td></tr>`;
  const text = `Join the staff of ${site.siteName}\n\n${invite.invitedBy} invited you as ${invite.role}. Open the link to choose your name and how you sign in: a passkey, or a password.\n\nAccept: ${invite.url}\n\nThe link works once, until ${invite.expiresAt}. Not expecting this? Ignore this e-mail.\n\nYou get this e-mail because ${invite.invitedBy} invited this address to the staff of ${site.siteName}.${postal}`;
  return { subject, html: page(site, subject, body, foot), text };
}

/**
 * A member of staff's account is under attack: many wrong passwords from several networks. It
 * says what still works, and what to do if the password may be known. At most one a day.
 */
export function staffAlertEmail(
  site: MailSite,
  alert: { name: string; email: string; adminUrl: string; at: string },
): RenderedMail {
  const subject = `Someone is trying to sign in to your ${site.siteName} account`;
  const postal = site.postalAddress ? `\n\n${site.siteName} · ${site.postalAddress}` : '';
  const lines = [
    `Hello ${alert.name},`,
    `In the 15 minutes before ${alert.at}, many wrong passwords were tried for your staff account (${alert.email}), from several networks. None got in.`,
    'You can still sign in as usual: with a passkey, or with your password from your own network. Guesses from the networks that are trying get no further.',
    'If you think someone may know your password, sign in, choose a new one (it ends every other session) and add a passkey if you have none.',
  ];
  const foot = {
    html: `<tr><td style="padding:16px 24px;font-size:13px;line-height:1.5;color:${MUTED}">You get this e-mail because you are on the staff of ${e(site.siteName)}. It is sent at most once a day.${site.postalAddress ? `<br>${e(site.postalAddress)}` : ''}</td></tr>`,
  };
  const body = `
    <tr><td style="padding:16px 24px 0">
      <h1 style="margin:0 0 12px;font-size:24px;line-height:1.3">${e(subject)}</h1>
      ${lines.map((line) => `<p style="margin:0 0 12px;font-size:16px;line-height:1.5">${e(line)}</p>`).join('\n      ')}
      <p style="margin:0 0 12px">${button(alert.adminUrl, 'Open the admin panel')}</p>
    </td></tr>`;
  const text = `${subject}\n\n${lines.join('\n\n')}\n\nThe admin panel: ${alert.adminUrl}\n\nYou get this e-mail because you are on the staff of ${site.siteName}. It is sent at most once a day.${postal}`;
  return { subject, html: page(site, subject, body, foot), text };
}

/**
 * Tells an owner or editor that a poll's votes need a look (issue 37, item 5): a network is
 * challenged, or the whole poll is in a surge. At most one an hour per poll.
 */
export function staffIntegrityEmail(
  site: MailSite,
  alert: { name: string; question: string; integrityUrl: string; at: string; surge: boolean },
): RenderedMail {
  const subject = `Votes on "${alert.question}" need a look`;
  const postal = site.postalAddress ? `\n\n${site.siteName} · ${site.postalAddress}` : '';
  const lines = [
    `Hello ${alert.name},`,
    alert.surge
      ? `At ${alert.at}, the poll "${alert.question}" got a sudden wave of votes unlike its others, from many networks at once. New browsers are now asked for a proof of work before their votes count.`
      : `At ${alert.at}, votes on the poll "${alert.question}" came in a way people do not vote, from one network. Its new browsers are now asked for a proof of work before their votes count.`,
    'Nothing has been set aside. Look at the integrity view: you can set a burst aside, restore it, or release held votes, and every change is logged.',
  ];
  const note = `You get this e-mail because you are an owner or editor of ${site.siteName}. It is sent at most once an hour for each poll.`;
  const foot = {
    html: `<tr><td style="padding:16px 24px;font-size:13px;line-height:1.5;color:${MUTED}">${e(note)}${site.postalAddress ? `<br>${e(site.postalAddress)}` : ''}</td></tr>`,
  };
  const body = `
    <tr><td style="padding:16px 24px 0">
      <h1 style="margin:0 0 12px;font-size:24px;line-height:1.3">${e(subject)}</h1>
      ${lines.map((line) => `<p style="margin:0 0 12px;font-size:16px;line-height:1.5">${e(line)}</p>`).join('\n      ')}
      <p style="margin:0 0 12px">${button(alert.integrityUrl, 'Open the integrity view')}</p>
    </td></tr>`;
  const text = `${subject}\n\n${lines.join('\n\n')}\n\nThe integrity view: ${alert.integrityUrl}\n\n${note}${postal}`;
  return { subject, html: page(site, subject, body, foot), text };
}
