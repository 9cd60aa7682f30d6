/**
 * Security headers on every response. Pages and files get helmet's set and a
 * Content-Security-Policy that allows only this site's own scripts, styles and connections: no
 * inline script but those named by their hash, nothing from elsewhere, no framing. A page may
 * also carry a per-response style nonce, for the one library that adds a <style> element (the
 * dialogs' scroll lock), and its own stylesheet written in, by hash. API
 * answers are JSON that no browser renders, so they get the short set OWASP recommends for
 * APIs, and are never cached (they depend on the voter cookie).
 *
 * Everything is computed once, at start. (@fastify/helmet rebuilds its middleware on every
 * request, which halved throughput; the full set on JSON cost another quarter.)
 */
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import { isApiPath, isStaffPagePath } from './paths.js';

const PAGE_CSP: Record<string, string[]> = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'font-src': ["'self'"],
  'connect-src': ["'self'"],
  'manifest-src': ["'self'"],
  // The service worker (/sw.js) and the proof of work's worker, from this site only.
  'worker-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};

/** The CSP source that allows exactly this inline script, style element or style attribute. */
export function cspHash(text: string): string {
  return `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
}

/**
 * A fresh CSP nonce. They come from a pool of random bytes drawn 4 KB at a time, as Node's
 * randomUUID does: one call to the system's generator per 256 responses instead of one each.
 */
const NONCE_BYTES = 16;
let noncePool = Buffer.alloc(0);
let noncePoolOffset = 0;
export function newNonce(): string {
  if (noncePoolOffset + NONCE_BYTES > noncePool.length) {
    noncePool = randomBytes(4096);
    noncePoolOffset = 0;
  }
  noncePoolOffset += NONCE_BYTES;
  return noncePool.toString('base64', noncePoolOffset - NONCE_BYTES, noncePoolOffset);
}

/**
 * The page CSP; `styleNonce` lets a <style> element carrying that nonce apply (the one a
 * library adds), `styleHashes` the page's own <style>, and `styleAttributeHashes` the
 * server-drawn style attributes with those hashes (and no others).
 */
export function pageCsp({
  https,
  styleNonce,
  styleHashes = [],
  styleAttributeHashes = [],
  scriptHashes = [],
}: {
  https: boolean;
  styleNonce?: string;
  /** <style> elements the page holds, by hash ('sha256-…'). */
  styleHashes?: readonly string[];
  styleAttributeHashes?: readonly string[];
  /** Inline scripts the page may run, by hash ('sha256-…'). */
  scriptHashes?: readonly string[];
}): string {
  const directives = Object.entries(PAGE_CSP).map(([name, sources]) => {
    if (name === 'style-src') {
      return `${name} ${[...sources, ...(styleNonce ? [`'nonce-${styleNonce}'`] : []), ...styleHashes].join(' ')}`;
    }
    if (name === 'script-src') return `${name} ${[...sources, ...scriptHashes].join(' ')}`;
    return `${name} ${sources.join(' ')}`;
  });
  if (styleAttributeHashes.length > 0) {
    directives.push(`style-src-attr 'unsafe-hashes' ${styleAttributeHashes.join(' ')}`);
  }
  // Only over HTTPS: on http://localhost it would break loading.
  if (https) directives.push('upgrade-insecure-requests');
  return directives.join('; ');
}

/**
 * Helmet's set for pages, without Cross-Origin-Opener-Policy: that one goes on the staff's pages
 * only (see `addSecurityHeaders`).
 */
export function pageSecurityHeaders({ https }: { https: boolean }): Record<string, string> {
  const headers = new Map<string, string>();
  const recorder = {
    setHeader: (name: string, value: unknown) => headers.set(name.toLowerCase(), String(value)),
    removeHeader: (name: string) => headers.delete(name.toLowerCase()),
  };
  helmet({
    contentSecurityPolicy: false, // written above, so a page can add its nonce
    // HSTS means something only over HTTPS.
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: false,
  })({} as unknown as IncomingMessage, recorder as unknown as ServerResponse, () => undefined);
  headers.set('content-security-policy', pageCsp({ https }));
  return Object.fromEntries(headers);
}

export function apiSecurityHeaders({ https }: { https: boolean }): Record<string, string> {
  return {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cross-origin-resource-policy': 'same-origin',
    'cache-control': 'no-store',
    ...(https ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' } : {}),
  };
}

/**
 * Cross-Origin-Opener-Policy cuts the tie to a window that opened the page, or that the page
 * opened, on another site. The staff's page gets it: it signs in and acts. Public pages do not:
 * it makes Chromium put the page in a new browsing context group, with a new renderer, whenever
 * it is opened from another page, and on a phone that start-up blocks the main thread. Measured
 * with Lighthouse (mobile) on /faq, median of 5: total blocking time 558 ms with it, 194 ms
 * without. A public page holds nothing another window could read through that tie, and outbound
 * links open with no opener.
 */
const STAFF_PAGE_EXTRA = { 'cross-origin-opener-policy': 'same-origin' } as const;

export function addSecurityHeaders(app: FastifyInstance, options: { https: boolean }) {
  const page = pageSecurityHeaders(options);
  const staffPage = { ...page, ...STAFF_PAGE_EXTRA };
  const api = apiSecurityHeaders(options);
  app.addHook('onRequest', (request, reply, done) => {
    const url = request.url;
    reply.headers(isApiPath(url) ? api : isStaffPagePath(url) ? staffPage : page);
    done();
  });
}
