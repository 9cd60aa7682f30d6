/**
 * The per-address limits as the API document states them: what each counts and how many it
 * allows by default (the environment may change the numbers, so the document names the variable).
 * Every limit counts per network (an IPv4 address, an IPv6 /64; a /48 gets four times as many).
 */
import type { LimitName } from './route-docs.js';

export const LIMITS: Record<LimitName, { description: string }> = {
  writes: {
    description:
      'Write calls: RATE_LIMIT_WRITES_PER_MINUTE (default 600) per network and minute, shared by every call that writes (policy `writes`; an IPv6 /48 `writes-48`).',
  },
  subscribe: {
    description: 'Subscriptions: SUBSCRIBE_LIMIT_PER_HOUR (default 30) per network and hour (policy `subscribe`).',
  },
  suggest: {
    description: 'New poll suggestions: SUGGEST_LIMIT_PER_HOUR (default 100) per network and hour (policy `suggest`).',
  },
  push: {
    description:
      'New push reminders and test notifications: PUSH_SUBSCRIBE_LIMIT_PER_HOUR (default 1000) per network and hour (policies `push-subscribe`, `push-test`).',
  },
  'vote-email': {
    description:
      'E-mails attached to votes: SUBSCRIBE_LIMIT_PER_HOUR (default 30) per network and hour (policy `attach-from`).',
  },
  'sign-in': {
    description:
      'Staff sign-in calls: 30 per network in 15 minutes (policy `staff-door`), and ADMIN_LOGIN_ATTEMPTS (default 5) password attempts per network in 15 minutes (policy `sign-in`).',
  },
};

/**
 * The headers a limited call answers with (draft-ietf-httpapi-ratelimit-headers; http/limit-headers.ts).
 * A limit counts a whole network, so the numbers are rounded: they never show another person's calls.
 */
export const RATE_LIMIT_HEADERS = {
  RateLimit: {
    description:
      'The limit nearest to refusing, as `"policy";r=REMAINING;t=SECONDS_TO_RESET`: REMAINING rounded down to a tenth of the quota, SECONDS_TO_RESET up to a tenth of the window. Absent when the limit is off.',
    schema: { type: 'string' },
  },
  'RateLimit-Policy': {
    description:
      'Every limit that counted this call, as `"policy";q=QUOTA;w=WINDOW_SECONDS`, comma-separated (an IPv6 client is counted by its /64 and by its /48, `-48`).',
    schema: { type: 'string' },
  },
} as const;

export const RETRY_AFTER_HEADER = {
  'Retry-After': {
    description: 'Seconds until the limit that refused lets this network try again.',
    required: true,
    schema: { type: 'integer' },
  },
} as const;
