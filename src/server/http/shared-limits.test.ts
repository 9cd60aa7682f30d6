/**
 * The per-address write limit: counted per instance without REDIS_URL, and per instance again
 * when Redis cannot be reached. Counting in a real Redis is in shared-limits.redis.test.ts.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { seedPoll } from '../testing/fixtures.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { Visitor } from '../testing/visitor.js';

const LIMIT = '5';

describe('the write limit without Redis', () => {
  const apps: TestApp[] = [];
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
  });

  async function instance(env: Record<string, string>) {
    const t = await createTestApp('sqlite', { env: { RATE_LIMIT_WRITES_PER_MINUTE: LIMIT, ...env } });
    apps.push(t);
    return t;
  }

  /** A write from one address (a vote on no poll: refused, but counted like any write). */
  const write = (t: TestApp) => new Visitor(t.app).post('/api/polls/999/vote', { optionIndex: 0, voterEmail: '' });

  it('is counted by each instance on its own without REDIS_URL', async () => {
    const [a, b] = [await instance({}), await instance({})];
    const statuses = [];
    for (let i = 0; i < 10; i += 1) statuses.push((await write(i % 2 ? b : a)).statusCode);
    expect(statuses).toEqual(Array(10).fill(404));
    expect((await write(a)).statusCode).toBe(429);
  });

  it('lets exactly the limit through when a burst from one address arrives at once', async () => {
    const t = await instance({ RATE_LIMIT_WRITES_PER_MINUTE: '50' });
    const statuses = (await Promise.all(Array.from({ length: 80 }, () => write(t)))).map((r) => r.statusCode);
    expect(statuses.filter((status) => status === 404)).toHaveLength(50);
    expect(statuses.filter((status) => status === 429)).toHaveLength(30);
  });

  it('is counted by each instance on its own when Redis cannot be reached, and says so in /readyz', async () => {
    // Nothing listens on port 1.
    const t = await instance({ REDIS_URL: 'redis://127.0.0.1:1', REDIS_KEY_PREFIX: 'unreachable:' });
    const poll = await seedPoll(t.db, { options: ['Yes', 'No'] });
    await vi.waitFor(async () =>
      expect((await new Visitor(t.app).get('/readyz')).json().warnings).toEqual([
        expect.stringMatching(/Redis is unreachable/),
      ]),
    );
    const ready = await new Visitor(t.app).get('/readyz');
    expect(ready.statusCode).toBe(200);
    const votes = [];
    for (let i = 0; i < 6; i += 1) votes.push((await new Visitor(t.app).vote(poll.id, 1)).statusCode);
    expect(votes).toEqual([201, 201, 201, 201, 201, 429]);
  });
});
