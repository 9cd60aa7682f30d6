/**
 * The per-address limits as the API document states them: what each counts and how many it
 * allows by default (the environment may change the numbers, so the document names the variable).
 * Every limit counts per network (an IPv4 address, an IPv6 /64; a /48 gets four times as many).
 */
import type { LimitName } from './route-docs.js';

export const LIMITS: Record<LimitName, { description: string }> = {
  writes: {
    description:
      'Write calls: RATE_LIMIT_WRITES_PER_MINUTE (default 600) per network and minute, shared by every call that writes.',
  },
  subscribe: { description: 'Subscriptions: SUBSCRIBE_LIMIT_PER_HOUR (default 30) per network and hour.' },
  suggest: { description: 'New poll suggestions: SUGGEST_LIMIT_PER_HOUR (default 100) per network and hour.' },
  push: {
    description:
      'New push reminders and test notifications: PUSH_SUBSCRIBE_LIMIT_PER_HOUR (default 1000) per network and hour.',
  },
  'vote-email': {
    description: 'E-mails attached to votes: SUBSCRIBE_LIMIT_PER_HOUR (default 30) per network and hour.',
  },
  'sign-in': {
    description:
      'Staff sign-in calls per network in 15 minutes, and ADMIN_LOGIN_ATTEMPTS (default 5) password attempts per network in 15 minutes.',
  },
};

/** The headers a limited call answers with (draft-ietf-httpapi-ratelimit-headers). */
export const RATE_LIMIT_HEADERS = {
  RateLimit: {
    description: 'What is left of the limit that is nearest to refusing: `"name";r=REMAINING;t=SECONDS_TO_RESET`.',
    schema: { type: 'string' },
  },
  'RateLimit-Policy': {
    description: 'The limit that counts this call: `"name";q=QUOTA;w=WINDOW_SECONDS`.',
    schema: { type: 'string' },
  },
} as const;

export const RETRY_AFTER_HEADER = {
  'Retry-After': { description: 'Seconds until the limit lets this network try again.', schema: { type: 'integer' } },
} as const;
