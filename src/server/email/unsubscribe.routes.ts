/**
 * /unsubscribe?token=…: GET shows a page with one button; POST unsubscribes at once (it is what
 * mail clients send for the one-click button of RFC 8058, with the body
 * "List-Unsubscribe=One-Click"). Both are idempotent, and work without JavaScript; an unknown
 * token gets a clear page.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { Clock } from '../clock.js';
import type { Db } from '../db/connection.js';
import { escapeHtml as e } from '../http/app-html.js';
import { pageCsp } from '../http/security.js';
import { findByUnsubscribeToken, unsubscribeByToken } from '../subscriptions/subscriptions.repository.js';

const TOKEN = /^[A-Za-z0-9_-]{16,64}$/;

/** "p***@example.org": enough to recognise one's own address, not to read someone else's. */
export function maskEmail(email: string): string {
  const [name = '', domain = ''] = email.split('@');
  return `${name.slice(0, 1)}***@${domain}`;
}

function sendPage(reply: FastifyReply, status: number, https: boolean, siteName: string, title: string, body: string) {
  const nonce = randomBytes(16).toString('base64');
  reply
    .status(status)
    .header('content-security-policy', pageCsp({ https, styleNonce: nonce }))
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${e(title)} · ${e(siteName)}</title>
<style nonce="${nonce}">
  body { margin: 0; font-family: system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif; color: #1c1917; background: #f5f7f4; }
  main { max-width: 32rem; margin: 3rem auto; padding: 1.5rem; background: #fff; border-radius: 0.875rem; box-shadow: 0 1px 3px rgb(0 0 0 / 0.1); }
  h1 { margin-top: 0; font-size: 1.5rem; }
  .brand { color: #15803d; font-weight: 800; letter-spacing: 0.06em; }
  button { min-height: 2.75rem; padding: 0.5rem 1.25rem; border: 0; border-radius: 999px; background: #15803d; color: #fff; font: inherit; font-weight: 700; cursor: pointer; }
  button:focus-visible, a:focus-visible { outline: 3px solid #1d4ed8; outline-offset: 2px; }
  a { color: #14532d; }
</style>
</head>
<body><main>
<p class="brand">${e(siteName.toUpperCase())}</p>
<h1>${e(title)}</h1>
${body}
</main></body>
</html>`);
}

export const unsubscribeRoutes: FastifyPluginAsync<{ db: Db; clock: Clock; siteName: string; https: boolean }> = async (
  app,
  { db, clock, siteName, https },
) => {
  // Mail clients post a form; its content does not matter, only the token in the address.
  for (const type of ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain']) {
    app.addContentTypeParser(type, { parseAs: 'string' }, (_request, _body, done) => done(null, {}));
  }

  const tokenOf = (query: unknown) => {
    const token = (query as { token?: unknown }).token;
    return typeof token === 'string' && TOKEN.test(token) ? token : null;
  };
  const notValid = (reply: FastifyReply) =>
    sendPage(
      reply,
      404,
      https,
      siteName,
      'This unsubscribe link is not valid',
      `<p>It may have been copied only in part. Use the link in one of our e-mails, or write to the site's team.</p>
       <p><a href="/">Go to ${e(siteName)}</a></p>`,
    );
  const done = (reply: FastifyReply) =>
    sendPage(
      reply,
      200,
      https,
      siteName,
      "You're unsubscribed",
      `<p>You won't receive any more e-mails from ${e(siteName)}. Changed your mind? Subscribe again after your next vote.</p>
       <p><a href="/">Go to today's hot take</a></p>`,
    );

  app.get('/unsubscribe', async (request, reply) => {
    const token = tokenOf(request.query);
    const subscriber = token === null ? undefined : await findByUnsubscribeToken(db, token);
    if (!token || !subscriber) return notValid(reply);
    if (!subscriber.subscribed) return done(reply);
    return sendPage(
      reply,
      200,
      https,
      siteName,
      'Unsubscribe?',
      `<p>Stop all e-mails from ${e(siteName)} to <strong>${e(maskEmail(subscriber.email))}</strong>?</p>
       <form method="post" action="/unsubscribe?token=${e(token)}"><button type="submit">Unsubscribe</button></form>`,
    );
  });

  app.post('/unsubscribe', async (request, reply) => {
    const token = tokenOf(request.query);
    if (!token || !(await unsubscribeByToken(db, token, clock.now().toISOString()))) return notValid(reply);
    return done(reply);
  });
};
