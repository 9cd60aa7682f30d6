/**
 * Pages the server writes as plain HTML with one stylesheet and no script (the embed, the
 * staff-room sheet): the stylesheet is allowed by its hash rather than a nonce, so a page is
 * the same bytes every time (a stable ETag) under a CSP as strict as the site's.
 */
import { escapeHtml as e } from './app-html.js';
import { cspHash } from '../http/security.js';

export interface HashedStyle {
  /** The stylesheet, on one line, exactly as the page carries it. */
  css: string;
  /** The CSP source that allows exactly `css`. */
  source: string;
}

/** A stylesheet written readably, put on one line and hashed for the CSP. */
export function hashedStyle(css: string): HashedStyle {
  const oneLine = css.trim().replace(/\n\s*/g, ' ');
  return { css: oneLine, source: cspHash(oneLine) };
}

/** Nothing but the page's own stylesheet, its inline SVG and same-site images. */
export function hashedPageCsp(
  style: HashedStyle,
  { https, frameAncestors }: { https: boolean; frameAncestors: string },
) {
  return [
    "default-src 'none'",
    `style-src ${style.source}`,
    "img-src 'self' data:",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${frameAncestors}`,
    ...(https ? ['upgrade-insecure-requests'] : []),
  ].join('; ');
}

/** The document around `body` (HTML: escape every value put into it). */
export function hashedPage({
  style,
  title,
  canonical,
  body,
}: {
  style: HashedStyle;
  title: string;
  canonical?: string;
  body: string;
}): string {
  const link = canonical ? `\n<link rel="canonical" href="${e(canonical)}">` : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<title>${e(title)}</title>${link}
<style>${style.css}</style>
</head>
<body><main>
${body}
</main></body>
</html>
`;
}
