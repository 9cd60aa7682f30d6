/**
 * /subscribe/confirm?token=…, the link in the confirmation e-mail: GET asks, POST confirms
 * (email-link-pages.ts). Following the link again says the subscription is confirmed.
 */
import { escapeHtml as e } from '../pages/app-html.js';
import { emailLinkRoutes } from './email-link-pages.js';

export const confirmRoutes = emailLinkRoutes(({ subscriptions, siteName }) => ({
  path: '/subscribe/confirm',
  find: async (token) => {
    const found = await subscriptions.confirmation(token);
    return found && { email: found.email, done: found.subscribed };
  },
  act: async (token) => (await subscriptions.confirm(token)) !== 'invalid',
  pages: {
    notValid: {
      status: 404,
      title: 'This confirmation link is not valid',
      body: `<p>It may have expired (a link works for a week) or been copied only in part.
       To subscribe, vote on today's hot take and accept the invitation again.</p>
       <p><a href="/">Go to ${e(siteName)}</a></p>`,
    },
    done: {
      status: 200,
      title: "You're subscribed!",
      body: `<p>Thanks for confirming. Each day a new hot take goes live, we'll send you the question and the final
       results of the one before. Every e-mail has a link to unsubscribe.</p>
       <p><a href="/">Vote on today's hot take</a></p>`,
    },
    ask: (maskedEmail) => ({
      title: 'Confirm your subscription',
      question: `Get ${e(siteName)} by e-mail at <strong>${e(maskedEmail)}</strong>: each day's question and the
       results of the one before.`,
      button: 'Confirm my subscription',
    }),
  },
}));
