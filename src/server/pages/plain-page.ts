/**
 * The few pages the server writes itself, without the web app: what a link in an e-mail opens
 * (confirm a subscription, unsubscribe). Plain HTML with one form at most, so they work in any
 * mail client's browser with scripts off, styled by one inline sheet under the page's nonce.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { escapeHtml as e } from './app-html.js';
import { newNonce, pageCsp } from '../http/security.js';

export interface PlainPage {
  status: number;
  title: string;
  /** HTML: escape every value put into it. */
  body: string;
  /** A public page (the weekly digest's): found by search engines, cached a few minutes; else noindex, no-store. */
  public?: { css: string; description: string };
}

export interface PlainPageSite {
  siteName: string;
  https: boolean;
}

export function sendPlainPage(
  reply: FastifyReply,
  { site: { siteName, https }, status, title, body, public: open }: PlainPage & { site: PlainPageSite },
) {
  const nonce = newNonce();
  return reply
    .status(status)
    .header('content-security-policy', pageCsp({ https, styleNonce: nonce }))
    .header('cache-control', open ? 'public, max-age=300' : 'no-store')
    .type('text/html; charset=utf-8').send(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
${open ? `<meta name="description" content="${e(open.description)}">` : '<meta name="robots" content="noindex">'}
<title>${e(title)} · ${e(siteName)}</title>
<style nonce="${nonce}">
  body { margin: 0; font-family: system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif; color: #1c1917; background: #f5f7f4; }
  main { max-width: 32rem; margin: 3rem auto; padding: 1.5rem; background: #fff; border-radius: 0.875rem; box-shadow: 0 1px 3px rgb(0 0 0 / 0.1); }
  @media (max-width: 34rem) { main { margin: 1.5rem 0.75rem; } }
  h1 { margin-top: 0; font-size: 1.5rem; }
  .brand { color: #15803d; font-weight: 800; letter-spacing: 0.06em; }
  button { min-height: 2.75rem; padding: 0.5rem 1.25rem; border: 0; border-radius: 999px; background: #15803d; color: #fff; font: inherit; font-weight: 700; cursor: pointer; }
  button:focus-visible, a:focus-visible { outline: 3px solid #1d4ed8; outline-offset: 2px; }
  a { color: #14532d; }
  @media (prefers-color-scheme: dark) {
    body { color: #f5f5f4; background: #1c1917; }
    main { background: #292524; box-shadow: none; }
    .brand { color: #4ade80; }
    a { color: #86efac; }
  }${open ? `\n  ${open.css}` : ''}
</style>
</head>
<body><main>
<p class="brand">${e(siteName.toUpperCase())}</p>
<h1>${e(title)}</h1>
${body}
</main></body>
</html>`);
}

/**
 * These pages' forms (and mail clients' one-click posts) send form bodies whose content does
 * not matter: what counts is the token in the address. Accept them in `scope` without reading.
 */
export function ignoreFormBodies(scope: FastifyInstance) {
  for (const type of ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain']) {
    scope.addContentTypeParser(type, { parseAs: 'string' }, (_request, _body, done) => done(null, {}));
  }
}

/** "p***@example.org": enough to recognise one's own address, not to read someone else's. */
export function maskEmail(email: string): string {
  const [name = '', domain = ''] = email.split('@');
  return `${name.slice(0, 1)}***@${domain}`;
}
