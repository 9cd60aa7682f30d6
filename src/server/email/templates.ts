/**
 * The two e-mails. HTML for mail clients (tables, inline styles, one column that reads well on a
 * phone, real text rather than images so screen readers read everything) and a plain-text
 * alternative. Both carry the site's name, its postal address and an unsubscribe link.
 */
import { votesText, type ResultItem } from '../../shared/results.js';
import { formatLocalDate } from '../../shared/time.js';
import { escapeHtml as e } from '../http/app-html.js';

export interface MailSite {
  siteName: string;
  publicUrl: string;
  postalAddress: string | undefined;
}

export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
}

export interface DailyPoll {
  pollNumber: number;
  question: string;
  description: string | null;
  liveDate: string;
}

export interface FinalResults {
  pollNumber: number;
  question: string;
  results: ResultItem[];
  totalVotes: number;
}

const GREEN = '#15803d';
const INK = '#1c1917';
const MUTED = '#57534e';


function footer(site: MailSite, unsubscribeUrl: string): { html: string; text: string } {
  const address = site.postalAddress ?? 'Postal address not configured (set MAIL_POSTAL_ADDRESS).';
  return {
    html: `
      <tr><td style="padding:24px 24px 32px;color:${MUTED};font-size:13px;line-height:1.5">
        <p style="margin:0 0 8px">You get this e-mail because you joined the ${e(site.siteName)} list.
          <a href="${e(unsubscribeUrl)}" style="color:${MUTED}">Unsubscribe</a> with one click at any time.</p>
        <p style="margin:0">${e(site.siteName)} · ${e(address)}</p>
      </td></tr>`,
    text: `You get this e-mail because you joined the ${site.siteName} list.\nUnsubscribe with one click: ${unsubscribeUrl}\n\n${site.siteName} · ${address}\n`,
  };
}

function page(site: MailSite, title: string, body: string, unsubscribeUrl: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${e(title)}</title></head>
<body style="margin:0;padding:0;background:#f5f7f4;font-family:system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif;color:${INK}">
  <table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f5f7f4">
    <tr><td align="center" style="padding:16px 8px">
      <table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:600px;background:#ffffff;border-radius:12px">
        <tr><td style="padding:24px 24px 0;color:${GREEN};font-size:14px;font-weight:800;letter-spacing:.06em">${e(site.siteName.toUpperCase())}</td></tr>
        ${body}
        ${footer(site, unsubscribeUrl).html}
      </table>
    </td></tr>
  </table>
</body>
</html>`;
}

const button = (href: string, label: string) =>
  `<a href="${e(href)}" style="display:inline-block;padding:12px 20px;border-radius:999px;background:${GREEN};color:#ffffff;font-weight:700;text-decoration:none">${e(label)}</a>`;

export function welcomeEmail(site: MailSite, unsubscribeUrl: string): RenderedMail {
  const subject = `Welcome to ${site.siteName}!`;
  const body = `
    <tr><td style="padding:16px 24px 0">
      <h1 style="margin:0 0 12px;font-size:24px;line-height:1.3">You're on the list!</h1>
      <p style="margin:0 0 12px;font-size:16px;line-height:1.5">Thanks for joining. Each day a new hot take goes live,
        we'll send you the question and the final results of the one before.</p>
      <p style="margin:0 0 8px">${button(`${site.publicUrl}/`, "Vote on today's hot take")}</p>
    </td></tr>`;
  const text = `You're on the list!\n\nThanks for joining ${site.siteName}. Each day a new hot take goes live, we'll send you the question and the final results of the one before.\n\nVote on today's hot take: ${site.publicUrl}/\n\n${footer(site, unsubscribeUrl).text}`;
  return { subject, html: page(site, subject, body, unsubscribeUrl), text };
}

function resultsHtml(previous: FinalResults, publicUrl: string): string {
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
      <h2 style="margin:0 0 4px;font-size:18px">Yesterday's results</h2>
      <p style="margin:0 0 12px;color:${MUTED};font-size:15px">${e(previous.question)}</p>
      <table role="presentation" width="100%" cellpadding="0" cellspacing="0">${rows}</table>
      <p style="margin:12px 0 0;font-size:15px">${votesText(previous.totalVotes)} in total ·
        <a href="${e(`${publicUrl}/poll-${previous.pollNumber}`)}" style="color:${GREEN}">See the full results</a></p>
    </td></tr>`;
}

export function dailyEmail(site: MailSite, unsubscribeUrl: string, today: DailyPoll, previous: FinalResults | null): RenderedMail {
  const subject = `Today's hot take: ${today.question}`;
  const body = `
    <tr><td style="padding:16px 24px 0">
      <p style="margin:0 0 8px;color:${MUTED};font-size:14px">${e(formatLocalDate(today.liveDate))}</p>
      <h1 style="margin:0 0 12px;padding:16px;border-radius:10px;background:${GREEN};color:#ffffff;font-size:22px;line-height:1.35">${e(today.question)}</h1>
      ${today.description ? `<p style="margin:0 0 12px;font-size:16px;line-height:1.5;color:${MUTED}">${e(today.description)}</p>` : ''}
      <p style="margin:0">${button(`${site.publicUrl}/`, 'Vote now')}</p>
    </td></tr>
    ${previous ? resultsHtml(previous, site.publicUrl) : ''}`;
  const resultLines = previous
    ? `\n\nYesterday's results: ${previous.question}\n${previous.results.map((r) => `- ${r.option}: ${r.percentage}% (${votesText(r.votes)})`).join('\n')}\n${votesText(previous.totalVotes)} in total. Full results: ${site.publicUrl}/poll-${previous.pollNumber}`
    : '';
  const text = `Today's hot take (${formatLocalDate(today.liveDate)}):\n\n${today.question}\n${today.description ? `${today.description}\n` : ''}\nVote now: ${site.publicUrl}/${resultLines}\n\n${footer(site, unsubscribeUrl).text}`;
  return { subject, html: page(site, subject, body, unsubscribeUrl), text };
}
