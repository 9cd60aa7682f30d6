/**
 * /subscribe/confirm?token=…, the link in the confirmation e-mail. GET shows a page with one
 * button and changes nothing (mail scanners open links to check them); POST confirms. Both
 * work without JavaScript, and following the link again says the subscription is confirmed.
 */
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { escapeHtml as e } from '../http/app-html.js';
import { ignoreFormBodies, maskEmail, sendPlainPage, tokenFromQuery } from '../http/plain-page.js';
import type { SubscriptionsService } from './subscriptions.service.js';

export const confirmRoutes: FastifyPluginAsync<{ subscriptions: SubscriptionsService; siteName: string; https: boolean }> = async (
  app,
  { subscriptions, siteName, https },
) => {
  ignoreFormBodies(app);
  const site = { siteName, https };

  const notValid = (reply: FastifyReply) =>
    sendPlainPage(reply, site, {
      status: 404,
      title: 'This confirmation link is not valid',
      body: `<p>It may have expired (a link works for a week) or been copied only in part.
       To subscribe, vote on today's hot take and accept the invitation again.</p>
       <p><a href="/">Go to ${e(siteName)}</a></p>`,
    });
  const subscribed = (reply: FastifyReply) =>
    sendPlainPage(reply, site, {
      status: 200,
      title: "You're subscribed!",
      body: `<p>Thanks for confirming. Each day a new hot take goes live, we'll send you the question and the final
       results of the one before. Every e-mail has a link to unsubscribe.</p>
       <p><a href="/">Vote on today's hot take</a></p>`,
    });

  app.get('/subscribe/confirm', async (request, reply) => {
    const token = tokenFromQuery(request.query);
    const found = token === null ? undefined : await subscriptions.confirmation(token);
    if (!token || !found) return notValid(reply);
    if (found.subscribed) return subscribed(reply);
    return sendPlainPage(reply, site, {
      status: 200,
      title: 'Confirm your subscription',
      body: `<p>Get ${e(siteName)} by e-mail at <strong>${e(maskEmail(found.email))}</strong>: each day's question and the
       results of the one before.</p>
       <form method="post" action="/subscribe/confirm?token=${e(token)}"><button type="submit">Confirm my subscription</button></form>`,
    });
  });

  app.post('/subscribe/confirm', async (request, reply) => {
    const token = tokenFromQuery(request.query);
    const outcome = token === null ? 'invalid' : await subscriptions.confirm(token);
    return outcome === 'invalid' ? notValid(reply) : subscribed(reply);
  });
};
