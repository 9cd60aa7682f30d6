/**
 * The pages a link in our e-mails opens (confirm a subscription, unsubscribe) share one shape:
 * GET shows a page with one button and changes nothing (mail scanners open links to check
 * them); POST does it. Both take the token from the address, work without JavaScript, and are
 * idempotent: following a link again says it is done. A link that is unknown, expired or copied
 * only in part gets a page that says so, never an error in JSON.
 */
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { z } from '../../shared/zod.js';
import { escapeHtml as e } from '../pages/app-html.js';
import { ignoreFormBodies, maskEmail, sendPlainPage, type PlainPage } from '../pages/plain-page.js';
import type { ZodTypeProvider } from '../http/validation.js';
import type { SubscriptionsService } from './subscriptions.service.js';

/** The shape of the tokens the site puts in links (db/secret-tokens.ts makes 43 characters; older e-mails hold 32). */
const LINK_TOKEN = /^[A-Za-z0-9_-]{16,64}$/;

/** `?token=`: null when absent or not the shape of one the site makes, so the page can say the link is not valid. */
export const emailLinkQuery = z.object({ token: z.string().regex(LINK_TOKEN).nullable().catch(null) });

export interface EmailLink {
  path: string;
  /** The address the token is about, and whether what the link does is done; undefined for an unknown token. */
  find: (token: string) => Promise<{ email: string; done: boolean } | undefined>;
  /** Does it (again, harmlessly); false for an unknown token. */
  act: (token: string) => Promise<boolean>;
  pages: {
    notValid: PlainPage;
    done: PlainPage;
    /** The question about the (masked) address, in HTML: escape every value put into it; and the button that does it. */
    ask: (maskedEmail: string) => { title: string; question: string; button: string };
  };
}

export interface EmailLinkOptions {
  subscriptions: SubscriptionsService;
  siteName: string;
  https: boolean;
}

/** The plugin of one link: GET and POST of the path that `define` gives. */
export const emailLinkRoutes =
  (define: (options: EmailLinkOptions) => EmailLink): FastifyPluginAsync<EmailLinkOptions> =>
  async (scope, options) => {
    const link = define(options);
    const site = { siteName: options.siteName, https: options.https };
    // The page's form and mail clients' one-click posts send form bodies: only the address counts.
    ignoreFormBodies(scope);
    const api = scope.withTypeProvider<ZodTypeProvider>();
    const send = (reply: FastifyReply, page: PlainPage) => sendPlainPage(reply, { site, ...page });
    const schema = { querystring: emailLinkQuery };

    api.get(link.path, { schema }, async (request, reply) => {
      const { token } = request.query;
      const found = token === null ? undefined : await link.find(token);
      if (token === null || !found) return send(reply, link.pages.notValid);
      if (found.done) return send(reply, link.pages.done);
      const { title, question, button } = link.pages.ask(maskEmail(found.email));
      return send(reply, {
        status: 200,
        title,
        body: `<p>${question}</p>
       <form method="post" action="${e(`${link.path}?token=${token}`)}"><button type="submit">${e(button)}</button></form>`,
      });
    });

    api.post(link.path, { schema }, async (request, reply) => {
      const { token } = request.query;
      const done = token !== null && (await link.act(token));
      return send(reply, done ? link.pages.done : link.pages.notValid);
    });
  };
