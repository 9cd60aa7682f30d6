/**
 * Pages the server writes whole, in the site's look, without the web app (issue 39: a topic's
 * page, search results): every visitor sees the same page for the same address, it paints at
 * once and works with scripts off, and it adds nothing to the JavaScript a first visit loads.
 * The frame is the app's (components/layout: the header with the logo, the footer's links and
 * note, the bottom navigation with Results as the current place, since these pages belong to
 * the past polls). No script: the colours follow the system's scheme, not the footer's stored
 * Light/Dark choice, which only the app's pages read. One inline sheet under the page's nonce;
 * links lead back into the app.
 */
import type { FastifyReply } from 'fastify';
import { METHODS } from '../../shared/methods.js';
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
  /** The link above the page back into the app; the archive's unless given (null: none). */
  back?: { href: string; label: string } | null;
}

export interface SitePageSite {
  siteName: string;
  publicUrl: string;
  https: boolean;
  /** The parent brand the footer links to, if any. */
  brandName: string | null;
  brandUrl: string | null;
  /** The year in the site's time zone, for the footer's ©. */
  year: () => string;
}

/** The app's logo (components/layout/site-header.tsx). */
const LOGO = `<svg class="site-header__mark" viewBox="0 0 64 64" aria-hidden="true"><rect width="64" height="64" rx="14" fill="#15803d"/><path d="M33 8c2 10 14 14 14 28a15 15 0 0 1-30 0c0-7 4-11 7-14 0 5 2 8 5 9-1-9 2-17 4-23z" fill="#fde047"/></svg>`;

/** The app's bottom navigation (components/layout/bottom-nav.tsx), Results current. */
const TABS = [
  { label: 'Today', to: '/', icon: 'M12 3 2 11h3v9h5v-6h4v6h5v-9h3z', current: false },
  { label: 'Results', to: '/?view=archive', icon: 'M4 20V10h4v10zm6 0V4h4v16zm6 0v-7h4v7z', current: true },
  { label: 'Suggest', to: '/?view=suggest', icon: 'M11 4h2v7h7v2h-7v7h-2v-7H4v-2h7z', current: false },
];
const BOTTOM_NAV = `<nav class="bottom-nav" aria-label="Main"><ul class="bottom-nav__list">${TABS.map(
  (tab) =>
    `<li><a href="${tab.to}" class="bottom-nav__tab"${tab.current ? ' aria-current="true"' : ''}><svg viewBox="0 0 24 24" aria-hidden="true" class="bottom-nav__icon"><path d="${tab.icon}" fill="currentColor"/></svg>${tab.label}</a></li>`,
).join('')}</ul></nav>`;

function footerHtml(site: SitePageSite): string {
  const brand = site.brandUrl
    ? `<a href="${e(site.brandUrl)}" target="_blank" rel="noopener noreferrer">${e(site.brandName ?? new URL(site.brandUrl).hostname)}<span class="visually-hidden"> (opens in a new tab)</span></a>`
    : '';
  return `<footer class="site-footer">
<nav class="container site-footer__links" aria-label="About this site"><a href="/faq">FAQ</a><a href="/terms">Terms of Service</a><a href="/privacy">Privacy &amp; Cookies</a><a href="${METHODS.path}">${e(METHODS.footerLabel)}</a><a href="/api">API</a>${brand}</nav>
<p class="container site-footer__note">© ${e(site.year())} ${e(site.siteName)}. Votes are anonymous.</p>
</footer>`;
}

const STYLE = `
:root { color-scheme: light dark; --nav-height: 4rem; --green: light-dark(#15803d, #4ade80); --green-dark: light-dark(#14532d, #86efac);
  --green-tint: light-dark(#dcfce7, #14532d); --ink: light-dark(#1c1917, #f5f5f4); --muted: light-dark(#57534e, #d6d3d1);
  --line: light-dark(#d6d3d1, #57534e); --paper: light-dark(#f5f7f4, #1c1917); --card: light-dark(#fff, #292524);
  --focus: light-dark(#1d4ed8, #93c5fd); --track: light-dark(#e7e5e4, #44403c); --on-green: light-dark(#fff, #052e16);
  --mark: light-dark(#fef08a, #854d0e); --input-border: light-dark(#78716c, #a8a29e);
  font-family: system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif; line-height: 1.5; }
* { box-sizing: border-box; }
body { margin: 0; min-height: 100vh; color: var(--ink); background: var(--paper); }
a { color: var(--green-dark); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.container { width: 100%; max-width: 40rem; margin: 0 auto; padding: 0 1rem; }
.visually-hidden { position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden;
  clip: rect(0, 0, 0, 0); white-space: nowrap; border: 0; }
.skip-link { position: absolute; left: 0.5rem; top: 0.5rem; z-index: 200; padding: 0.5rem 1rem; border-radius: 0.875rem;
  background: var(--card); transform: translateY(-200%); } .skip-link:focus { transform: none; }
.site-header { background: var(--card); border-bottom: 1px solid var(--line); }
.site-header__inner { display: flex; align-items: center; min-height: 3.5rem; }
.site-header__logo { display: inline-flex; align-items: center; gap: 0.5rem; padding: 0.25rem 0; color: var(--green-dark);
  font-size: 1.25rem; font-weight: 800; text-decoration: none; }
.site-header__mark { width: 2rem; height: 2rem; }
main { padding-top: 1rem; padding-bottom: 2rem; }
.back { display: inline-block; padding: 0.5rem 0; font-weight: 600; }
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
.site-footer { padding: 1.5rem 0 calc(var(--nav-height) + 1.5rem); color: var(--muted); font-size: 0.9375rem; }
.site-footer__links { display: flex; flex-wrap: wrap; gap: 0.25rem 1.25rem; }
.site-footer__links a { display: inline-block; padding: 0.5rem 0; color: var(--muted); }
.site-footer__note { margin-top: 0.5rem; }
.bottom-nav { position: fixed; z-index: 50; left: 0; right: 0; bottom: 0; background: var(--card);
  border-top: 1px solid var(--line); padding-bottom: env(safe-area-inset-bottom); }
.bottom-nav__list { display: flex; justify-content: center; max-width: 40rem; margin: 0 auto; padding: 0; list-style: none; }
.bottom-nav__list > li { flex: 1; }
.bottom-nav__tab { display: flex; flex-direction: column; align-items: center; justify-content: center; gap: 0.125rem;
  height: var(--nav-height); color: var(--muted); font-size: 0.8125rem; font-weight: 600; text-decoration: none; }
.bottom-nav__tab[aria-current] { color: var(--green-dark); } .bottom-nav__tab[aria-current] .bottom-nav__icon { color: var(--green); }
.bottom-nav__icon { width: 1.5rem; height: 1.5rem; }
@media (min-width: 48rem) { form.search { grid-template-columns: 2fr 1fr 1fr auto; align-items: end; }
  form.search .q { grid-column: auto; } button { grid-column: auto; } }
`;

export function sendSitePage(reply: FastifyReply, page: SitePage & { site: SitePageSite }) {
  const { site, status, title, description, path, body, feed, noindex = false, css = '' } = page;
  const back = page.back === undefined ? { href: '/?view=archive', label: 'Back to Past Hot Takes' } : page.back;
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
<a class="skip-link" href="#main">Skip to content</a>
<header class="site-header"><div class="container site-header__inner">
<a href="/" class="site-header__logo" aria-label="${e(site.siteName)}, today's poll">${LOGO}<span>${e(site.siteName)}</span></a>
</div></header>
<main id="main" class="container">
${back ? `<a class="back" href="${e(back.href)}">← ${e(back.label)}</a>` : ''}
${body}
</main>
${footerHtml(site)}
${BOTTOM_NAV}
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
