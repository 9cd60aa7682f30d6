/**
 * /week/2026-W48: the weekly digest as a page, the same polls, headlines, adjusted lines and
 * notes as the e-mail. Plain HTML from the server, readable with scripts off and in any
 * browser; notes are the renderer's HTML (notes/note-markdown.ts), everything else escaped.
 */
import { formatLocalDate } from '../../shared/time-labels.js';
import { localDateAt } from '../../shared/time.js';
import { weekTitle } from './week-words.js';
import { escapeHtml as e } from '../pages/app-html.js';
import type { PlainPage } from '../pages/plain-page.js';
import type { WeekDigest } from './digest.service.js';

const CSS = `main { max-width: 40rem; }
  article { padding: 1rem 0; border-top: 1px solid #e7e5e4; }
  .meta { margin: 0; color: #57534e; font-size: 0.875rem; }
  h2 { margin: 0.25rem 0 0.5rem; font-size: 1.125rem; line-height: 1.35; }
  .headline { margin: 0; font-weight: 700; }
  .adjusted { margin: 0.25rem 0 0; color: #57534e; font-size: 0.9375rem; }
  .note { margin: 0.75rem 0 0; padding: 0.25rem 0.75rem; border-left: 3px solid #15803d; }
  .note h3 { margin: 0.25rem 0; font-size: 0.9375rem; }
  .note p { margin: 0.25rem 0; }
  @media (prefers-color-scheme: dark) { .meta, .adjusted { color: #d6d3d1; } article { border-color: #44403c; } .note { border-color: #4ade80; } }`;

export const NO_WEEK_PAGE: PlainPage = {
  status: 404,
  title: 'No round-up for this week',
  body: `<p>Either the week has not come yet, or no poll closed in it.</p>
       <p><a href="/?view=archive">See past hot takes</a></p>`,
};

export function weekPage(digest: WeekDigest, timeZone: string): PlainPage {
  const polls = digest.polls
    .map(
      (poll) => `<article>
  <p class="meta">Poll #${poll.pollNumber} · <time datetime="${poll.liveDate}">${e(formatLocalDate(poll.liveDate))}</time></p>
  <h2><a href="${e(poll.url)}">${e(poll.question)}</a></h2>
  <p class="headline">${e(poll.headline)}</p>
  ${poll.adjusted ? `<p class="adjusted">${e(poll.adjusted)} <a href="/methods">How we adjust results</a></p>` : ''}
  ${poll.note ? `<section class="note" aria-label="What we learned"><h3>What we learned</h3>${poll.note.html}<p class="meta">Updated <time datetime="${e(poll.note.updatedAt)}">${e(formatLocalDate(localDateAt(new Date(poll.note.updatedAt), timeZone)))}</time></p></section>` : ''}
</article>`,
    )
    .join('\n');
  const count = digest.polls.length === 1 ? 'One poll' : `${digest.polls.length} polls`;
  return {
    status: 200,
    title: weekTitle(digest),
    body: `<p>${count} this week: what teachers said, and what we learned. <a href="/feed.xml">Follow the feed</a>.</p>
${polls}
<p><a href="/">Vote on today's hot take</a></p>`,
    public: {
      css: CSS,
      description:
        `${count} from ${formatLocalDate(digest.monday)}: ${digest.polls.map((poll) => poll.question).join(' · ')}`.slice(
          0,
          200,
        ),
    },
  };
}
