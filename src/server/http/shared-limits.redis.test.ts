/**
 * The per-address write limit counted in a real Redis (REDIS_URL), each test with a
 * redis-server of its own.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RedisTestServer } from '../testing/redis-test-server.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { Visitor } from '../testing/visitor.js';

const LIMIT = '5';

describe('the write limit across instances, in Redis', () => {
  let redis: RedisTestServer;
  const apps: TestApp[] = [];
  beforeEach(async () => {
    redis = await RedisTestServer.start();
  });
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
    await redis.stop();
  });

  async function instance(logLines?: string[]) {
    const t = await createTestApp('sqlite', {
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
});
