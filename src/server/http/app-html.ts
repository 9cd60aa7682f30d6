/**
 * The page every screen of the web app starts from: the built index.html with this site's
 * name and configuration written in, the head this address deserves (title, description,
 * canonical address, Open Graph and Twitter card tags), and a fresh style nonce for each
 * response.
 */
import { randomBytes } from 'node:crypto';
import { HTML_PLACEHOLDERS, SITE_CONFIG_ELEMENT_ID, type SiteConfig } from '../../shared/site-config.js';

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

/** JSON that cannot end the <script> element it sits in, whatever the strings hold. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

export interface RenderedPage {
  html: string;
  styleNonce: string;
}

/** What a page says about itself to browsers, search engines and link previews. */
export interface PageHead {
  /** The page's own title (a question, "404 Page Not Found"); null for the site's own pages. */
  title: string | null;
  description: string;
  /** The canonical address; null on a page that does not exist. */
  url: string | null;
  /** A 1200×630 preview image, with its text alternative. */
  image: { url: string; alt: string };
  /** Keep the page out of search results (404s). */
  noindex?: boolean;
}

export const OG_IMAGE_SIZE = { width: 1200, height: 630 } as const;

/** Today's page and each poll's page can be embedded: oEmbed consumers find out how here. */
const EMBEDDABLE_PATH = /^\/(poll-[1-9]\d*)?$/;

/** Every page names the open data's feed; `/` and `/poll-N` also name their oEmbed answer. */
function discoveryLinks(url: string | null, siteName: string): string[] {
  const feed = `<link rel="alternate" type="application/atom+xml" title="${escapeHtml(`${siteName}: past polls`)}" href="/feed.xml" />`;
  if (url === null) return [feed];
  const { origin, pathname } = new URL(url);
  if (!EMBEDDABLE_PATH.test(pathname)) return [feed];
  const oembed = `${origin}/oembed?url=${encodeURIComponent(url)}&format=json`;
  return [
    feed,
    `<link rel="alternate" type="application/json+oembed" title="${escapeHtml(siteName)}" href="${escapeHtml(oembed)}" />`,
  ];
}

/** The tags of a head, every value escaped: a question can hold quotes, < and &. */
export function renderHead(head: PageHead, siteName: string): string {
  const meta = (attribute: 'name' | 'property', key: string, value: string) =>
    `<meta ${attribute}="${key}" content="${escapeHtml(value)}" />`;
  // The tab reads "Question · Site"; a preview shows the site's name on its own line.
  const documentTitle = head.title === null ? siteName : `${head.title} · ${siteName}`;
  const title = head.title ?? siteName;
  const tags = [
    `<title>${escapeHtml(documentTitle)}</title>`,
    meta('name', 'description', head.description),
    head.noindex ? meta('name', 'robots', 'noindex') : null,
    head.url === null ? null : `<link rel="canonical" href="${escapeHtml(head.url)}" />`,
    meta('property', 'og:type', 'website'),
    meta('property', 'og:site_name', siteName),
    meta('property', 'og:title', title),
    meta('property', 'og:description', head.description),
    head.url === null ? null : meta('property', 'og:url', head.url),
    meta('property', 'og:image', head.image.url),
    meta('property', 'og:image:type', 'image/png'),
    meta('property', 'og:image:width', String(OG_IMAGE_SIZE.width)),
    meta('property', 'og:image:height', String(OG_IMAGE_SIZE.height)),
    meta('property', 'og:image:alt', head.image.alt),
    meta('name', 'twitter:card', 'summary_large_image'),
    meta('name', 'twitter:title', title),
    meta('name', 'twitter:description', head.description),
    meta('name', 'twitter:image', head.image.url),
    meta('name', 'twitter:image:alt', head.image.alt),
    ...discoveryLinks(head.url, siteName),
  ];
  return tags.filter((tag) => tag !== null).join('\n    ');
}

/** Marks the part of index.html that each response replaces with its own head. */
const HEAD_START = '<!--page-head-->';
const HEAD_END = '<!--/page-head-->';

export function createAppHtml(template: string, site: SiteConfig): (head: PageHead) => RenderedPage {
  if (!template.includes(`id="${SITE_CONFIG_ELEMENT_ID}"`)) {
    throw new Error(`index.html has no <script id="${SITE_CONFIG_ELEMENT_ID}"> for the site configuration`);
  }
  const start = template.indexOf(HEAD_START);
  const end = template.indexOf(HEAD_END);
  if (start < 0 || end < start) throw new Error(`index.html has no ${HEAD_START}…${HEAD_END} block for the page head`);
  const fill = (part: string) =>
    part
      .replaceAll(HTML_PLACEHOLDERS.siteName, escapeHtml(site.siteName))
      .replace(HTML_PLACEHOLDERS.siteConfig, jsonForScript(site));
  const before = fill(template.slice(0, start));
  const after = fill(template.slice(end + HEAD_END.length));
  return (head) => {
    const styleNonce = randomBytes(16).toString('base64');
    // The nonce goes into the template's parts only: a question may say anything, even __CSP_NONCE__.
    const withNonce = (part: string) => part.replaceAll(HTML_PLACEHOLDERS.nonce, styleNonce);
    return { html: withNonce(before) + renderHead(head, site.siteName) + withNonce(after), styleNonce };
  };
}
