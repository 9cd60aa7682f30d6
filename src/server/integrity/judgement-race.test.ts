/**
 * Issue 37 item 8: two instances judging one network at once never downgrade a challenge (the
 * write is conditional), and a judgement that fails is logged at error level and counted.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Db } from '../db/connection.js';
import { seedPoll } from '../testing/fixtures.js';
import { insertReviewVotes } from '../testing/review-fixtures.js';
import { createTestApp } from '../testing/test-app.js';
import { newYorkTime, TestClock, testSite } from '../testing/test-clock.js';
import { openTestDatabase, testDatabaseKinds } from '../testing/test-database.js';
import { findBucket } from './integrity.repository.js';
import { createIntegrity } from './integrity.service.js';

const NOW = newYorkTime('2026-11-21', '10:30').getTime();
const BUCKET = '0123456789abcdef';
const iso = (ms: number) => new Date(ms).toISOString();

/** A judgement is due at `NOW` after a first observation 20 s before (integrity.service.ts). */
async function judgeAt(integrity: ReturnType<typeof createIntegrity>, pollId: number) {
  await integrity.observe(pollId, BUCKET, NOW - 20_000);
  await integrity.observe(pollId, BUCKET, NOW);
}

describe.each(testDatabaseKinds())('judging one network on two instances (%s)', (kind) => {
  let db: Db;
  let close: () => Promise<void>;
  afterEach(() => close());

  /** A poll, and a busy network on it, nothing odd: 40 votes in 8 minutes, split, read from pages. Watch. */
  async function busyNetwork() {
    ({ db, close } = await openTestDatabase(kind));
    const poll = await seedPoll(db, { options: ['Yes', 'No'], votes: [150, 150] }, new Date(NOW - 3_600_000));
    await insertReviewVotes(
      db,
      Array.from({ length: 40 }, (_, i) => ({
        pollId: poll.id,
        optionIndex: i % 2,
        createdAt: iso(NOW - 8 * 60_000 + i * 11_000),
        bucket: BUCKET,
      })),
    );
    return poll;
  }

  it('never lets a stale "watch" overwrite a fresh challenge (one instance paused between read and write)', async () => {
    const poll = await busyNetwork();
    let reached!: () => void;
    const paused = new Promise<void>((resolve) => (reached = resolve));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const site = testSite();
    const stale = createIntegrity({
      db,
      clock: new TestClock(new Date(NOW)),
      site,
      beforeSave: async () => {
        reached();
        await gate;
      },
    });
    const fresh = createIntegrity({ db, clock: new TestClock(new Date(NOW)), site });
    // The first instance reads the network as "watch", then stops before writing.
    const staleJudgement = judgeAt(stale, poll.id);
    await paused;
    // Meanwhile a burst from the network: 95 votes in the last minute, no page, one option.
    await insertReviewVotes(
      db,
      Array.from({ length: 95 }, (_, i) => ({
        pollId: poll.id,
        optionIndex: 1,
        createdAt: iso(NOW - 59_000 + i * 600),
        bucket: BUCKET,
        pageMs: null,
        cookieAgeS: null,
      })),
    );
    await judgeAt(fresh, poll.id);
    const challenged = await findBucket(db, poll.id, BUCKET);
    expect(challenged?.state).toBe('challenge');
    release();
    await staleJudgement;
    const after = await findBucket(db, poll.id, BUCKET);
    expect(after).toEqual(challenged);
    const { reasons } = await db
      .selectFrom('integrity_buckets')
      .select('reasons')
      .where('bucket', '=', BUCKET)
      .executeTakeFirstOrThrow();
    expect(reasons.split(',')).toContain('burst');
  });

  it('logs a failed judgement at error level and counts it', async () => {
    const poll = await busyNetwork();
    const logged: { level: string; message: string }[] = [];
    let failures = 0;
    const integrity = createIntegrity({
      db,
      clock: new TestClock(new Date(NOW)),
      site: testSite(),
      log: { error: (_context: unknown, message?: string) => logged.push({ level: 'error', message: message ?? '' }) },
      onJudgementFailed: () => (failures += 1),
      beforeSave: () => Promise.reject(new Error('connection lost')),
    });
    await expect(judgeAt(integrity, poll.id)).rejects.toThrow('connection lost');
    expect(failures).toBe(1);
    expect(logged).toEqual([{ level: 'error', message: expect.stringMatching(/Judging a network on a poll failed/) }]);
  });
});

describe('failed judgements in /metrics', () => {
  it('are a counter of their own', async () => {
    const token = 'a-long-enough-metrics-token-for-the-test';
    const t = await createTestApp('sqlite', { env: { METRICS_TOKEN: token } });
    try {
      const response = await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${token}` } });
      expect(response.body).toMatch(/^hot_take_integrity_judgements_failed_total 0$/m);
    } finally {
      await t.close();
    }
  });
});
