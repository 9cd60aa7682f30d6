/**
 * /unsubscribe?token=…: GET shows a page with one button; POST unsubscribes at once (it is what
 * mail clients send for the one-click button of RFC 8058, with the body
 * "List-Unsubscribe=One-Click"). Both are idempotent, and work without JavaScript; an unknown
 * token gets a clear page.
 */
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { Clock } from '../clock.js';
import type { Db } from '../db/connection.js';
import { escapeHtml as e } from '../http/app-html.js';
import { ignoreFormBodies, maskEmail, sendPlainPage, tokenFromQuery } from '../http/plain-page.js';
import { findByUnsubscribeToken, unsubscribeByToken } from '../subscriptions/subscriptions.repository.js';

export const unsubscribeRoutes: FastifyPluginAsync<{ db: Db; clock: Clock; siteName: string; https: boolean }> = async (
  app,
  { db, clock, siteName, https },
) => {
  // Mail clients post a form; its content does not matter, only the token in the address.
  ignoreFormBodies(app);
  const site = { siteName, https };

  const notValid = (reply: FastifyReply) =>
    sendPlainPage(reply, site, {
      status: 404,
      title: 'This unsubscribe link is not valid',
      body: `<p>It may have been copied only in part. Use the link in one of our e-mails, or write to the site's team.</p>
       <p><a href="/">Go to ${e(siteName)}</a></p>`,
    });
  const done = (reply: FastifyReply) =>
    sendPlainPage(reply, site, {
      status: 200,
      title: "You're unsubscribed",
      body: `<p>You won't receive any more e-mails from ${e(siteName)}. Changed your mind? Subscribe again after your next vote.</p>
       <p><a href="/">Go to today's hot take</a></p>`,
    });

  app.get('/unsubscribe', async (request, reply) => {
    const token = tokenFromQuery(request.query);
    const subscriber = token === null ? undefined : await findByUnsubscribeToken(db, token);
    if (!token || !subscriber) return notValid(reply);
    if (!subscriber.subscribed) return done(reply);
    return sendPlainPage(reply, site, {
      status: 200,
      title: 'Unsubscribe?',
      body: `<p>Stop all e-mails from ${e(siteName)} to <strong>${e(maskEmail(subscriber.email))}</strong>?</p>
       <form method="post" action="/unsubscribe?token=${e(token)}"><button type="submit">Unsubscribe</button></form>`,
    });
  });

  app.post('/unsubscribe', async (request, reply) => {
    const token = tokenFromQuery(request.query);
    if (!token || !(await unsubscribeByToken(db, token, clock.now().toISOString()))) return notValid(reply);
    return done(reply);
  });
};
