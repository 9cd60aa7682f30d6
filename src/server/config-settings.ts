/**
 * Each configuration variable's own parser: the default, the range, and the message when a value
 * is wrong. config.ts puts them together and checks the rules between them.
 */
import path from 'node:path';
import { isIP } from 'node:net';
import { z } from '../shared/zod.js';
import { EMAIL_PATTERN } from '../shared/limits.js';
import { coversEveryAddress, parseProxyRange } from './proxy-ranges.js';
import { SITE_DEFAULTS } from '../shared/site-config.js';
import { isValidTimeZone, parseTimeOfDay } from '../shared/time.js';

export type DatabaseTarget = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

/** false, a number of proxy hops, or the proxies' addresses and CIDR ranges. */
export type TrustProxy = false | number | string[];

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export const DEFAULT_SQLITE_FILE = path.join('data', 'teacher-hot-take.sqlite');

/** Unset and empty mean the same: the default. */
export const setting = () =>
  z
    .string()
    .optional()
    .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));

export const port = setting().transform((value, ctx) => {
  if (value === undefined) return 3000;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 65535) {
    ctx.addIssue({ code: 'custom', message: `must be a port number from 0 to 65535 (got "${value}")` });
    return z.NEVER;
  }
  return n;
});

export const database = setting().transform((value, ctx): DatabaseTarget => {
  if (value === undefined) return { kind: 'sqlite', file: path.resolve(DEFAULT_SQLITE_FILE) };
  if (/^postgres(ql)?:\/\//i.test(value)) {
    try {
      new URL(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'is not a valid postgres:// URL' });
      return z.NEVER;
    }
    return { kind: 'postgres', url: value };
  }
  if (value.startsWith('file:')) {
    const file = value.startsWith('file://') ? new URL(value).pathname : value.slice('file:'.length);
    return { kind: 'sqlite', file: path.resolve(decodeURIComponent(file)) };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    ctx.addIssue({
      code: 'custom',
      message: `must be a file path, a file: URL or a postgres:// URL (got a ${value.split(':')[0]}: URL)`,
    });
    return z.NEVER;
  }
  return { kind: 'sqlite', file: value === ':memory:' ? value : path.resolve(value) };
});

/** An http:// or https:// address; `bare` also refuses a query string and a fragment. */
export const httpUrl = ({ bare, example }: { bare: boolean; example: string }) =>
  setting().transform((value, ctx) => {
    if (value === undefined) return undefined;
    const url = URL.canParse(value) ? new URL(value) : null;
    if (!url || !['http:', 'https:'].includes(url.protocol) || (bare && (url.search || url.hash))) {
      ctx.addIssue({ code: 'custom', message: `must be an http:// or https:// address${example} (got "${value}")` });
      return z.NEVER;
    }
    return url;
  });

export const publicUrl = httpUrl({ bare: true, example: ' such as https://hottake.example.org' }).transform((url) =>
  url?.href.replace(/\/+$/, ''),
);

export const siteName = setting().transform((value, ctx) => {
  if (value === undefined) return SITE_DEFAULTS.siteName;
  if (value.length > 60) {
    ctx.addIssue({ code: 'custom', message: 'must be at most 60 characters' });
    return z.NEVER;
  }
  return value;
});

export const brandName = setting().transform((value, ctx) => {
  if (value !== undefined && value.length > 60) {
    ctx.addIssue({ code: 'custom', message: 'must be at most 60 characters' });
    return z.NEVER;
  }
  return value;
});

export const brandUrl = httpUrl({ bare: false, example: '' }).transform((url) => url?.href);

export const contactEmail = setting().transform((value, ctx) => {
  if (value !== undefined && !EMAIL_PATTERN.test(value)) {
    ctx.addIssue({ code: 'custom', message: `must be an e-mail address (got "${value}")` });
    return z.NEVER;
  }
  return value;
});

export const siteTimezone = setting().transform((value, ctx) => {
  if (value === undefined) return SITE_DEFAULTS.timeZone;
  if (!isValidTimeZone(value)) {
    ctx.addIssue({
      code: 'custom',
      message: `must be an IANA time zone such as America/New_York (got "${value}")`,
    });
    return z.NEVER;
  }
  return value;
});

export const votingClosesAt = setting().transform((value, ctx) => {
  const time = parseTimeOfDay(value ?? SITE_DEFAULTS.votingClosesAt);
  if (!time || (time.hours === 0 && time.minutes === 0)) {
    ctx.addIssue({
      code: 'custom',
      message: `must be a time of day from 00:01 to 23:59 on a 24-hour clock, such as 20:00 (got "${value}")`,
    });
    return z.NEVER;
  }
  return time;
});

export const adminEmail = setting().transform((value, ctx) => {
  if (value !== undefined && !EMAIL_PATTERN.test(value)) {
    ctx.addIssue({ code: 'custom', message: `must be an e-mail address (got "${value}")` });
    return z.NEVER;
  }
  return value?.toLowerCase();
});

export const adminPassword = setting().transform((value, ctx) => {
  if (value !== undefined && value.length < 12) {
    // The value itself is never echoed: it is a secret.
    ctx.addIssue({ code: 'custom', message: 'must be at least 12 characters long' });
    return z.NEVER;
  }
  return value;
});

/** A whole number from `min` to `max`, or the default when unset. */
export const wholeNumber = (fallback: number, min: number, max: number) =>
  setting().transform((value, ctx) => {
    if (value === undefined) return fallback;
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < min || n > max) {
      ctx.addIssue({ code: 'custom', message: `must be a whole number from ${min} to ${max} (got "${value}")` });
      return z.NEVER;
    }
    return n;
  });

/**
 * Which proxies' X-Forwarded-For to believe: a number of hops (nginx in front: 1) or the
 * proxies' addresses. "true" would believe the left-most entry, which the client writes itself,
 * so anyone could pick a new address per request and escape every limit: it is refused.
 */
export const trustProxy = setting().transform((value, ctx): TrustProxy => {
  if (value === undefined || value === 'false') return false;
  const trustsEveryone = (what: string) =>
    `must not ${what}: any client could then set its own address in X-Forwarded-For and escape every limit. ` +
    'Set the number of proxies in front of the site (1 for one load balancer), or their addresses or CIDR ranges';
  if (value === 'true') {
    ctx.addIssue({ code: 'custom', message: trustsEveryone('be true') });
    return z.NEVER;
  }
  if (/^\d+$/.test(value)) return Number(value);
  const entries = value.split(',').map((entry) => entry.trim());
  const ranges = entries.map(parseProxyRange);
  const bad = entries.filter((_entry, i) => ranges[i] === null);
  if (bad.length > 0) {
    ctx.addIssue({
      code: 'custom',
      message: `must be false, a number of proxy hops, or a comma-separated list of addresses or CIDR ranges (bad: ${bad.join(', ')})`,
    });
    return z.NEVER;
  }
  if (coversEveryAddress(ranges.filter((range) => range !== null))) {
    ctx.addIssue({ code: 'custom', message: trustsEveryone(`trust every address (${value} covers them all)`) });
    return z.NEVER;
  }
  return entries;
});

export const rateLimit = setting().transform((value, ctx) => {
  if (value === undefined) return 600;
  if (!/^\d+$/.test(value)) {
    ctx.addIssue({ code: 'custom', message: `must be a whole number, 0 to turn the limit off (got "${value}")` });
    return z.NEVER;
  }
  return Number(value);
});

export const smtpUrl = setting().transform((value, ctx) => {
  if (value === undefined) return undefined;
  if (!/^smtps?:\/\//i.test(value) || !URL.canParse(value)) {
    ctx.addIssue({
      code: 'custom',
      message: 'must be an smtp:// or smtps:// URL, such as smtps://user:pass@mail.example.org:465',
    });
    return z.NEVER;
  }
  return value;
});

/**
 * SMTP credentials travel only over TLS (smtps://, or STARTTLS required). A relay on this very
 * machine may take them in the clear: nothing on the network can read them there.
 */
export const smtpAllowPlaintextLocalhost = setting().transform((value, ctx) => {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  ctx.addIssue({ code: 'custom', message: `must be true or false (got "${value}")` });
  return z.NEVER;
});

/** Addresses that never leave this machine. */
export function isLocalHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || (isIP(host) === 4 && host.startsWith('127.'));
}

/**
 * The push services' hosts a browser's endpoint may name (issue 28): Chromium's (FCM),
 * Firefox's (autopush), Safari's (APNs) and Edge's (WNS). Any other endpoint is refused, so the
 * site never posts to an address a visitor chose. `*.` matches any subdomain.
 */
export const DEFAULT_PUSH_SERVICE_HOSTS = [
  'fcm.googleapis.com',
  'updates.push.services.mozilla.com',
  '*.push.services.mozilla.com',
  '*.push.apple.com',
  '*.notify.windows.com',
];

export const pushServiceHosts = setting().transform((value, ctx) => {
  if (value === undefined) return DEFAULT_PUSH_SERVICE_HOSTS;
  // `:443` is the port every entry allows already, as a URL leaves it out.
  const hosts = value.split(',').map((host) => host.trim().toLowerCase().replace(/:443$/, ''));
  const bad = hosts.filter(
    (host) =>
      !/^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:[1-9]\d{0,4})?$/.test(host) ||
      Number(host.split(':')[1] ?? 443) > 65_535,
  );
  if (bad.length > 0) {
    ctx.addIssue({
      code: 'custom',
      message: `must be comma-separated host names, *.example.com for subdomains, host:port for a port other than 443 (bad: ${bad.join(', ')})`,
    });
    return z.NEVER;
  }
  return hosts;
});

/** A VAPID key, base64url: the public one 65 bytes (87 characters), the private one 32 (43). */
export const vapidKey = (length: number, what: string) =>
  setting().transform((value, ctx) => {
    if (value !== undefined && !new RegExp(`^[A-Za-z0-9_-]{${length}}=*$`).test(value)) {
      ctx.addIssue({ code: 'custom', message: `must be ${what} in base64url (npx web-push generate-vapid-keys)` });
      return z.NEVER;
    }
    return value?.replace(/=+$/, '');
  });

/** A site key given instead of the one the site makes: 32 random bytes or more, in base64 (`openssl rand -base64 32`). */
export const siteSecret = setting().transform((value, ctx) => {
  if (value !== undefined && (!/^[A-Za-z0-9+/]+={0,2}$/.test(value) || Buffer.from(value, 'base64').length < 32)) {
    ctx.addIssue({ code: 'custom', message: 'must be 32 random bytes or more in base64 (openssl rand -base64 32)' });
    return z.NEVER;
  }
  return value;
});

export const vapidSubject = setting().transform((value, ctx) => {
  if (value !== undefined && !/^(mailto:[^@\s]+@[^@\s]+|https:\/\/\S+)$/.test(value)) {
    ctx.addIssue({ code: 'custom', message: `must be a mailto: address or an https:// URL (got "${value}")` });
    return z.NEVER;
  }
  return value;
});

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export const logLevel = setting().transform((value, ctx): LogLevel => {
  if (value === undefined) return 'info';
  const level = LOG_LEVELS.find((l) => l === value.toLowerCase());
  if (!level) {
    ctx.addIssue({ code: 'custom', message: `must be one of ${LOG_LEVELS.join(', ')} (got "${value}")` });
    return z.NEVER;
  }
  return level;
});

export const redisUrl = setting().transform((value, ctx) => {
  if (value === undefined) return undefined;
  if (!/^rediss?:\/\//i.test(value) || !URL.canParse(value)) {
    ctx.addIssue({ code: 'custom', message: 'must be a redis:// or rediss:// URL such as redis://127.0.0.1:6379' });
    return z.NEVER;
  }
  return value;
});

export const metricsToken = setting().transform((value, ctx) => {
  if (value !== undefined && value.length < 16) {
    ctx.addIssue({ code: 'custom', message: 'must be at least 16 characters long' });
    return z.NEVER;
  }
  return value;
});
