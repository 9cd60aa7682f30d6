/**
 * Requests that change something must come from this site, not from a page elsewhere riding on
 * the visitor's cookies: the admin calls and the vote form use this check.
 */
import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { forbidden } from './errors.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses a state-changing request whose Origin is neither this site's public address nor the
 * host it was sent to, or that the browser marks as cross-site. (A request without those
 * headers is not from a browser page, so no cookie rides on it by accident.)
 */
export function sameSiteOnly(publicUrl: string): onRequestHookHandler {
  const publicOrigin = new URL(publicUrl).origin;
  return (request: FastifyRequest, _reply: FastifyReply, done) => {
    if (SAFE_METHODS.has(request.method)) return done();
    const origin = request.headers.origin;
    const crossSite = request.headers['sec-fetch-site'] === 'cross-site';
    let foreign = crossSite;
    if (origin !== undefined && !foreign) {
      const host = URL.canParse(origin) ? new URL(origin).host : null;
      foreign = origin !== publicOrigin && host !== request.headers.host;
    }
    done(foreign ? forbidden('This request came from another site and was refused.') : undefined);
  };
}
