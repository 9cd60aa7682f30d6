/**
 * Configuration, read once from the environment at start. Every bad value is reported in one
 * error, so a deploy fails once with the full list instead of once per mistake.
 */
import path from 'node:path';
import { z } from '../shared/zod.js';
import { STAFF_PASSWORD_MIN_LENGTH } from '../shared/limits.js';
import type { SiteConfig } from '../shared/site-config.js';
import { formatTimeOfDay, zoneOffsetsBetween, type SiteClock } from '../shared/time.js';
import { isCommonPassword } from './staff/password-policy.js';
import {
  setting,
  port,
  database,
  publicUrl,
  siteName,
  brandName,
  brandUrl,
  contactEmail,
  siteTimezone,
  votingClosesAt,
  adminEmail,
  adminPassword,
  wholeNumber,
  trustProxy,
  rateLimit,
  smtpUrl,
  smtpAllowPlaintextLocalhost,
  isLocalHost,
  pushServiceHosts,
  vapidKey,
  siteSecret,
  vapidSubject,
  logLevel,
  redisUrl,
  metricsToken,
} from './config-settings.js';
import type { DatabaseTarget, TrustProxy, LogLevel } from './config-settings.js';

export type { DatabaseTarget, TrustProxy, LogLevel };
export { DEFAULT_SQLITE_FILE, DEFAULT_PUSH_SERVICE_HOSTS } from './config-settings.js';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

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
  REDIS_URL: redisUrl,
  REDIS_KEY_PREFIX: setting(),
  VAPID_PUBLIC_KEY: vapidKey(87, 'a P-256 public key'),
  VAPID_PRIVATE_KEY: vapidKey(43, 'a P-256 private key'),
  VAPID_SUBJECT: vapidSubject,
  PUSH_SERVICE_HOSTS: pushServiceHosts,
  AUDIT_CHAIN_KEY: siteSecret,
  VOTER_COOKIE_KEY: siteSecret,
  BALLOT_KEY: siteSecret,
  PROOF_OF_WORK_KEY: siteSecret,
  METRICS_TOKEN: metricsToken,
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
