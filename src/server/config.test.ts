import path from 'node:path';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_PUSH_SERVICE_HOSTS, DEFAULT_SQLITE_FILE, loadConfig } from './config.js';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

const KEY_A = Buffer.alloc(32, 1).toString('base64');
const KEY_B = Buffer.alloc(48, 2).toString('base64');

describe('loadConfig', () => {
  it('refuses a site key that is not 32 bytes or more of base64', () => {
    const message = 'must be 32 random bytes or more in base64 (openssl rand -base64 32)';
    expect(problemsOf({ AUDIT_CHAIN_KEY: 'short', BALLOT_KEY: Buffer.alloc(31).toString('base64') })).toEqual([
      `AUDIT_CHAIN_KEY ${message}`,
      `BALLOT_KEY ${message}`,
    ]);
  });

  it('has working defaults for everything', () => {
    expect(loadConfig({})).toEqual({
      auditChainKey: null,
      siteKeys: {},
      shutdownDelayMs: 0,
      metricsToken: undefined,
      redis: null,
      port: 3000,
      host: '127.0.0.1',
      database: { kind: 'sqlite', file: path.resolve(DEFAULT_SQLITE_FILE) },
      site: {
        siteName: 'Teacher Hot Take',
        publicUrl: 'http://localhost:3000',
        brandName: null,
        brandUrl: null,
        contactEmail: null,
        timeZone: 'America/New_York',
        votingClosesAt: { hours: 20, minutes: 0 },
        postalAddress: null,
      },
      adminPassword: undefined,
      adminSessionIdleMinutes: 120,
      adminSessionMaxHours: 12,
      adminLoginAttempts: 5,
      trustProxy: false,
      rateLimitWritesPerMinute: 600,
      subscribeLimitPerHour: 30,
      suggestLimitPerHour: 100,
      pushSubscribeLimitPerHour: 1000,
      logLevel: 'info',
      push: {
        vapidKeys: null,
        subject: 'mailto:no-reply@localhost',
        serviceHosts: DEFAULT_PUSH_SERVICE_HOSTS,
      },
      mail: {
        smtpUrl: undefined,
        allowPlaintextLocalhost: false,
        from: '"Teacher Hot Take" <no-reply@localhost>',
        outboxDir: path.resolve('data', 'mail'),
      },
    });
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ PORT: '', SITE_NAME: '  ', DATABASE_URL: '' })).toMatchObject({
      port: 3000,
      site: { siteName: 'Teacher Hot Take' },
    });
  });

  it('reads every setting', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      DATABASE_URL: 'postgres://app@db.internal:5432/hottake',
      PUBLIC_URL: 'https://hottake.example.org/',
      SITE_NAME: 'Staffroom Hot Take',
      BRAND_NAME: 'Example Teaching Network',
      BRAND_URL: 'https://teaching.example.org',
      CONTACT_EMAIL: 'hello@teaching.example.org',
      SITE_TIMEZONE: 'America/Chicago',
      VOTING_CLOSES_AT: '18:30',
      ADMIN_PASSWORD: 'correct horse battery staple',
      TRUST_PROXY: '2',
      RATE_LIMIT_WRITES_PER_MINUTE: '0',
      SUBSCRIBE_LIMIT_PER_HOUR: '12',
      SUGGEST_LIMIT_PER_HOUR: '40',
      PUSH_SUBSCRIBE_LIMIT_PER_HOUR: '500',
      LOG_LEVEL: 'WARN',
      SMTP_URL: 'smtps://mailer:secret@mail.example.org:465',
      MAIL_FROM: 'Staffroom <polls@example.org>',
      MAIL_OUTBOX_DIR: '/var/mail-out',
      MAIL_POSTAL_ADDRESS: '1 School Lane, Springfield, IL 62701',
      AUDIT_CHAIN_KEY: KEY_A,
      VOTER_COOKIE_KEY: KEY_B,
      BALLOT_KEY: KEY_A,
      PROOF_OF_WORK_KEY: KEY_B,
    });
    expect(config).toEqual({
      auditChainKey: KEY_A,
      siteKeys: { voter_cookie_key: KEY_B, ballot_key: KEY_A, proof_of_work_key: KEY_B },
      shutdownDelayMs: 0,
      metricsToken: undefined,
      redis: null,
      port: 8080,
      host: '0.0.0.0',
      database: { kind: 'postgres', url: 'postgres://app@db.internal:5432/hottake' },
      site: {
        siteName: 'Staffroom Hot Take',
        publicUrl: 'https://hottake.example.org',
        brandName: 'Example Teaching Network',
        brandUrl: 'https://teaching.example.org/',
        contactEmail: 'hello@teaching.example.org',
        timeZone: 'America/Chicago',
        votingClosesAt: { hours: 18, minutes: 30 },
        postalAddress: '1 School Lane, Springfield, IL 62701',
      },
      adminPassword: 'correct horse battery staple',
      adminSessionIdleMinutes: 120,
      adminSessionMaxHours: 12,
      adminLoginAttempts: 5,
      trustProxy: 2,
      rateLimitWritesPerMinute: 0,
      subscribeLimitPerHour: 12,
      suggestLimitPerHour: 40,
      pushSubscribeLimitPerHour: 500,
      logLevel: 'warn',
      push: { vapidKeys: null, subject: 'mailto:hello@teaching.example.org', serviceHosts: DEFAULT_PUSH_SERVICE_HOSTS },
      mail: {
        smtpUrl: 'smtps://mailer:secret@mail.example.org:465',
        allowPlaintextLocalhost: false,
        from: 'Staffroom <polls@example.org>',
        outboxDir: '/var/mail-out',
      },
    });
  });

  it('takes a SQLite path, a file: URL, or a PostgreSQL URL', () => {
    expect(loadConfig({ DATABASE_URL: 'var/site.sqlite' }).database).toEqual({
      kind: 'sqlite',
      file: path.resolve('var/site.sqlite'),
    });
    expect(loadConfig({ DATABASE_URL: 'file:./x.db' }).database).toEqual({
      kind: 'sqlite',
      file: path.resolve('x.db'),
    });
    expect(loadConfig({ DATABASE_URL: 'file:///srv/hot%20take.db' }).database).toEqual({
      kind: 'sqlite',
      file: '/srv/hot take.db',
    });
    expect(loadConfig({ DATABASE_URL: 'postgresql://h/db' }).database).toEqual({
      kind: 'postgres',
      url: 'postgresql://h/db',
    });
  });

  it('takes a number of proxy hops or the proxies’ addresses, and refuses to believe every client', () => {
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy).toEqual(['10.0.0.0/8', '127.0.0.1']);
    expect(problemsOf({ TRUST_PROXY: 'true' })).toEqual([
      'TRUST_PROXY must not be true: any client could then set its own address in X-Forwarded-For and escape every limit. ' +
        'Set the number of proxies in front of the site (1 for one load balancer), or their addresses or CIDR ranges',
    ]);
  });

  it('refuses proxy ranges that together trust every address, as it refuses true', () => {
    const everyone = [
      '0.0.0.0/0',
      '::/0',
      '0.0.0.0/1,128.0.0.0/1',
      '128.0.0.0/1, 0.0.0.0/2, 64.0.0.0/2',
      '10.0.0.0/8, 0.0.0.0/0',
      '::ffff:0.0.0.0/96',
      '::/1, 8000::/1, 10.0.0.1',
    ];
    for (const value of everyone) {
      expect(problemsOf({ TRUST_PROXY: value }), value).toEqual([
        `TRUST_PROXY must not trust every address (${value} covers them all): any client could then set its own address in X-Forwarded-For and escape every limit. ` +
          'Set the number of proxies in front of the site (1 for one load balancer), or their addresses or CIDR ranges',
      ]);
    }
    const some = ['0.0.0.0/1', '0.0.0.0/1, 128.0.0.0/2', '::/1', '10.0.0.0/8, 2001:db8::/32', '::ffff:10.0.0.0/104'];
    for (const value of some) expect(loadConfig({ TRUST_PROXY: value }).trustProxy, value).toEqual(value.split(/, ?/));
  });

  it('refuses with the configuration message any proxy range the server could not take', () => {
    for (const value of ['10.0.0.0/33', '10.0.0.0/abc', '10.0.0.0/', '::/129', '10.0.0.0/255.0.0.0', 'loopback']) {
      expect(problemsOf({ TRUST_PROXY: value }), value).toEqual([
        expect.stringMatching(/^TRUST_PROXY must be false, a number of proxy hops, or a comma-separated list/),
      ]);
    }
    // What it takes, the server takes too (Fastify reads the ranges as it is made).
    for (const value of ['10.0.0.1/8', '::ffff:10.0.0.1', '::ffff:10.0.0.0/104', 'fe80::1%eth0', '0.0.0.0/1,::/1']) {
      const { trustProxy } = loadConfig({ TRUST_PROXY: value });
      expect(() => Fastify({ trustProxy: trustProxy as string[] }), value).not.toThrow();
    }
  });

  it('lists every bad value at once, each with what is expected', () => {
    const problems = problemsOf({
      PORT: 'eighty',
      DATABASE_URL: 'mysql://db/x',
      PUBLIC_URL: 'hottake.example.org',
      SITE_TIMEZONE: 'Eastern',
      VOTING_CLOSES_AT: '8pm',
      TRUST_PROXY: 'yes please',
      RATE_LIMIT_WRITES_PER_MINUTE: '-5',
      LOG_LEVEL: 'loud',
      SITE_NAME: 'x'.repeat(61),
      BRAND_URL: 'teaching.example.org',
    });
    expect(problems).toHaveLength(10);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^PORT must be a port number/),
        expect.stringMatching(/^DATABASE_URL must be a file path, a file: URL or a postgres:\/\/ URL/),
        expect.stringMatching(/^PUBLIC_URL must be an http:\/\/ or https:\/\/ address/),
        expect.stringMatching(/^SITE_TIMEZONE must be an IANA time zone/),
        expect.stringMatching(/^VOTING_CLOSES_AT must be a time of day/),
        expect.stringMatching(/^TRUST_PROXY must be false, a number of proxy hops/),
        expect.stringMatching(/^RATE_LIMIT_WRITES_PER_MINUTE must be a whole number/),
        expect.stringMatching(/^LOG_LEVEL must be one of/),
        expect.stringMatching(/^SITE_NAME must be at most 60 characters/),
        expect.stringMatching(/^BRAND_URL must be an http:\/\/ or https:\/\/ address/),
      ]),
    );
  });

  it('requires a postal address when real e-mail is sent', () => {
    expect(problemsOf({ SMTP_URL: 'smtp://mail.example.org' })).toEqual([
      expect.stringMatching(/^MAIL_POSTAL_ADDRESS must be set when SMTP_URL is/),
    ]);
    expect(problemsOf({ SMTP_URL: 'http://mail.example.org', MAIL_POSTAL_ADDRESS: 'x' })).toEqual([
      expect.stringMatching(/^SMTP_URL must be/),
    ]);
    // Listed together with any other problem.
    expect(problemsOf({ PORT: 'x', SMTP_URL: 'smtp://mail.example.org' })).toHaveLength(2);
  });

  it('lets SMTP credentials go without TLS only to a relay on this machine, and only when told to', () => {
    const env = { MAIL_POSTAL_ADDRESS: '1 School Lane' };
    expect(loadConfig({ ...env, SMTP_URL: 'smtp://u:p@mail.example.org' }).mail.allowPlaintextLocalhost).toBe(false);
    for (const host of ['localhost', '127.0.0.1', '127.0.0.53', '[::1]']) {
      const config = loadConfig({ ...env, SMTP_URL: `smtp://u:p@${host}:25`, SMTP_ALLOW_PLAINTEXT_LOCALHOST: 'true' });
      expect(config.mail.allowPlaintextLocalhost, host).toBe(true);
    }
    const refusal = expect.stringMatching(
      /^SMTP_ALLOW_PLAINTEXT_LOCALHOST is only for a mail server on this machine: SMTP_URL must name localhost/,
    );
    for (const host of ['mail.example.org', '10.0.0.5', '[2001:db8::1]', 'localhost.example.org', '128.0.0.1']) {
      expect(
        problemsOf({ ...env, SMTP_URL: `smtp://u:p@${host}`, SMTP_ALLOW_PLAINTEXT_LOCALHOST: 'true' }),
        host,
      ).toEqual([refusal]);
    }
    expect(problemsOf({ SMTP_ALLOW_PLAINTEXT_LOCALHOST: 'true' })).toEqual([refusal]);
    expect(problemsOf({ SMTP_ALLOW_PLAINTEXT_LOCALHOST: 'yes' })).toEqual([
      'SMTP_ALLOW_PLAINTEXT_LOCALHOST must be true or false (got "yes")',
    ]);
  });

  it('refuses a midnight close time, which would never open voting', () => {
    expect(problemsOf({ VOTING_CLOSES_AT: '00:00' })).toEqual([expect.stringMatching(/^VOTING_CLOSES_AT/)]);
  });

  it('never repeats a secret in its error', () => {
    const problems = problemsOf({ ADMIN_PASSWORD: 'hunter2' });
    expect(problems).toEqual(['ADMIN_PASSWORD must be at least 12 characters long']);
    expect(new ConfigError(problems).message).not.toContain('hunter2');
  });
});

describe('push reminder settings', () => {
  it('takes a VAPID pair, a subject and push service hosts', () => {
    const keys = { publicKey: `B${'a'.repeat(86)}`, privateKey: 'b'.repeat(43) };
    expect(
      loadConfig({
        VAPID_PUBLIC_KEY: keys.publicKey,
        VAPID_PRIVATE_KEY: keys.privateKey,
        VAPID_SUBJECT: 'https://hottake.example.org/contact',
        PUSH_SERVICE_HOSTS: 'fcm.googleapis.com, *.push.apple.com',
      }).push,
    ).toEqual({
      vapidKeys: keys,
      subject: 'https://hottake.example.org/contact',
      serviceHosts: ['fcm.googleapis.com', '*.push.apple.com'],
    });
  });

  it('refuses half a pair, a bad key, a bad subject and a host that is not one', () => {
    expect(() =>
      loadConfig({
        VAPID_PUBLIC_KEY: 'short',
        VAPID_SUBJECT: 'http://example.org',
        PUSH_SERVICE_HOSTS: 'https://fcm.googleapis.com',
      }),
    ).toThrow(
      expect.objectContaining({
        problems: [
          expect.stringContaining('VAPID_PUBLIC_KEY must be a P-256 public key'),
          expect.stringContaining('VAPID_SUBJECT must be a mailto: address or an https:// URL'),
          expect.stringContaining('PUSH_SERVICE_HOSTS must be comma-separated host names'),
          expect.stringContaining('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together'),
        ],
      }),
    );
  });
});
