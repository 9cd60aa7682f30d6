/**
 * /subscribe/frequency?token=…, the link in every subscriber e-mail: daily, weekly or both.
 * GET shows the choice as it is, with a form that works without scripts; POST (the form's
 * `frequency=daily|weekly|both`) saves it. The token is the e-mail's unsubscribe link's, so
 * the page changes nothing that link could not already stop. Unknown or malformed links get a
 * page that says so, never an error in JSON.
 */
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { MAIL_FREQUENCIES, mailFrequency, type MailFrequency } from '../../shared/schemas.js';
import { escapeHtml as e } from '../pages/app-html.js';
import { maskEmail, sendPlainPage, type PlainPage } from '../pages/plain-page.js';
import type { ZodTypeProvider } from '../http/validation.js';
import { emailLinkQuery, type EmailLinkOptions } from './email-link-pages.js';

export const FREQUENCY_PATH = '/subscribe/frequency';

export const FREQUENCY_LABELS: Record<MailFrequency, string> = {
  daily: "Every day: the new question and yesterday's results",
  weekly: "Once a week: Friday's round-up of the week's polls",
  both: 'Both',
};

export const frequencyRoutes: FastifyPluginAsync<EmailLinkOptions> = async (scope, options) => {
  const site = { siteName: options.siteName, https: options.https };
  const { subscriptions } = options;
  scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  const api = scope.withTypeProvider<ZodTypeProvider>();
  const send = (reply: FastifyReply, page: PlainPage) => sendPlainPage(reply, { site, ...page });
  const notValid: PlainPage = {
    status: 404,
    title: 'This link is not valid',
    body: `<p>It may have been copied only in part. Use the link in one of our e-mails, or write to the site's team.</p>
       <p><a href="/">Go to ${e(options.siteName)}</a></p>`,
  };

  function form(token: string, email: string, current: MailFrequency, saved: boolean): PlainPage {
    const choices = MAIL_FREQUENCIES.map(
      (value) =>
        `<p><label><input type="radio" name="frequency" value="${value}"${value === current ? ' checked' : ''}> ${e(FREQUENCY_LABELS[value])}</label></p>`,
    ).join('\n');
    return {
      status: 200,
      title: saved ? 'Saved' : 'How often should we write?',
      body: `${saved ? `<p role="status"><strong>Saved.</strong> We'll write to <strong>${e(maskEmail(email))}</strong> as you chose.</p>` : `<p>E-mails to <strong>${e(maskEmail(email))}</strong>:</p>`}
       <form method="post" action="${e(`${FREQUENCY_PATH}?token=${token}`)}"><fieldset><legend>Send me</legend>
       ${choices}
       </fieldset><button type="submit">Save</button></form>
       <p><a href="/">Go to today's hot take</a></p>`,
    };
  }

  api.get(FREQUENCY_PATH, { schema: { querystring: emailLinkQuery } }, async (request, reply) => {
    const { token } = request.query;
    const found = token === null ? undefined : await subscriptions.frequency(token);
    if (token === null || !found) return send(reply, notValid);
    return send(reply, form(token, found.email, found.frequency, false));
  });

  api.post(FREQUENCY_PATH, { schema: { querystring: emailLinkQuery } }, async (request, reply) => {
    const { token } = request.query;
    const body = (request.body as Record<string, string> | undefined) ?? {};
    const found = token === null ? undefined : await subscriptions.frequency(token);
    if (token === null || !found) return send(reply, notValid);
    const chosen = mailFrequency.safeParse(body.frequency);
    if (!chosen.success) return send(reply, { ...form(token, found.email, found.frequency, false), status: 400 });
    await subscriptions.setFrequency(token, chosen.data);
    return send(reply, form(token, found.email, chosen.data, true));
  });
};
