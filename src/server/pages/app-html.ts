/**
 * The page every screen of the web app starts from: the built index.html with this site's
 * name and configuration written in, the head this address deserves (title, description,
 * canonical address, Open Graph and Twitter card tags), and a fresh style nonce for each
 * response, compressed for the browsers that take Brotli or gzip.
 */
import { HTML_PLACEHOLDERS, SITE_CONFIG_ELEMENT_ID, type SiteConfig } from '../../shared/site-config.js';
import { jsonForScript, SSR_STATE_ELEMENT_ID, type SsrPage } from '../../shared/ssr.js';
import { brotliParts, joinBrotli, type BrotliParts } from './brotli-parts.js';
import type { ContentCoding } from '../http/content-coding.js';
import { gzipParts, joinGzip, type GzipParts } from './gzip-parts.js';
import { inlineAssets, PAGE_STYLES, type ReadAsset } from './inline-assets.js';
import type { PartStyles } from './page-styles.js';
import { cspHash, newNonce, pageCsp } from '../http/security.js';

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

export { jsonForScript };

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
/** Where the server-drawn app goes. */
const ROOT = '<div id="root"></div>';

/**
 * A page but for its nonce: the pieces of its HTML and of its CSP header to join with a
 * response's nonce. Pages are cached this way (ssr-pages.ts), encoded once, and each response
 * still gets a nonce of its own.
 */
export interface PageParts {
  html: readonly Buffer[];
  csp: readonly string[];
}

export interface SentPage {
  body: Buffer;
  csp: string;
  /** How the body is compressed; null: it is not. */
  encoding: ContentCoding | null;
}

export interface AppHtml {
  /** The page with this head and, when the server drew it, the app's markup and state. */
  parts(head: PageHead, body: SsrPage | null): PageParts;
  /**
   * The page to send, with a fresh nonce, compressed with `encoding` from pieces compressed once
   * per page (brotli-parts.ts, gzip-parts.ts).
   */
  send(parts: PageParts, options: { encoding: ContentCoding | null }): SentPage;
}

export interface AppHtmlOptions {
  /** Reads a built file, to write it into the page (inline-assets.ts); without it nothing is inlined. */
  readAsset?: ReadAsset;
  /** The stylesheets of the lazy parts a server-drawn page drew (page-styles.ts); none without it. */
  partStyles?: PartStyles;
  https: boolean;
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&quot;': '"', '&#x27;': "'", '&lt;': '<', '&gt;': '>' };

/**
 * The bars' widths and Radix's CSS variables are style attributes (the chart's colours are
 * classes, chart.css). Set by React in the browser they are not markup, but drawn by the server
 * they are, and a CSP without 'unsafe-inline' blocks them: the page's CSP names each one by its
 * hash instead.
 */
function styleAttributeHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const match of html.matchAll(/\sstyle="([^"]*)"/g)) {
    const value = (match[1] ?? '').replace(/&(?:amp|quot|#x27|lt|gt);/g, (entity) => ENTITIES[entity] ?? entity);
    hashes.add(cspHash(value));
  }
  return [...hashes];
}

export function createAppHtml(
  built: string,
  site: SiteConfig,
  { readAsset, https, partStyles }: AppHtmlOptions,
): AppHtml {
  if (!built.includes(`id="${SITE_CONFIG_ELEMENT_ID}"`)) {
    throw new Error(`index.html has no <script id="${SITE_CONFIG_ELEMENT_ID}"> for the site configuration`);
  }
  const { template, scriptHashes, css } = readAsset
    ? inlineAssets(built, readAsset)
    : { template: built, scriptHashes: [], css: null };
  const start = template.indexOf(HEAD_START);
  const end = template.indexOf(HEAD_END);
  if (start < 0 || end < start) throw new Error(`index.html has no ${HEAD_START}…${HEAD_END} block for the page head`);
  const rootAt = template.indexOf(ROOT);
  if (rootAt < end) throw new Error(`index.html has no ${ROOT} after the page head`);
  const fill = (part: string) =>
    part
      .replaceAll(HTML_PLACEHOLDERS.siteName, escapeHtml(site.siteName))
      .replace(HTML_PLACEHOLDERS.siteConfig, jsonForScript(site));
  // The nonce goes into the template's parts only: a question may say anything, even __CSP_NONCE__.
  const split = (part: string) => fill(part).split(HTML_PLACEHOLDERS.nonce);
  const before = split(template.slice(0, start));
  const middle = split(template.slice(end + HEAD_END.length, rootAt));
  const after = split(template.slice(rootAt + ROOT.length));

  /** Joins piece lists, the last piece of each running on into the first of the next. */
  const concat = (...lists: (readonly string[])[]): string[] => {
    const out: string[] = [];
    for (const list of lists) {
      if (out.length === 0) out.push(...list);
      else {
        out[out.length - 1] = `${out[out.length - 1] ?? ''}${list[0] ?? ''}`;
        out.push(...list.slice(1));
      }
    }
    return out;
  };
  const NONCE = HTML_PLACEHOLDERS.nonce;
  /** Each page's pieces compressed, once per encoding, the first time a browser takes it (cached pages live on). */
  const brotli = new WeakMap<PageParts, BrotliParts>();
  const gzipped = new WeakMap<PageParts, GzipParts>();
  const compressed = <T>(
    cache: WeakMap<PageParts, T>,
    parts: PageParts,
    compress: (pieces: readonly Buffer[]) => T,
  ) => {
    let pieces = cache.get(parts);
    if (!pieces) {
      pieces = compress(parts.html);
      cache.set(parts, pieces);
    }
    return pieces;
  };

  return {
    parts(head, body) {
      const root =
        body === null
          ? ROOT
          : `<div id="root">${body.html}</div>\n    <script type="application/json" id="${SSR_STATE_ELEMENT_ID}">${body.state}</script>`;
      const drawn = body && partStyles ? partStyles(body.parts) : { files: [], css: '' };
      const styles = drawn.css === '' ? (css ?? '') : `${css ?? ''}\n${drawn.css}`;
      // Each lazy part's sheet written in is also named by a disabled link, which the browser
      // does not fetch. Vite's loader, finding it, does not fetch the sheet again when the
      // part's code loads: that would restyle the whole page while it hydrates.
      const styleElements = [
        `<style>${styles}</style>`,
        ...drawn.files.map((file) => `<link rel="stylesheet" href="/${escapeHtml(file)}" disabled>`),
      ].join('\n    ');
      const withStyles = (pieces: readonly string[]) =>
        pieces.map((piece) => piece.replace(PAGE_STYLES, () => styleElements));
      const html = concat(
        withStyles(before),
        [renderHead(head, site.siteName)],
        withStyles(middle),
        [root],
        withStyles(after),
      );
      const csp = pageCsp({
        https,
        styleNonce: NONCE,
        // The page's own <style> is allowed by its hash: no nonce in the middle of the page.
        styleHashes: css === null ? [] : [cspHash(styles)],
        styleAttributeHashes: body ? styleAttributeHashes(body.html) : [],
        scriptHashes,
      }).split(NONCE);
      return { html: html.map((part) => Buffer.from(part)), csp };
    },
    send(parts, { encoding }) {
      const nonce = newNonce();
      const nonceBytes = Buffer.from(nonce);
      const csp = parts.csp.join(nonce);
      if (encoding === 'br') {
        return { body: joinBrotli(compressed(brotli, parts, brotliParts), nonceBytes), csp, encoding };
      }
      if (encoding === 'gzip') {
        return { body: joinGzip(compressed(gzipped, parts, gzipParts), nonceBytes), csp, encoding };
      }
      const pieces: Buffer[] = [];
      for (const [i, part] of parts.html.entries()) {
        if (i > 0) pieces.push(nonceBytes);
        pieces.push(part);
      }
      return { body: Buffer.concat(pieces), csp, encoding: null };
    },
  };
}
