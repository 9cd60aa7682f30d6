/**
 * "We don't store IP addresses" (the privacy page; issue 34, item 2). A burst from one known
 * address (votes, subscriptions, suggestions, failed sign-ins, push reminders), then every table,
 * Redis, the log and the .eml files are searched for the address, its networks, and their keyed
 * hashes under every key still held: none is found once the address key's day has passed, and
 * no vote's bucket either once the bucket keys' 14 days have.
 */
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isPostgres, type Db } from '../db/connection.js';
import { seedPoll } from '../testing/fixtures.js';
import { RedisTestServer } from '../testing/redis-test-server.js';
import { createTestApp, TEST_SIGN_IN, type TestApp } from '../testing/test-app.js';
import { testDatabaseKinds } from '../testing/test-database.js';
import { Visitor } from '../testing/visitor.js';
import { integrityBlock, limitAddress, wideNetwork } from './client-address.js';

const DAY = 86_400_000;
const ADDRESSES = ['203.0.113.77', '2001:db8:77:1::7'];
const PUBLIC_KEY = `B${'A'.repeat(86)}`;

/** Every row of every table, as text. */
async function everyRow(db: Db): Promise<string> {
  const { rows: tables } = isPostgres(db)
    ? await sql<{ name: string }>`select table_name as name from information_schema.tables
        where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(db)
    : await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db);
  const dumped: string[] = [];
  for (const { name } of tables) {
    const { rows } = await sql`select * from ${sql.table(name)}`.execute(db);
    dumped.push(`${name}: ${JSON.stringify(rows)}`);
  }
  return dumped.join('\n');
}

async function everyRedisEntry(url: string): Promise<string> {
  const redis = new Redis(url);
  try {
    const keys = await redis.keys('*');
    const values = await Promise.all(keys.map(async (key) => `${key}=${await redis.dump(key)}`));
    return values.join('\n');
  } finally {
    redis.disconnect();
  }
}

describe.each(testDatabaseKinds())('no IP address at rest (%s)', (kind) => {
  let redis: RedisTestServer;
  let t: TestApp;
  let mailDir: string;
  const lines: string[] = [];
  beforeEach(async () => {
    redis = await RedisTestServer.start();
    mailDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hot-take-no-address-'));
    lines.length = 0;
    t = await createTestApp(kind, {
      env: {
        REDIS_URL: redis.url,
        TRUST_PROXY: '1',
        MAIL_OUTBOX_DIR: mailDir,
        PUSH_SERVICE_HOSTS: 'push.example',
        LOG_LEVEL: 'debug',
        ADMIN_LOGIN_ATTEMPTS: '3',
      },
      logStream: { write: (line) => void lines.push(line) },
    });
  });
  afterEach(async () => {
    await t.close();
    await redis.stop();
    fs.rmSync(mailDir, { recursive: true, force: true });
  });

  /** Everything the site keeps: the database, Redis, its log lines, its e-mail files. */
  async function everythingKept(): Promise<string> {
    const mail = fs.readdirSync(mailDir).map((file) => fs.readFileSync(path.join(mailDir, file), 'utf8'));
    return [await everyRow(t.db), await everyRedisEntry(redis.url), lines.join('\n'), mail.join('\n')].join('\n');
  }

  /** The addresses, their networks, and their keyed hashes under each key the site still holds. */
  async function needles(): Promise<string[]> {
    const forms = ADDRESSES.flatMap((address) => [
      address,
      limitAddress(address),
      integrityBlock(address),
      ...(wideNetwork(address) === null ? [] : [wideNetwork(address) ?? '']),
    ]);
    const addressKeys = await t.db
      .selectFrom('settings')
      .select('value')
      .where('name', 'like', 'address_key:%')
      .execute();
    const bucketKeys = await t.db.selectFrom('integrity_keys').select('key').execute();
    const hashes = [
      ...addressKeys.flatMap(({ value }) =>
        forms.map((form) => createHmac('sha256', Buffer.from(value, 'base64')).update(form).digest('hex')),
      ),
      ...bucketKeys.flatMap(({ key }) =>
        forms.map((form) => createHmac('sha256', key).update(form).digest('hex').slice(0, 16)),
      ),
    ];
    return [...forms, ...hashes];
  }

  const found = async () => {
    const kept = await everythingKept();
    return (await needles()).filter((needle) => kept.includes(needle));
  };

  it('keeps neither the address nor a hash anyone can still tie to it, after the day the page states', async () => {
    const poll = await seedPoll(t.db, { options: ['Yes', 'No'] });
    for (const [n, address] of ADDRESSES.entries()) {
      const from = () => new Visitor(t.app, { origin: t.config.site.publicUrl, 'x-forwarded-for': address });
      for (let i = 0; i < 12; i += 1) {
        const browser = from();
        expect((await browser.vote(poll.id, i % 2)).statusCode).toBe(201);
        await browser.post(`/api/polls/${poll.id}/update-vote`, { email: `voter${n}-${i}@example.org` });
        await browser.post('/api/subscribe', { email: `reader${n}-${i}@example.org` });
        await browser.post('/api/poll-suggestions', { question: `Question ${n} ${i}?`, options: ['Yes', 'No'] });
        await browser.post('/api/reminders', {
          timeZone: 'UTC',
          subscription: {
            endpoint: `https://push.example/p/${n}-${i}`,
            keys: { p256dh: PUBLIC_KEY, auth: 'A'.repeat(22) },
          },
        });
        await browser.post('/api/admin/login', { email: TEST_SIGN_IN.email, password: `wrong guess ${i}` });
        await browser.post('/api/admin/passkeys/sign-in/options', {});
      }
    }
    await t.app.jobs.sendMail();
    expect(fs.readdirSync(mailDir).length).toBeGreaterThan(0);
    // While the day lasts, the limits count under today's key: the check finds what it looks for.
    expect(await found()).not.toEqual([]);

    // The address key's day has passed: the first count of the new day makes a new key.
    t.clock.advance(DAY + 60_000);
    await new Visitor(t.app, { 'x-forwarded-for': '192.0.2.1' }).post('/api/subscribe', { email: 'x@example.org' });
    await t.app.jobs.housekeeping();
    const kept = await everythingKept();
    for (const address of ADDRESSES) expect(kept).not.toContain(address);
    // Only a vote's bucket (its /24 or /48 under the bucket key, 14 days by DESIGN) is still linkable.
    expect((await found()).every((needle) => /^[0-9a-f]{16}$/.test(needle))).toBe(true);

    t.clock.advance(14 * DAY);
    await t.app.jobs.housekeeping();
    expect(await found()).toEqual([]);
  });
});
