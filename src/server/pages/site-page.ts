/**
 * Pages the server writes whole, in the site's look, without the web app (issue 39: a topic's
 * page, search results): every visitor sees the same page for the same address, it paints at
 * once and works with scripts off, and it adds nothing to the JavaScript a first visit loads.
 * One inline sheet under the page's nonce; links lead back into the app.
 */
import type { FastifyReply } from 'fastify';
import { escapeHtml as e } from './app-html.js';
import { newNonce, pageCsp } from '../http/security.js';

export interface SitePage {
  status: number;
  /** The page's own title; the site's name follows it. */
  title: string;
  description: string;
  /** The page's own address (path and query), for its canonical link. */
  path: string;
  /** HTML: escape every value put into it. */
  body: string;
  /** An Atom feed of what the page lists. */
  feed?: { title: string; path: string };
  /** Search results are not for search engines' indexes. */
  noindex?: boolean;
  /** The page's own rules, after the site's. */
  css?: string;
}

export interface SitePageSite {
  siteName: string;
  publicUrl: string;
  https: boolean;
}

const STYLE = `
:root { color-scheme: light dark; --green: light-dark(#15803d, #4ade80); --green-dark: light-dark(#14532d, #86efac);
  --green-tint: light-dark(#dcfce7, #14532d); --ink: light-dark(#1c1917, #f5f5f4); --muted: light-dark(#57534e, #d6d3d1);
  --line: light-dark(#d6d3d1, #57534e); --paper: light-dark(#f5f7f4, #1c1917); --card: light-dark(#fff, #292524);
  --focus: light-dark(#1d4ed8, #93c5fd); --track: light-dark(#e7e5e4, #44403c); --on-green: light-dark(#fff, #052e16);
  --mark: light-dark(#fef08a, #854d0e); --input-border: light-dark(#78716c, #a8a29e);
  font-family: system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif; line-height: 1.5; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--ink); background: var(--paper); }
a { color: var(--green-dark); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.top { background: var(--card); border-bottom: 1px solid var(--line); }
.top__inner, main { max-width: 40rem; margin: 0 auto; padding: 0.75rem 1rem; }
.top__inner { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: 0.5rem; }
.brand { color: var(--green); font-weight: 800; letter-spacing: 0.06em; text-decoration: none; }
.top nav { display: flex; gap: 1rem; font-weight: 600; }
h1 { font-size: 1.5rem; margin: 1rem 0 0.5rem; }
.lead { color: var(--muted); margin: 0 0 1rem; }
.card { background: var(--card); border-radius: 0.875rem; padding: 1rem; margin: 0 0 0.75rem;
  box-shadow: 0 1px 2px light-dark(rgb(0 0 0 / 0.06), rgb(0 0 0 / 0.4)); }
.list { list-style: none; margin: 0; padding: 0; }
.meta { margin: 0; color: var(--muted); font-size: 0.875rem; font-weight: 600; }
.question { font-size: 1.125rem; margin: 0.25rem 0 0.5rem; }
.text { margin: 0 0 0.5rem; color: var(--muted); }
.results { list-style: none; margin: 0 0 0.5rem; padding: 0; display: grid; gap: 0.375rem; }
.result { display: grid; grid-template-columns: 1fr auto; gap: 0 0.5rem; font-size: 0.9375rem; }
.result svg { grid-column: 1 / -1; width: 100%; height: 0.5rem; border-radius: 999px; }
.result .track { fill: var(--track); } .result .fill { fill: var(--green); }
.topics { display: flex; flex-wrap: wrap; gap: 0.375rem; margin: 0.5rem 0 0; padding: 0; list-style: none; }
.topics a { display: inline-block; padding: 0.125rem 0.625rem; border-radius: 999px; background: var(--green-tint);
  color: var(--green-dark); font-size: 0.875rem; font-weight: 600; text-decoration: none; }
mark { background: var(--mark); color: inherit; border-radius: 0.125rem; padding: 0 0.0625rem; }
form.search { display: grid; gap: 0.5rem; grid-template-columns: 1fr 1fr; }
form.search .q { grid-column: 1 / -1; }
label { display: block; font-size: 0.875rem; font-weight: 600; margin-bottom: 0.25rem; }
input, select { width: 100%; min-height: 2.75rem; padding: 0.5rem 0.75rem; border: 1px solid var(--input-border);
  border-radius: 0.5rem; background: var(--card); color: var(--ink); font: inherit; }
button { grid-column: 1 / -1; min-height: 2.75rem; padding: 0.5rem 1.25rem; border: 0; border-radius: 999px;
  background: var(--green); color: var(--on-green); font: inherit; font-weight: 700; cursor: pointer; }
.notice { padding: 0.75rem 1rem; border-radius: 0.5rem; background: light-dark(#fee2e2, #7f1d1d); color: light-dark(#7f1d1d, #fee2e2); }
.pages { display: flex; justify-content: space-between; gap: 1rem; margin: 1rem 0; font-weight: 600; }
footer { max-width: 40rem; margin: 0 auto; padding: 1rem; color: var(--muted); font-size: 0.875rem; }
@media (min-width: 48rem) { form.search { grid-template-columns: 2fr 1fr 1fr auto; align-items: end; }
  form.search .q { grid-column: auto; } button { grid-column: auto; } }
`;

export function sendSitePage(reply: FastifyReply, page: SitePage & { site: SitePageSite }) {
  const { site, status, title, description, path, body, feed, noindex = false, css = '' } = page;
  const nonce = newNonce();
  const url = `${site.publicUrl}${path}`;
  return reply
    .status(status)
    .header('content-security-policy', pageCsp({ https: site.https, styleNonce: nonce }))
    .header('cache-control', 'no-cache')
    .type('text/html; charset=utf-8').send(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(title)} · ${e(site.siteName)}</title>
<meta name="description" content="${e(description)}">
${noindex ? '<meta name="robots" content="noindex">' : `<link rel="canonical" href="${e(url)}">`}
${feed ? `<link rel="alternate" type="application/atom+xml" title="${e(feed.title)}" href="${e(feed.path)}">` : ''}
<meta property="og:title" content="${e(title)}"><meta property="og:description" content="${e(description)}">
<meta property="og:url" content="${e(url)}"><meta property="og:site_name" content="${e(site.siteName)}">
<style nonce="${nonce}">${STYLE}${css}</style>
</head>
<body>
<header class="top"><div class="top__inner">
<a class="brand" href="/">${e(site.siteName.toUpperCase())}</a>
<nav aria-label="Site"><a href="/">Today</a><a href="/?view=archive">Past Hot Takes</a><a href="/search">Search</a></nav>
</div></header>
<main id="main">
${body}
</main>
<footer><a href="/">${e(site.siteName)}</a> · <a href="/faq">FAQ</a> · <a href="/privacy">Privacy</a> · <a href="/api">API</a></footer>
</body>
</html>`);
}

/** A poll's topics as links to their pages. */
export function topicLinksHtml(topics: readonly { slug: string; name: string }[] | undefined): string {
  if (!topics || topics.length === 0) return '';
  const links = topics.map((topic) => `<li><a href="/topics/${e(topic.slug)}">${e(topic.name)}</a></li>`);
  return `<ul class="topics" aria-label="Topics">${links.join('')}</ul>`;
}

/** Marked text (even: plain, odd: a matched word), every part escaped, matches in <mark>. */
export function markedHtml(parts: readonly string[]): string {
  return parts.map((part, i) => (i % 2 === 1 ? `<mark>${e(part)}</mark>` : e(part))).join('');
}

/** A result as bars: each option, its share and a bar drawn as SVG (no style attribute under the CSP). */
export function resultsHtml(results: readonly { option: string; percentage: number; votes: number }[]): string {
  const items = results.map(
    (result) => `<li class="result"><span>${e(result.option)}</span><strong>${result.percentage}%</strong>
<svg viewBox="0 0 100 8" preserveAspectRatio="none" aria-hidden="true"><rect class="track" width="100" height="8"/><rect class="fill" width="${result.percentage}" height="8"/></svg></li>`,
  );
  return `<ul class="results">${items.join('')}</ul>`;
}
