/**
 * /unsubscribe?token=…, the link in every e-mail: GET asks, POST unsubscribes at once
 * (email-link-pages.ts). The POST is also what mail clients send for the one-click button of
 * RFC 8058, with the body "List-Unsubscribe=One-Click".
 */
import { escapeHtml as e } from '../pages/app-html.js';
import { emailLinkRoutes } from './email-link-pages.js';

export const unsubscribeRoutes = emailLinkRoutes(({ subscriptions, siteName }) => ({
  path: '/unsubscribe',
  find: async (token) => {
    const found = await subscriptions.unsubscription(token);
    return found && { email: found.email, done: !found.subscribed };
  },
  act: (token) => subscriptions.unsubscribe(token),
  pages: {
    notValid: {
      status: 404,
      title: 'This unsubscribe link is not valid',
      body: `<p>It may have been copied only in part. Use the link in one of our e-mails, or write to the site's team.</p>
       <p><a href="/">Go to ${e(siteName)}</a></p>`,
    },
    done: {
      status: 200,
      title: "You're unsubscribed",
      body: `<p>You won't receive any more e-mails from ${e(siteName)}. Changed your mind? Subscribe again after your next vote.</p>
       <p><a href="/">Go to today's hot take</a></p>`,
    },
    ask: (maskedEmail) => ({
      title: 'Unsubscribe?',
      question: `Stop all e-mails from ${e(siteName)} to <strong>${e(maskedEmail)}</strong>?`,
      button: 'Unsubscribe',
    }),
  },
}));
