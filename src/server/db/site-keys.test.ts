/**
 * Issue 34, item 12: every made-once site key can come from the environment (VOTER_COOKIE_KEY,
 * BALLOT_KEY, PROOF_OF_WORK_KEY, VAPID_PUBLIC_KEY with VAPID_PRIVATE_KEY); then the database,
 * and so every backup, holds none of them, not even the copy an earlier start made.
 */
import fs from 'node:fs';
import path from 'node:path';
import webpush from 'web-push';
import { afterEach, describe, expect, it } from 'vitest';
import { VOTER_COOKIE, VoterIds } from '../voters/voter-cookie.js';
import { seedPoll } from '../testing/fixtures.js';
import { createTestAppOn, type TestApp } from '../testing/test-app.js';
import { createTestDatabase, testDatabaseKinds } from '../testing/test-database.js';
import { Visitor } from '../testing/visitor.js';
import { createLegacyVoterIds, VOTER_COOKIE_KEY } from '../voters/voter-ids.service.js';
import type { Db } from './connection.js';

const SITE_KEYS = ['ballot_key', 'proof_of_work_key', 'vapid_keys', VOTER_COOKIE_KEY].sort();
const storedKeys = async (db: Db) =>
  (await db.selectFrom('settings').select('name').where('name', 'in', SITE_KEYS).orderBy('name').execute()).map(
    (row) => row.name,
  );

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe.each(testDatabaseKinds())('site keys (%s)', (kind) => {
  it('are made once and kept in the database without the environment, and taken from it, kept nowhere, with it', async () => {
    const database = await createTestDatabase(kind);
    t = await createTestAppOn(database, { keepDatabase: true });
    expect(await storedKeys(t.db)).toEqual(SITE_KEYS);
    await t.close();

    const vapid = webpush.generateVAPIDKeys();
    const cookieKey = Buffer.alloc(32, 9).toString('base64');
    t = await createTestAppOn(database, {
      env: {
        VOTER_COOKIE_KEY: cookieKey,
        BALLOT_KEY: Buffer.alloc(32, 8).toString('base64'),
        PROOF_OF_WORK_KEY: Buffer.alloc(32, 7).toString('base64'),
        VAPID_PUBLIC_KEY: vapid.publicKey,
        VAPID_PRIVATE_KEY: vapid.privateKey,
      },
    });
    // The copies the first start made are gone: a backup taken now carries no site key.
    expect(await storedKeys(t.db)).toEqual([]);

    const visitor = new Visitor(t.app);
    const poll = await seedPoll(t.db, { options: ['Yes', 'No'] });
    expect((await visitor.vote(poll.id, 0)).statusCode).toBeLessThan(300);
    const cookie = visitor.cookies.get(VOTER_COOKIE) ?? '';
    const signer = (key: string) =>
      new VoterIds({
        key: Buffer.from(key, 'base64'),
        clock: t!.clock,
        secureCookies: false,
        legacy: createLegacyVoterIds(t!.db, t!.clock),
      });
    expect(signer(cookieKey).verify(cookie)).toMatchObject({ id: visitor.voterId });
    expect(signer(Buffer.alloc(32, 1).toString('base64')).verify(cookie)).toBeNull();
    const reminders = (await visitor.get('/api/reminders')).json<{ applicationServerKey: string }>();
    expect(reminders.applicationServerKey).toBe(vapid.publicKey);
    expect(await storedKeys(t.db)).toEqual([]);
  });
});

describe('the one way to a site key', () => {
  it('is siteKey: nothing else writes a made-once value to settings but the admin password hash and the address key', () => {
    const root = path.resolve(import.meta.dirname, '..');
    const callers = (fs.readdirSync(root, { recursive: true }) as string[])
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && file !== path.join('db', 'settings.ts'))
      .filter((file) => fs.readFileSync(path.join(root, file), 'utf8').includes('settingOrInsert('));
    // first-owner.ts: the generated admin password's hash; address-limits.ts: the address
    // key, which is not made once (issue 34 item 2: a new one each site day, the old deleted).
    expect(callers.sort()).toEqual([path.join('http', 'address-limits.ts'), path.join('staff', 'first-owner.ts')]);
  });
});
