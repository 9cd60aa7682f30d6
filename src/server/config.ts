/**
 * Configuration, read once from the environment at start. Every bad value is reported in one
 * error, so a deploy fails once with the full list instead of once per mistake.
 */
import path from 'node:path';
import { isIP } from 'node:net';
import { z } from '../shared/zod.js';
import { EMAIL_PATTERN, STAFF_PASSWORD_MIN_LENGTH } from '../shared/limits.js';
import { isCommonPassword } from './staff/password-policy.js';
import { coversEveryAddress, parseProxyRange } from './proxy-ranges.js';
import { SITE_DEFAULTS, type SiteConfig } from '../shared/site-config.js';
import {
  formatTimeOfDay,
  isValidTimeZone,
  parseTimeOfDay,
  zoneOffsetsBetween,
  type SiteClock,
} from '../shared/time.js';

export type DatabaseTarget = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

/** false, a number of proxy hops, or the proxies' addresses and CIDR ranges. */
export type TrustProxy = false | number | string[];

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export const DEFAULT_SQLITE_FILE = path.join('data', 'teacher-hot-take.sqlite');

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Unset and empty mean the same: the default. */
const setting = () =>
  z
    .string()
    .optional()
    .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));

const port = setting().transform((value, ctx) => {
  if (value === undefined) return 3000;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 65535) {
    ctx.addIssue({ code: 'custom', message: `must be a port number from 0 to 65535 (got "${value}")` });
    return z.NEVER;
  }
  return n;
});

const database = setting().transform((value, ctx): DatabaseTarget => {
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
const httpUrl = ({ bare, example }: { bare: boolean; example: string }) =>
  setting().transform((value, ctx) => {
    if (value === undefined) return undefined;
    const url = URL.canParse(value) ? new URL(value) : null;
    if (!url || !['http:', 'https:'].includes(url.protocol) || (bare && (url.search || url.hash))) {
      ctx.addIssue({ code: 'custom', message: `must be an http:// or https:// address${example} (got "${value}")` });
      return z.NEVER;
    }
    return url;
  });

const publicUrl = httpUrl({ bare: true, example: ' such as https://hottake.example.org' }).transform((url) =>
  url?.href.replace(/\/+$/, ''),
);

const siteName = setting().transform((value, ctx) => {
  if (value === undefined) return SITE_DEFAULTS.siteName;
  if (value.length > 60) {
    ctx.addIssue({ code: 'custom', message: 'must be at most 60 characters' });
    return z.NEVER;
  }
  return value;
});

const brandName = setting().transform((value, ctx) => {
  if (value !== undefined && value.length > 60) {
    ctx.addIssue({ code: 'custom', message: 'must be at most 60 characters' });
    return z.NEVER;
  }
  return value;
});

const brandUrl = httpUrl({ bare: false, example: '' }).transform((url) => url?.href);

const contactEmail = setting().transform((value, ctx) => {
  if (value !== undefined && !EMAIL_PATTERN.test(value)) {
    ctx.addIssue({ code: 'custom', message: `must be an e-mail address (got "${value}")` });
    return z.NEVER;
  }
  return value;
});

const siteTimezone = setting().transform((value, ctx) => {
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

const votingClosesAt = setting().transform((value, ctx) => {
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

const adminEmail = setting().transform((value, ctx) => {
  if (value !== undefined && !EMAIL_PATTERN.test(value)) {
    ctx.addIssue({ code: 'custom', message: `must be an e-mail address (got "${value}")` });
    return z.NEVER;
  }
  return value?.toLowerCase();
});

const adminPassword = setting().transform((value, ctx) => {
  if (value !== undefined && value.length < 12) {
    // The value itself is never echoed: it is a secret.
    ctx.addIssue({ code: 'custom', message: 'must be at least 12 characters long' });
    return z.NEVER;
  }
  return value;
});

/** A whole number from `min` to `max`, or the default when unset. */
const wholeNumber = (fallback: number, min: number, max: number) =>
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
const trustProxy = setting().transform((value, ctx): TrustProxy => {
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

const rateLimit = setting().transform((value, ctx) => {
  if (value === undefined) return 600;
  if (!/^\d+$/.test(value)) {
    ctx.addIssue({ code: 'custom', message: `must be a whole number, 0 to turn the limit off (got "${value}")` });
    return z.NEVER;
  }
  return Number(value);
});

const smtpUrl = setting().transform((value, ctx) => {
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
const smtpAllowPlaintextLocalhost = setting().transform((value, ctx) => {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  ctx.addIssue({ code: 'custom', message: `must be true or false (got "${value}")` });
  return z.NEVER;
});

/** Addresses that never leave this machine. */
function isLocalHost(hostname: string): boolean {
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

const pushServiceHosts = setting().transform((value, ctx) => {
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
const vapidKey = (length: number, what: string) =>
  setting().transform((value, ctx) => {
    if (value !== undefined && !new RegExp(`^[A-Za-z0-9_-]{${length}}=*$`).test(value)) {
      ctx.addIssue({ code: 'custom', message: `must be ${what} in base64url (npx web-push generate-vapid-keys)` });
      return z.NEVER;
    }
    return value?.replace(/=+$/, '');
  });

/** A site key given instead of the one the site makes: 32 random bytes or more, in base64 (`openssl rand -base64 32`). */
const siteSecret = setting().transform((value, ctx) => {
  if (value !== undefined && (!/^[A-Za-z0-9+/]+={0,2}$/.test(value) || Buffer.from(value, 'base64').length < 32)) {
    ctx.addIssue({ code: 'custom', message: 'must be 32 random bytes or more in base64 (openssl rand -base64 32)' });
    return z.NEVER;
  }
  return value;
});

const vapidSubject = setting().transform((value, ctx) => {
  if (value !== undefined && !/^(mailto:[^@\s]+@[^@\s]+|https:\/\/\S+)$/.test(value)) {
    ctx.addIssue({ code: 'custom', message: `must be a mailto: address or an https:// URL (got "${value}")` });
    return z.NEVER;
  }
  return value;
});

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const logLevel = setting().transform((value, ctx): LogLevel => {
  if (value === undefined) return 'info';
  const level = LOG_LEVELS.find((l) => l === value.toLowerCase());
  if (!level) {
    ctx.addIssue({ code: 'custom', message: `must be one of ${LOG_LEVELS.join(', ')} (got "${value}")` });
    return z.NEVER;
  }
  return level;
});

const environment = z.object({
  PORT: port,
  HOST: setting(),
  DATABASE_URL: database,
  PUBLIC_URL: publicUrl,
  SITE_NAME: siteName,
  BRAND_NAME: brandName,
  BRAND_URL: brandUrl,
  CONTACT_EMAIL: contactEmail,
  SITE_TIMEZONE: siteTimezone,
  VOTING_CLOSES_AT: votingClosesAt,
  ADMIN_EMAIL: adminEmail,
  ADMIN_PASSWORD: adminPassword,
  ADMIN_SESSION_IDLE_MINUTES: wholeNumber(120, 5, 24 * 60),
  ADMIN_SESSION_MAX_HOURS: wholeNumber(12, 1, 24 * 30),
  ADMIN_LOGIN_ATTEMPTS: wholeNumber(5, 1, 1000),
  TRUST_PROXY: trustProxy,
  RATE_LIMIT_WRITES_PER_MINUTE: rateLimit,
  SUBSCRIBE_LIMIT_PER_HOUR: wholeNumber(30, 0, 100_000),
  SUGGEST_LIMIT_PER_HOUR: wholeNumber(100, 0, 100_000),
  PUSH_SUBSCRIBE_LIMIT_PER_HOUR: wholeNumber(1000, 0, 100_000),
  LOG_LEVEL: logLevel,
  SMTP_URL: smtpUrl,
  SMTP_ALLOW_PLAINTEXT_LOCALHOST: smtpAllowPlaintextLocalhost,
  MAIL_FROM: setting(),
  MAIL_OUTBOX_DIR: setting(),
  MAIL_POSTAL_ADDRESS: setting(),
  SHUTDOWN_DELAY_SECONDS: wholeNumber(0, 0, 120),
  REDIS_URL: setting().transform((value, ctx) => {
    if (value === undefined) return undefined;
    if (!/^rediss?:\/\//i.test(value) || !URL.canParse(value)) {
      ctx.addIssue({ code: 'custom', message: 'must be a redis:// or rediss:// URL such as redis://127.0.0.1:6379' });
      return z.NEVER;
    }
    return value;
  }),
  REDIS_KEY_PREFIX: setting(),
  VAPID_PUBLIC_KEY: vapidKey(87, 'a P-256 public key'),
  VAPID_PRIVATE_KEY: vapidKey(43, 'a P-256 private key'),
  VAPID_SUBJECT: vapidSubject,
  PUSH_SERVICE_HOSTS: pushServiceHosts,
  AUDIT_CHAIN_KEY: siteSecret,
  VOTER_COOKIE_KEY: siteSecret,
  BALLOT_KEY: siteSecret,
  PROOF_OF_WORK_KEY: siteSecret,
  METRICS_TOKEN: setting().transform((value, ctx) => {
    if (value !== undefined && value.length < 16) {
      ctx.addIssue({ code: 'custom', message: 'must be at least 16 characters long' });
      return z.NEVER;
    }
    return value;
  }),
});

/** Every variable the configuration reads; README.md's table and .env.example list each (config-docs.test.ts). */
export const CONFIG_VARIABLES = Object.keys(environment.shape) as (keyof typeof environment.shape)[];

/** Rules between variables, checked whatever else is wrong, so every problem is listed. */
function crossChecks(env: Record<string, string | undefined>): string[] {
  const set = (name: string) => (env[name] ?? '').trim() !== '';
  const problems: string[] = [];
  if (set('ADMIN_EMAIL')) {
    const password = env.ADMIN_PASSWORD?.trim() ?? '';
    if (password === '')
      problems.push('ADMIN_PASSWORD must be set with ADMIN_EMAIL: together they make the first owner');
    else if (password.length < STAFF_PASSWORD_MIN_LENGTH)
      problems.push(`ADMIN_PASSWORD must be at least ${STAFF_PASSWORD_MIN_LENGTH} characters long with ADMIN_EMAIL`);
    else if (isCommonPassword(password))
      problems.push('ADMIN_PASSWORD is on the list of common or breached passwords: choose another');
  }
  if (set('SMTP_URL') && !set('MAIL_POSTAL_ADDRESS')) {
    problems.push(
      'MAIL_POSTAL_ADDRESS must be set when SMTP_URL is: e-mail to subscribers must carry a postal address (CAN-SPAM)',
    );
  }
  const smtpUrl = env.SMTP_URL?.trim() ?? '';
  if (
    env.SMTP_ALLOW_PLAINTEXT_LOCALHOST?.trim() === 'true' &&
    !(URL.canParse(smtpUrl) && isLocalHost(new URL(smtpUrl).hostname))
  ) {
    problems.push(
      'SMTP_ALLOW_PLAINTEXT_LOCALHOST is only for a mail server on this machine: SMTP_URL must name localhost, 127.0.0.1 or [::1]. ' +
        'Any other server gets the password only over TLS (smtps://, or smtp:// with STARTTLS)',
    );
  }
  if (set('VAPID_PUBLIC_KEY') !== set('VAPID_PRIVATE_KEY')) {
    problems.push(
      'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together: set both, or neither to have the site make a pair',
    );
  }
  return problems;
}

/** The configuration: the environment, checked, with the defaults that depend on other settings. */
const configSchema = environment.transform((env) => {
  const publicUrl = env.PUBLIC_URL ?? `http://localhost:${env.PORT}`;
  const site: Site = {
    siteName: env.SITE_NAME,
    publicUrl,
    brandName: env.BRAND_NAME ?? null,
    brandUrl: env.BRAND_URL ?? null,
    contactEmail: env.CONTACT_EMAIL ?? null,
    timeZone: env.SITE_TIMEZONE,
    votingClosesAt: env.VOTING_CLOSES_AT,
    postalAddress: env.MAIL_POSTAL_ADDRESS ?? null,
  };
  return {
    port: env.PORT,
    host: env.HOST ?? '127.0.0.1',
    database: env.DATABASE_URL,
    site,
    /** With ADMIN_PASSWORD, the first owner of a new site, made at start. */
    adminEmail: env.ADMIN_EMAIL,
    /** The old shared password: it makes the first owner, once, and then signs nobody in. */
    adminPassword: env.ADMIN_PASSWORD,
    /** A staff session ends after this long without use ... */
    adminSessionIdleMinutes: env.ADMIN_SESSION_IDLE_MINUTES,
    /** ... and this long after signing in, whatever happens. */
    adminSessionMaxHours: env.ADMIN_SESSION_MAX_HOURS,
    /** Sign-in attempts allowed per client address in 15 minutes. */
    adminLoginAttempts: env.ADMIN_LOGIN_ATTEMPTS,
    trustProxy: env.TRUST_PROXY,
    /** Per client address and minute, on calls that write; 0 turns the limit off. */
    rateLimitWritesPerMinute: env.RATE_LIMIT_WRITES_PER_MINUTE,
    /** New subscriptions (confirmation e-mails) per client address and hour; 0 turns it off. */
    subscribeLimitPerHour: env.SUBSCRIBE_LIMIT_PER_HOUR,
    /**
     * New suggestions per client address and hour; 0 turns it off. 100 lets a whole staff
     * behind one school address suggest a poll each in the same hour (a staff meeting), while
     * a script gets 100 an hour into the review queue instead of thousands a minute.
     */
    suggestLimitPerHour: env.SUGGEST_LIMIT_PER_HOUR,
    /**
     * New push reminders (and test notifications) per client address and hour; 0 turns it off.
     * A school's whole staff turns reminders on in one staff meeting, from one address.
     */
    pushSubscribeLimitPerHour: env.PUSH_SUBSCRIBE_LIMIT_PER_HOUR,
    logLevel: env.LOG_LEVEL,
    /**
     * After SIGTERM, how long /readyz answers 503 while the instance still serves, so a load
     * balancer that polls it stops sending requests before the instance stops listening.
     */
    shutdownDelayMs: env.SHUTDOWN_DELAY_SECONDS * 1000,
    /** The audit log's chain key (staff/audit.ts); null: the chain is unkeyed, and start-up and the audit page say so. */
    auditChainKey: env.AUDIT_CHAIN_KEY ?? null,
    /**
     * Site keys given in the environment instead of made once and kept in the database
     * (db/settings.ts's siteKey), so a backup does not carry them. VAPID's pair: `push`.
     */
    siteKeys: {
      voter_cookie_key: env.VOTER_COOKIE_KEY,
      ballot_key: env.BALLOT_KEY,
      proof_of_work_key: env.PROOF_OF_WORK_KEY,
    },
    /** /metrics answers only with `Authorization: Bearer <this>`; unset, there is no /metrics. */
    metricsToken: env.METRICS_TOKEN,
    /** Where instances count the per-address write limit together; unset, each counts alone. */
    redis: env.REDIS_URL ? { url: env.REDIS_URL, keyPrefix: env.REDIS_KEY_PREFIX ?? 'hot-take:limits:' } : null,
    push: {
      /** Both or neither; neither: the site makes a pair at its first start and keeps it (push/vapid.ts). */
      vapidKeys:
        env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY
          ? { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY }
          : null,
      /** Who push services may write to about our messages (RFC 8292's `sub`). */
      subject:
        env.VAPID_SUBJECT ??
        (env.CONTACT_EMAIL
          ? `mailto:${env.CONTACT_EMAIL}`
          : publicUrl.startsWith('https:')
            ? publicUrl
            : `mailto:no-reply@${new URL(publicUrl).hostname}`),
      /** Hosts a subscription's endpoint may name. */
      serviceHosts: env.PUSH_SERVICE_HOSTS,
    },
    mail: {
      /** smtp:// or smtps:// URL of the mail server; undefined writes .eml files instead. */
      smtpUrl: env.SMTP_URL,
      /** Credentials may go to a relay on this machine without TLS (never to another host). */
      allowPlaintextLocalhost: env.SMTP_ALLOW_PLAINTEXT_LOCALHOST,
      from: env.MAIL_FROM ?? `"${env.SITE_NAME}" <no-reply@${new URL(publicUrl).hostname}>`,
      /** Where .eml files go when there is no mail server. */
      outboxDir: path.resolve(env.MAIL_OUTBOX_DIR ?? path.join('data', 'mail')),
    },
  };
});

export type Config = z.output<typeof configSchema>;
export type MailConfig = Config['mail'];
export type PushConfig = Config['push'];

/**
 * The facts about this site that pages, e-mails, previews and rules use: one object, made once
 * here. The browser gets its share as `SiteConfig` (src/shared/site-config.ts).
 */
export interface Site extends SiteClock {
  siteName: string;
  /** The address people reach the site at (PUBLIC_URL), without a trailing slash. */
  publicUrl: string;
  /** The parent brand named in the consent label and linked from the footer, if any. */
  brandName: string | null;
  brandUrl: string | null;
  /** Where people write with questions and privacy requests, if configured. */
  contactEmail: string | null;
  /** The sender's postal address, which US law (CAN-SPAM) requires in every e-mail. */
  postalAddress: string | null;
}

/** Reads the configuration from `env`; throws a ConfigError listing every bad variable. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const parsed = configSchema.safeParse(env);
  const problems = [
    ...(parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`)),
    ...crossChecks(env),
  ];
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems);
  return parsed.data;
}

const YEAR_MS = 365 * 86_400_000;

/** The browser's share of the site's facts, written into every page, as of `now`. */
export function siteConfigOf(site: Site, now: Date): SiteConfig {
  return {
    siteName: site.siteName,
    publicUrl: site.publicUrl,
    brandName: site.brandName,
    brandUrl: site.brandUrl,
    contactEmail: site.contactEmail,
    timeZone: site.timeZone,
    votingClosesAt: formatTimeOfDay(site.votingClosesAt),
    zoneOffsets: zoneOffsetsBetween(site.timeZone, now.getTime() - YEAR_MS, now.getTime() + 3 * YEAR_MS),
  };
}
