/**
 * The weekly digest as an e-mail: the week's polls, each with its headline result, its adjusted
 * line where one is shown, the staff note ("What we learned") and a link, in the same frame as
 * the daily e-mail (email/templates.ts), with the same footer and its one-click unsubscribe.
 */
import { formatLocalDate } from '../../shared/time-labels.js';
import type { WeekDigest } from './digest.service.js';
import { weekPath, weekTitle } from './week-words.js';
import { button, footer, GREEN, JOINED, MUTED, page, type MailSite, type RenderedMail } from '../email/templates.js';
import { escapeHtml as e } from '../pages/app-html.js';
import { withAbsoluteLinks } from '../notes/note-markdown.js';

/** The note's HTML is the renderer's (notes/note-markdown.ts): safe to put in as it is. */
function pollHtml(poll: WeekDigest['polls'][number], publicUrl: string): string {
  const note = poll.note
    ? `<div style="margin:8px 0 0;padding:8px 12px;border-left:3px solid ${GREEN};font-size:15px;line-height:1.5">
          <p style="margin:0 0 4px;font-weight:700">What we learned</p>${withAbsoluteLinks(poll.note.html, publicUrl)}</div>`
    : '';
  const adjusted = poll.adjusted
    ? `<p style="margin:4px 0 0;font-size:14px;line-height:1.5;color:${MUTED}">${e(poll.adjusted)}</p>`
    : '';
  return `
    <tr><td style="padding:20px 24px 0">
      <p style="margin:0 0 4px;color:${MUTED};font-size:13px">Poll #${poll.pollNumber} · ${e(formatLocalDate(poll.liveDate))}</p>
      <h2 style="margin:0 0 6px;font-size:18px;line-height:1.35">${e(poll.question)}</h2>
      <p style="margin:0;font-size:16px"><strong>${e(poll.headline)}</strong></p>${adjusted}${note}
      <p style="margin:8px 0 0;font-size:15px"><a href="${e(poll.url)}" style="color:${GREEN}">See the full results</a></p>
    </td></tr>`;
}

function pollText(poll: WeekDigest['polls'][number]): string {
  return [
    `Poll #${poll.pollNumber} (${formatLocalDate(poll.liveDate)}): ${poll.question}`,
    poll.headline,
    poll.adjusted,
    poll.note ? `What we learned: ${poll.note.text}` : null,
    `Full results: ${poll.url}`,
  ]
    .filter(Boolean)
    .join('\n');
}

export function weeklyEmail(
  site: MailSite,
  links: { unsubscribeUrl: string; frequencyUrl: string },
  digest: WeekDigest,
): RenderedMail {
  const title = weekTitle(digest);
  const subject = `${site.siteName}: ${title}`;
  const weekUrl = `${site.publicUrl}${weekPath(digest.week)}`;
  const foot = footer(
    site,
    links.unsubscribeUrl,
    JOINED(site.siteName),
    { label: 'Unsubscribe', tail: ' with one click at any time.' },
    links.frequencyUrl,
  );
  const count = digest.polls.length === 1 ? 'One poll' : `${digest.polls.length} polls`;
  const body = `
    <tr><td style="padding:16px 24px 0">
      <h1 style="margin:0 0 8px;font-size:24px;line-height:1.3">${e(title)}</h1>
      <p style="margin:0;font-size:16px;line-height:1.5;color:${MUTED}">${count} this week: what teachers said, and what we learned.</p>
    </td></tr>
    ${digest.polls.map((poll) => pollHtml(poll, site.publicUrl)).join('')}
    <tr><td style="padding:24px 24px 0">
      <p style="margin:0 0 12px">${button(`${site.publicUrl}/`, "Vote on today's hot take")}</p>
      <p style="margin:0;font-size:14px"><a href="${e(weekUrl)}" style="color:${MUTED}">This week on the web</a></p>
    </td></tr>`;
  const text = `${title}\n\n${count} this week: what teachers said, and what we learned.\n\n${digest.polls.map(pollText).join('\n\n')}\n\nVote on today's hot take: ${site.publicUrl}/\nThis week on the web: ${weekUrl}\n\n${foot.text}`;
  return { subject, html: page(site, subject, body, foot), text };
}
