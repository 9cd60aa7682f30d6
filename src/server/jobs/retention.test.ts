/** Housekeeping forgets what is no longer needed, by the site's clock: ended staff sessions, old limit counts, mail sent over 30 days ago, expired proofs of work. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { newYorkTime } from '../testing/test-clock.js';
import { testDatabaseKinds } from '../testing/test-database.js';

describe.each(testDatabaseKinds())('retention (%s)', (kind) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp(kind, { now: newYorkTime('2026-11-21', '10:00') });
  });
  afterEach(() => t.close());

  const daysAgo = (days: number) => new Date(t.clock.now().getTime() - days * 24 * 3_600_000).toISOString();

  it('purges ended staff sessions, limit counts over a day old and mail sent over 30 days ago, and keeps the rest', async () => {
    await t.db
      .insertInto('admin_sessions')
      .values([
        { token_hash: 'ended', created_at: daysAgo(2), last_seen_at: daysAgo(2), expires_at: daysAgo(1) },
        { token_hash: 'idle', created_at: daysAgo(0.5), last_seen_at: daysAgo(0.4), expires_at: daysAgo(-0.1) },
        { token_hash: 'live', created_at: daysAgo(0.01), last_seen_at: daysAgo(0.01), expires_at: daysAgo(-0.4) },
      ])
      .execute();
    await t.db
      .insertInto('rate_limits')
      .values([
        { key: 'login:old', window_started_at: daysAgo(2), hits: 3 },
        { key: 'login:recent', window_started_at: daysAgo(0.01), hits: 1 },
      ])
      .execute();
    const subscriber = await t.db
      .insertInto('subscribers')
      .values({ email: 'a@example.org', created_at: daysAgo(60) })
      .returning('id')
      .executeTakeFirstOrThrow();
    const mail = (key: string, status: 'sent' | 'queued' | 'failed', sentDaysAgo: number | null) => ({
      kind: 'daily' as const,
      subscriber_id: subscriber.id,
      dedupe_key: key,
      status,
      next_attempt_at: daysAgo(40),
      created_at: daysAgo(40),
      sent_at: sentDaysAgo === null ? null : daysAgo(sentDaysAgo),
    });
    await t.db
      .insertInto('email_outbox')
      .values([
        mail('sent-31-days-ago', 'sent', 31),
        mail('sent-29-days-ago', 'sent', 29),
        mail('failed-long-ago', 'failed', null),
        mail('queued', 'queued', null),
      ])
      .execute();

    await t.app.jobs.housekeeping();

    const sessions = await t.db.selectFrom('admin_sessions').select('token_hash').orderBy('token_hash').execute();
    expect(sessions.map((row) => row.token_hash)).toEqual(['live']);
    const limits = await t.db.selectFrom('rate_limits').select('key').execute();
    expect(limits.map((row) => row.key)).toEqual(['login:recent']);
    const outbox = await t.db.selectFrom('email_outbox').select('dedupe_key').orderBy('dedupe_key').execute();
    expect(outbox.map((row) => row.dedupe_key)).toEqual(['failed-long-ago', 'queued', 'sent-29-days-ago']);

    // A day later by the site's clock, the mail sent 29 days ago is 30 days old: still kept.
    t.clock.set(new Date(t.clock.now().getTime() + 24 * 3_600_000 - 60_000));
    await t.app.jobs.housekeeping();
    expect(await t.db.selectFrom('email_outbox').select('dedupe_key').execute()).toHaveLength(3);
    t.clock.set(new Date(t.clock.now().getTime() + 2 * 24 * 3_600_000));
    await t.app.jobs.housekeeping();
    expect(await t.db.selectFrom('email_outbox').select('dedupe_key').execute()).toHaveLength(2);
  });

  it('purges redeemed proofs of work once their challenges have expired, and keeps the others', async () => {
    const minutesAgo = (minutes: number) => new Date(t.clock.now().getTime() - minutes * 60_000).toISOString();
    await t.db
      .insertInto('proof_of_work_redeemed')
      .values([
        { challenge_signature: 'expired', expires_at: minutesAgo(1) },
        { challenge_signature: 'good for a minute more', expires_at: minutesAgo(-1) },
      ])
      .execute();
    await t.app.jobs.housekeeping();
    const kept = await t.db.selectFrom('proof_of_work_redeemed').select('challenge_signature').execute();
    expect(kept).toEqual([{ challenge_signature: 'good for a minute more' }]);
  });
});
