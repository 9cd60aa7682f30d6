/** Housekeeping forgets what is no longer needed, by the site's clock: ended staff sessions, old limit counts, mail sent over 30 days ago, expired proofs of work, old bucket keys and vote signals. */
import { CompiledQuery } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seedPoll } from '../testing/fixtures.js';
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
    const owner = await t.db.selectFrom('staff').select('id').executeTakeFirstOrThrow();
    const session = (token_hash: string, created: number, seen: number, expires: number) => ({
      token_hash,
      staff_id: owner.id,
      browser: 'Firefox on Linux',
      created_at: daysAgo(created),
      signed_in_at: daysAgo(created),
      last_seen_at: daysAgo(seen),
      expires_at: daysAgo(expires),
    });
    await t.db
      .insertInto('admin_sessions')
      .values([session('ended', 2, 2, 1), session('idle', 0.5, 0.4, -0.1), session('live', 0.01, 0.01, -0.4)])
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

  it("deletes bucket keys after 14 days; after 30, empties votes' signals and deletes held and discounted votes, once per poll", async () => {
    await t.db
      .insertInto('integrity_keys')
      .values([
        { day: '2026-11-06', key: 'fifteen days old' },
        { day: '2026-11-07', key: 'fourteen days old' },
        { day: '2026-11-21', key: 'today' },
      ])
      .execute();
    const old = await seedPoll(t.db, { status: 'past', liveDate: '2026-10-21' });
    const recent = await seedPoll(t.db, { status: 'past', liveDate: '2026-10-23' });
    const vote = (pollId: number, voterId: string, status: 'counted' | 'held', on: string) => ({
      poll_id: pollId,
      voter_id: voterId,
      option_index: 0,
      voted_on: on,
      created_at: `${on}T15:00:00.000Z`,
      status,
      bucket: '0123456789abcdef',
      page_ms: 9_000,
      cookie_age_s: 60,
    });
    await t.db
      .insertInto('votes')
      .values([
        vote(old.id, 'a', 'counted', '2026-10-21'),
        vote(old.id, 'b', 'held', '2026-10-21'),
        vote(recent.id, 'c', 'counted', '2026-10-23'),
        vote(recent.id, 'd', 'held', '2026-10-23'),
      ])
      .execute();
    await t.db
      .insertInto('integrity_buckets')
      .values({
        poll_id: old.id,
        bucket: '0123456789abcdef',
        state: 'challenge',
        first_flagged_at: '2026-10-21T15:00:00.000Z',
        updated_at: '2026-10-21T15:00:00.000Z',
      })
      .execute();
    await t.app.jobs.housekeeping();
    const keys = await t.db.selectFrom('integrity_keys').select('day').orderBy('day').execute();
    expect(keys.map((key) => key.day)).toEqual(['2026-11-07', '2026-11-21']);
    const votes = await t.db
      .selectFrom('votes')
      .select(['voter_id', 'status', 'bucket', 'page_ms', 'cookie_age_s'])
      .where('poll_id', 'in', [old.id, recent.id])
      .orderBy('voter_id')
      .execute();
    expect(votes).toEqual([
      { voter_id: 'a', status: 'counted', bucket: null, page_ms: null, cookie_age_s: null },
      { voter_id: 'c', status: 'counted', bucket: '0123456789abcdef', page_ms: 9_000, cookie_age_s: 60 },
      { voter_id: 'd', status: 'held', bucket: '0123456789abcdef', page_ms: 9_000, cookie_age_s: 60 },
    ]);
    expect(await t.db.selectFrom('integrity_buckets').selectAll().execute()).toEqual([]);
    // The old poll is marked, so the next hour's purge does not read it again.
    const marked = await t.db.selectFrom('polls').select(['id', 'integrity_purged']).orderBy('id').execute();
    expect(marked.map((poll) => [poll.id, Boolean(poll.integrity_purged)])).toEqual([
      [old.id, true],
      [recent.id, false],
    ]);
  });
});

describe('retention query plan (sqlite)', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp('sqlite', { now: newYorkTime('2026-11-21', '10:00') });
  });
  afterEach(() => t.close());

  it('finds the polls to purge through an index, not a scan of every old poll', async () => {
    const { oldUnpurgedPollsQuery } = await import('../integrity/integrity.repository.js');
    const compiled = oldUnpurgedPollsQuery(t.db, '2026-10-22', 50).compile();
    const { rows } = await t.db.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]),
    );
    const plan = rows.map((row) => row.detail).join('\n');
    expect(plan).toContain('USING INDEX polls_integrity_unpurged');
    expect(plan).not.toMatch(/SCAN polls(?! USING)/);
  });
});
