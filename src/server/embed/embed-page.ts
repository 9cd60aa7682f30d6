/**
 * The embed's page: plain HTML and one small stylesheet, no script at all, so it loads fast
 * inside a newsletter's or a school site's iframe. It fills the iframe's width and stays
 * readable down to 300 px, and follows the reader's light or dark setting. The stylesheet is
 * allowed by its hash, so the page is the same bytes every time (and has a stable ETag) under
 * a CSP as strict as the site's, except that any site may frame it.
 */
import { honestResultsUrl } from '../../shared/honest-results.js';
import { setAsideNote, votesText } from '../../shared/results.js';
import { METHODS, methodsUrl } from '../../shared/methods.js';
import { weightedLine } from '../../shared/weighted-line.js';
import { escapeHtml as e } from '../pages/app-html.js';
import { hashedPage, hashedPageCsp, hashedStyle } from '../pages/hashed-page.js';
import type { EmbedView } from '../polls/poll.js';

export const EMBED_STYLE = hashedStyle(`
:root { color-scheme: light dark; --text: #1c1917; --muted: #57534e; --bg: #ffffff; --line: #d6d3d1;
  --accent: #15803d; --on-accent: #ffffff; --track: #e7e5e4; --link: #14532d; }
@media (prefers-color-scheme: dark) {
  :root { --text: #f5f5f4; --muted: #d6d3d1; --bg: #1c1917; --line: #57534e;
    --accent: #4ade80; --on-accent: #052e16; --track: #44403c; --link: #86efac; }
}
* { box-sizing: border-box; }
html, body { margin: 0; background: var(--bg); color: var(--text); }
body { font: 16px/1.4 system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif; overflow-wrap: anywhere; }
main { padding: 12px 14px; max-width: 720px; }
.brand { margin: 0 0 4px; font-size: 13px; font-weight: 700; letter-spacing: .04em; color: var(--muted); }
.brand a { color: var(--link); }
h1 { margin: 0 0 10px; font-size: 19px; line-height: 1.3; }
ul { list-style: none; margin: 0; padding: 0; display: grid; gap: 8px; }
.vote { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: 4px 12px;
  min-height: 44px; padding: 8px 12px; border: 2px solid var(--line); border-radius: 10px; color: var(--text);
  text-decoration: none; }
.vote:hover, .vote:focus-visible { border-color: var(--accent); }
.vote:focus-visible, a:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.option { font-weight: 600; }
.cta { font-size: 14px; font-weight: 700; padding: 2px 10px; border-radius: 999px; background: var(--accent);
  color: var(--on-accent); white-space: nowrap; }
.row { display: flex; justify-content: space-between; gap: 8px; font-size: 15px; }
.row b { white-space: nowrap; }
svg { display: block; width: 100%; height: 10px; margin-top: 3px; }
.track { fill: var(--track); }
.fill { fill: var(--accent); }
.foot, .weighted { margin: 10px 0 0; font-size: 14px; color: var(--muted); }
.weighted a { color: var(--link); }
.foot a { color: var(--link); font-weight: 600; }
.sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
`);

/** Any site may frame an embed; nothing else is loosened. */
export const embedCsp = (https: boolean) => hashedPageCsp(EMBED_STYLE, { https, frameAncestors: '*' });

/** A link that opens the site in a new tab, as every link of an embed does, and says so. */
const newTab = (href: string, html: string, className?: string) =>
  `<a${className ? ` class="${className}"` : ''} href="${e(href)}" target="_blank" rel="noopener">${html}<span class="sr"> (opens in a new tab)</span></a>`;

/** A result bar: SVG geometry, since the CSP allows no inline style attributes. */
const bar = (percentage: number) =>
  `<svg viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true" focusable="false"><rect class="track" width="100" height="10" rx="2"/><rect class="fill" width="${percentage}" height="10" rx="2"/></svg>`;

export function renderEmbed(view: EmbedView, { siteName, publicUrl }: { siteName: string; publicUrl: string }): string {
  const site = newTab(`${publicUrl}/`, e(siteName));
  let label: string;
  let body: string;
  if (view.kind === 'vote') {
    label = `Today’s Hot Take · Poll #${view.pollNumber}`;
    const items = view.options
      .map(
        (option, index) =>
          `<li>${newTab(view.voteUrls[index] ?? '', `<span class="option">${e(option)}</span><span class="cta">Vote on ${e(siteName)}</span>`, 'vote')}</li>`,
      )
      .join('');
    body = `<ul>${items}</ul><p class="foot">Anonymous, one tap on ${e(siteName)}. Results after you vote. Voting closes at ${e(view.closesAt)}.</p>`;
  } else {
    label = `Poll #${view.pollNumber} · ${e(view.date)}`;
    const items = view.results
      .map(
        (r) =>
          `<li><div class="row"><span>${e(r.option)}</span><b>${r.percentage}% · ${e(votesText(r.votes))}</b></div>${bar(r.percentage)}</li>`,
      )
      .join('');
    const status = view.past ? 'Poll closed' : 'Voting has closed for today';
    const note = setAsideNote(view.setAsideVotes);
    const setAside = note === null ? '' : ` · ${newTab(honestResultsUrl(publicUrl), e(note))}`;
    // The adjusted figures under the raw ones; a withheld line says nothing in so small a frame.
    const line = weightedLine(
      view.weighted,
      view.results.map((r) => r.option),
    );
    const weighted = line?.adjusted
      ? `<p class="weighted">${e(line.text)} ${newTab(methodsUrl(publicUrl), e(METHODS.linkText))}</p>`
      : '';
    body = `<ul>${items}</ul>${weighted}<p class="foot">${status} · Total: ${e(votesText(view.totalVotes))}${setAside} · ${newTab(view.pollUrl, `See all votes on ${e(siteName)}`)}</p>`;
  }
  return hashedPage({
    style: EMBED_STYLE,
    title: `${view.question} · ${siteName}`,
    canonical: view.pollUrl,
    body: `<p class="brand">${site} · ${label}</p>\n<h1>${e(view.question)}</h1>\n${body}`,
  });
}

/** When there is no poll today (between a poll's removal and the next). */
export function renderNoPoll({ siteName, publicUrl }: { siteName: string; publicUrl: string }): string {
  const home = `${publicUrl}/`;
  return hashedPage({
    style: EMBED_STYLE,
    title: siteName,
    body: `<p class="brand">${newTab(home, e(siteName))}</p>
<h1>No poll today</h1>
<p class="foot">A new hot take goes live at midnight. ${newTab(home, `Browse past polls on ${e(siteName)}`)}</p>`,
  });
}
