/**
 * The per-address write limit counted in a real Redis (REDIS_URL), each test with a
 * redis-server of its own: shared by the instances while Redis answers, and per instance,
 * without a write waiting, while it is stopped.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RedisTestServer } from '../testing/redis-test-server.js';
import { createTestAppOn, type TestApp } from '../testing/test-app.js';
import { createTestDatabase, type TestDatabase } from '../testing/test-database.js';
import { Visitor } from '../testing/visitor.js';

const LIMIT = '5';

describe('the write limit across instances, in Redis', () => {
  let redis: RedisTestServer;
  // The instances share a database, as they do in production: the day's address key with it.
  let database: TestDatabase;
  const apps: TestApp[] = [];
  beforeEach(async () => {
    redis = await RedisTestServer.start();
    database = await createTestDatabase('sqlite');
  });
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
    await database.drop();
    await redis.stop();
  });

  async function instance(logLines?: string[]) {
    const t = await createTestAppOn(database, {
      keepDatabase: true,
      env: { RATE_LIMIT_WRITES_PER_MINUTE: LIMIT, REDIS_URL: redis.url },
      ...(logLines ? { logStream: { write: (line: string) => void logLines.push(line) } } : {}),
    });
    apps.push(t);
    return t;
  }

  /** A write (a vote on no poll: refused, but counted like any write) from one address. */
  const write = (t: TestApp, address: string) =>
    new Visitor(t.app).request({
      method: 'POST',
      url: '/api/polls/999/vote',
      payload: { optionIndex: 0, voterEmail: '' },
      remoteAddress: address,
    });

  const warnings = async (t: TestApp) =>
    (await new Visitor(t.app).get('/readyz')).json<{ warnings: string[] }>().warnings;
  const untilWarnings = (t: TestApp, expected: unknown) =>
    vi.waitFor(async () => expect(await warnings(t)).toEqual(expected), { timeout: 15_000, interval: 50 });

  /** `count` writes from `address`, spread over the instances in turn. */
  async function statusesOf(address: string, count: number, instances: TestApp[]) {
    const statuses = [];
    for (let i = 0; i < count; i += 1)
      statuses.push((await write(instances[i % instances.length]!, address)).statusCode);
    return statuses;
  }

  it('is shared by two instances', async () => {
    const [a, b] = [await instance(), await instance()];
    for (const t of [a, b]) await untilWarnings(t, []);
    expect(await statusesOf('203.0.113.1', 6, [a, b])).toEqual([404, 404, 404, 404, 404, 429]);
    expect((await write(b, '203.0.113.1')).json()).toMatchObject({ code: 'rate-limited' });
  });

  it('is counted by each instance while Redis is stopped, writes never waiting for it, and shared again once it is back', async () => {
    const log: string[] = [];
    const [a, b] = [await instance(log), await instance()];
    for (const t of [a, b]) await untilWarnings(t, []);

    // A stopped Redis keeps its connections open and answers nothing. Every write is still
    // answered (before the fix the first one waited for as long as Redis was stopped), and
    // each instance counts on its own: 5 from one address on each.
    redis.pause();
    expect(await statusesOf('198.51.100.7', 6, [a])).toEqual([404, 404, 404, 404, 404, 429]);
    expect(await statusesOf('198.51.100.7', 6, [b])).toEqual([404, 404, 404, 404, 404, 429]);
    const unreachable = [expect.stringMatching(/^Redis is unreachable: each instance counts the write limit/)];
    for (const t of [a, b]) await untilWarnings(t, unreachable);
    expect((await new Visitor(a.app).get('/readyz')).statusCode).toBe(200);

    redis.resume();
    for (const t of [a, b]) await untilWarnings(t, []);
    // Shared again: 5 in all from a new address, whichever instance counts them.
    expect(await statusesOf('198.51.100.8', 6, [a, b])).toEqual([404, 404, 404, 404, 404, 429]);

    const messages = log.map((line) => (JSON.parse(line) as { msg: string }).msg);
    expect(messages.filter((message) => message.startsWith('Redis is unreachable'))).toHaveLength(1);
    expect(messages.filter((message) => message.startsWith('Redis is reachable again'))).toHaveLength(1);
  });
});
