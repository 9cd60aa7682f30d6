/**
 * The standard rate-limit headers: every kind of limit answers RateLimit and RateLimit-Policy on
 * the calls it counts, and Retry-After on its 429; what they say is rounded so that it never shows
 * what someone else on the same network did.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { seedPoll } from '../testing/fixtures.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { Visitor } from '../testing/visitor.js';
import { limitHeaderValues, remainingSaid, resetSaid, type Counted } from './limit-headers.js';

describe('what the headers say', () => {
  const count = (over: Partial<Counted>): Counted => ({
    name: 'writes',
    max: 600,
    windowMs: 60_000,
    hits: 1,
    resetMs: 60_000,
    ...over,
  });

  it('rounds what is left down to a tenth of the quota, and the reset up to a tenth of the window', () => {
    expect(remainingSaid(count({ hits: 1 }))).toBe(540);
    expect(remainingSaid(count({ hits: 60 }))).toBe(540);
    expect(remainingSaid(count({ hits: 61 }))).toBe(480);
    expect(remainingSaid(count({ hits: 599 }))).toBe(0);
    expect(remainingSaid(count({ hits: 700 }))).toBe(0);
    expect(remainingSaid(count({ max: 5, hits: 2 }))).toBe(3);
    expect(resetSaid(count({ resetMs: 1 }))).toBe(6);
    expect(resetSaid(count({ resetMs: 59_000 }))).toBe(60);
    expect(resetSaid(count({ windowMs: 3_600_000, resetMs: 1_000_000 }))).toBe(1080);
  });

  it('names every limit that counted in the policy, and the one nearest to refusing in RateLimit', () => {
    expect(limitHeaderValues([])).toBeNull();
    expect(
      limitHeaderValues([
        count({ hits: 3 }),
        count({ name: 'subscribe', max: 30, windowMs: 3_600_000, hits: 12, resetMs: 3_000_000 }),
      ]),
    ).toEqual({
      RateLimit: '"subscribe";r=18;t=3240',
      'RateLimit-Policy': '"writes";q=600;w=60, "subscribe";q=30;w=3600',
    });
  });
});

const ADDRESS = '203.0.113.40';
const PUBLIC_KEY = `B${'A'.repeat(86)}`;

interface Case {
  /** The policy's name in the headers. */
  name: string;
  env: Record<string, string>;
  max: number;
  window: number;
  ok: number;
  send: (t: TestApp, n: number) => Promise<LightMyRequestResponse>;
}

const from = (t: TestApp) => new Visitor(t.app, { origin: t.config.site.publicUrl });
const post = (t: TestApp, url: string, payload: object) =>
  from(t).request({ method: 'POST', url, remoteAddress: ADDRESS, payload });
const suggest = (t: TestApp, n: number) =>
  post(t, '/api/poll-suggestions', { question: `Q ${n}?`, options: ['A', 'B'] });

const cases: Case[] = [
  { name: 'writes', env: { RATE_LIMIT_WRITES_PER_MINUTE: '4' }, max: 4, window: 60, ok: 201, send: suggest },
  {
    name: 'subscribe',
    env: { SUBSCRIBE_LIMIT_PER_HOUR: '4' },
    max: 4,
    window: 3600,
    ok: 200,
    send: (t, n) => post(t, '/api/subscribe', { email: `t${n}@example.org` }),
  },
  { name: 'suggest', env: { SUGGEST_LIMIT_PER_HOUR: '4' }, max: 4, window: 3600, ok: 201, send: suggest },
  {
    name: 'push-subscribe',
    env: { PUSH_SUBSCRIBE_LIMIT_PER_HOUR: '4', PUSH_SERVICE_HOSTS: 'push.example' },
    max: 4,
    window: 3600,
    ok: 201,
    send: (t, n) =>
      post(t, '/api/reminders', {
        timeZone: 'UTC',
        subscription: { endpoint: `https://push.example/p/${n}`, keys: { p256dh: PUBLIC_KEY, auth: 'A'.repeat(22) } },
      }),
  },
  {
    name: 'attach-from',
    env: { SUBSCRIBE_LIMIT_PER_HOUR: '4' },
    max: 4,
    window: 3600,
    ok: 200,
    send: async (t, n) => {
      const poll = (await t.db.selectFrom('polls').select('id').executeTakeFirst()) ?? (await seedPoll(t.db));
      const browser = from(t);
      const url = `/api/polls/${poll.id}`;
      const voted = await browser.request({
        method: 'POST',
        url: `${url}/vote`,
        remoteAddress: ADDRESS,
        payload: { optionIndex: 0, voterEmail: '' },
      });
      expect(voted.statusCode).toBe(201);
      return browser.request({
        method: 'POST',
        url: `${url}/update-vote`,
        remoteAddress: ADDRESS,
        payload: { email: `t${n}@example.org` },
      });
    },
  },
  {
    name: 'sign-in',
    env: { ADMIN_LOGIN_ATTEMPTS: '4' },
    max: 4,
    window: 900,
    ok: 401,
    send: (t, n) => post(t, '/api/admin/login', { email: `guess${n}@school.example`, password: 'a wrong guess' }),
  },
];

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('the rate-limit headers of each limit', () => {
  it.each(cases)('$name: RateLimit and RateLimit-Policy on each call, Retry-After on the 429', async (c) => {
    t = await createTestApp('sqlite', { env: c.env });
    for (let n = 1; n <= c.max; n += 1) {
      const answer = await c.send(t, n);
      expect(answer.statusCode, answer.body).toBe(c.ok);
      expect(answer.headers.ratelimit).toBe(`"${c.name}";r=${c.max - n};t=${c.window}`);
      expect(String(answer.headers['ratelimit-policy']).split(', ')).toContain(`"${c.name}";q=${c.max};w=${c.window}`);
      // No address, no keyed hash, none of the plugin's own headers.
      expect(JSON.stringify(answer.headers)).not.toMatch(/203\.0\.113|[0-9a-f]{64}|x-ratelimit|ratelimit-remaining/);
    }
    const refused = await c.send(t, c.max + 1);
    expect(refused.statusCode).toBe(429);
    expect(refused.json<{ code: string }>().code).toBe('rate-limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(c.window);
    expect(refused.headers.ratelimit).toBe(`"${c.name}";r=0;t=${c.window}`);
  });

  it('staff-door: every way in is counted, 30 a network in 15 minutes', async () => {
    t = await createTestApp('sqlite');
    const app = t;
    const lookup = () => post(app, '/api/admin/invites/lookup', { token: 'x'.repeat(43) });
    const first = await lookup();
    expect(first.statusCode).toBe(404);
    expect(first.headers.ratelimit).toBe('"staff-door";r=27;t=900');
    expect(first.headers['ratelimit-policy']).toBe('"staff-door";q=30;w=900');
    for (let n = 2; n <= 30; n += 1) expect((await lookup()).statusCode).toBe(404);
    const refused = await lookup();
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers.ratelimit).toBe('"staff-door";r=0;t=900');
  });

  it('says nothing on a call no limit counts', async () => {
    t = await createTestApp('sqlite');
    const answer = await from(t).get('/api/polls');
    expect(answer.headers.ratelimit).toBeUndefined();
    expect(answer.headers['ratelimit-policy']).toBeUndefined();
  });
});
