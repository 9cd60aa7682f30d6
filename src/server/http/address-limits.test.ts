/**
 * The daily address key (issue 34, item 2): what limits count is a keyed hash under the site
 * day's key, and the day after, that key and every count made under it are gone.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Db } from '../db/connection.js';
import { openDatabaseEachTest } from '../testing/database-per-test.js';
import { newYorkTime, TestClock, testSite } from '../testing/test-clock.js';
import { testDatabaseKinds } from '../testing/test-database.js';
import { addressLimit, createAddressKeys, hitAddressLimit } from './address-limits.js';

describe.each(testDatabaseKinds())('the daily address key (%s)', (kind) => {
  let db: Db;
  openDatabaseEachTest(kind, (opened) => {
    db = opened;
  });

  const keys = () =>
    db.selectFrom('settings').select(['name', 'value']).where('name', 'like', 'address_key:%').execute();

  it('is made for each site day, shared by every instance, and deleted with its counts the next day', async () => {
    const clock = new TestClock(newYorkTime('2026-11-23', '23:30'));
    const [one, two] = [
      createAddressKeys({ db, clock, site: testSite() }),
      createAddressKeys({ db, clock, site: testSite() }),
    ];
    const address = '203.0.113.9';
    const monday = await one.hash(address);
    expect(await two.hash(address)).toBe(monday);
    expect(monday).not.toContain(address);
    const [stored] = await keys();
    expect(stored?.name).toBe('address_key:2026-11-23');
    expect(
      createHmac('sha256', Buffer.from(stored?.value ?? '', 'base64'))
        .update(address)
        .digest('hex'),
    ).toBe(monday);

    const limit = await addressLimit((value) => one.hash(value), {
      kind: 'subscribe',
      address,
      max: 5,
      windowMs: 3_600_000,
    });
    await hitAddressLimit(db, limit, clock.now());
    expect(await db.selectFrom('rate_limits').select('key').execute()).toEqual([{ key: `subscribe:${monday}` }]);

    // Past midnight in the site's zone: a new key, Monday's gone, and what was counted under it.
    clock.advance(60 * 60_000);
    const tuesday = await two.hash(address);
    expect(tuesday).not.toBe(monday);
    expect(await one.hash(address)).toBe(tuesday);
    expect((await keys()).map((row) => row.name)).toEqual(['address_key:2026-11-24']);
    expect(await db.selectFrom('rate_limits').select('key').execute()).toEqual([]);
  });
});
