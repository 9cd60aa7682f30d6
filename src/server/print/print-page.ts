/**
 * The staff-room sheet: one A4 or Letter page with the question, the result chart as SVG, the
 * percentages and n, the date, and a QR code to the poll's page; black and white only, so it
 * prints the same on any printer. Today's poll before the close prints as "Vote today", with
 * its QR code and no results. No script: the stylesheet is allowed by its hash.
 */
import { HONEST_RESULTS, honestResultsUrl } from '../../shared/honest-results.js';
import { setAsideNote, votesText } from '../../shared/results.js';
import { METHODS, methodsUrl } from '../../shared/methods.js';
import { weightedLine } from '../../shared/weighted-line.js';
import { escapeHtml as e } from '../pages/app-html.js';
import { hashedPage, hashedPageCsp, hashedStyle } from '../pages/hashed-page.js';
import type { EmbedView } from '../polls/poll.js';

export const PRINT_STYLE = hashedStyle(`
@page { margin: 14mm; }
* { box-sizing: border-box; }
html, body { margin: 0; background: #fff; color: #000; }
body { font: 14pt/1.35 system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif; }
main { max-width: 180mm; margin: 0 auto; padding: 8mm 0; }
.brand { margin: 0; font-size: 13pt; font-weight: 800; letter-spacing: .08em; text-transform: uppercase; }
.meta { margin: 1mm 0 5mm; font-size: 12pt; }
.kicker { margin: 0 0 2mm; font-size: 22pt; font-weight: 800; }
h1 { margin: 0 0 6mm; font-size: 24pt; line-height: 1.2; }
.description { margin: -3mm 0 6mm; }
.chart { width: 100%; height: auto; margin: 0 0 3mm; }
.chart text { font: 13pt system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif; fill: #000; }
.chart .pct { font-weight: 800; }
.total { margin: 0 0 6mm; font-weight: 700; }
.set-aside { margin: -4mm 0 6mm; font-size: 12pt; }
.set-aside a, .weighted a { color: #000; }
.weighted { margin: -3mm 0 6mm; font-size: 12pt; }
.options { margin: 0 0 6mm; padding-left: 6mm; font-size: 16pt; }
.options li { margin: 2mm 0; }
.scan { display: flex; align-items: center; gap: 6mm; break-inside: avoid; border-top: 1.5pt solid #000; padding-top: 5mm; }
.scan svg { width: 42mm; height: 42mm; flex: none; }
.scan p { margin: 0; }
.url { font-weight: 700; overflow-wrap: anywhere; }
.hint { margin-top: 6mm; font-size: 11pt; }
@media print { .hint { display: none; } main { padding: 0; } }
`);

/** The sheet's CSP: nothing but its own stylesheet and inline SVG, and no framing. */
export const printCsp = (https: boolean) => hashedPageCsp(PRINT_STYLE, { https, frameAncestors: "'none'" });

const BAR_HEIGHT = 26;
const ROW = 58;

/**
 * Horizontal bars, black on a white track with a black outline: readable in black and white,
 * with every number written out as well as drawn.
 */
function resultChart(results: { option: string; votes: number; percentage: number }[]): string {
  const width = 680;
  const height = results.length * ROW;
  const rows = results
    .map((r, i) => {
      const y = i * ROW;
      const fill = (r.percentage / 100) * width;
      return (
        `<text x="0" y="${y + 18}">${e(r.option)}</text>` +
        `<text class="pct" x="${width}" y="${y + 18}" text-anchor="end">${r.percentage}% · ${e(votesText(r.votes))}</text>` +
        `<rect x="0.75" y="${y + 26}" width="${width - 1.5}" height="${BAR_HEIGHT}" fill="#fff" stroke="#000" stroke-width="1.5"/>` +
        `<rect x="0.75" y="${y + 26}" width="${Math.max(0, fill - 1.5).toFixed(1)}" height="${BAR_HEIGHT}" fill="#000"/>`
      );
    })
    .join('');
  const summary = results.map((r) => `${r.option}: ${r.percentage}%`).join(', ');
  return `<svg class="chart" viewBox="0 0 ${width} ${height}" role="img" aria-label="${e(summary)}" xmlns="http://www.w3.org/2000/svg">${rows}</svg>`;
}

/**
 * "3 votes set aside after review", and where the site says what it checks, written out: paper
 * has no links. Nothing when no vote was set aside.
 */
function setAsideLine(setAsideVotes: number, publicUrl: string): string {
  const note = setAsideNote(setAsideVotes);
  if (note === null) return '';
  const url = honestResultsUrl(publicUrl);
  return `<p class="set-aside">${e(note)}. ${e(HONEST_RESULTS.title)}: <a class="url" href="${e(url)}">${e(url)}</a></p>`;
}

/**
 * The weighted line under the result, with where the site says how it adjusts written out:
 * paper has no links. Nothing when it is withheld.
 */
function weightedParagraph(view: Extract<EmbedView, { kind: 'results' }>, publicUrl: string): string {
  const line = weightedLine(
    view.weighted,
    view.results.map((r) => r.option),
  );
  if (!line?.adjusted) return '';
  const url = methodsUrl(publicUrl);
  return `<p class="weighted">${e(line.text)} ${e(METHODS.linkText)}: <a class="url" href="${e(url)}">${e(url)}</a></p>`;
}

export function renderPrintSheet(
  view: EmbedView,
  qr: string,
  { siteName, publicUrl }: { siteName: string; publicUrl: string },
): string {
  const description = view.description ? `<p class="description">${e(view.description)}</p>` : '';
  let body: string;
  let kicker = '';
  if (view.kind === 'vote') {
    kicker = '<p class="kicker">Vote today</p>';
    body =
      `<ol class="options">${view.options.map((o) => `<li>${e(o)}</li>`).join('')}</ol>` +
      `<div class="scan">${qr}<p>Scan to vote anonymously, in seconds.<br>Voting closes at ${e(view.closesAt)}.<br><span class="url">${e(view.pollUrl)}</span></p></div>`;
  } else {
    body =
      resultChart(view.results) +
      `<p class="total">n = ${e(votesText(view.totalVotes))} · ${view.past ? 'Poll closed' : 'Voting has closed for today'}</p>` +
      setAsideLine(view.setAsideVotes, publicUrl) +
      weightedParagraph(view, publicUrl) +
      `<div class="scan">${qr}<p>Scan to see the poll and today’s hot take.<br><span class="url">${e(view.pollUrl)}</span></p></div>`;
  }
  return hashedPage({
    style: PRINT_STYLE,
    title: `Print: ${view.question} · ${siteName}`,
    body: `<p class="brand">${e(siteName)}</p>
<p class="meta">Poll #${view.pollNumber} · ${e(view.date)}</p>
${kicker}<h1>${e(view.question)}</h1>
${description}${body}
<p class="hint">Print this page (Ctrl+P, or ⌘P on a Mac) for the staff room: it fits one A4 or Letter page.</p>`,
  });
}
