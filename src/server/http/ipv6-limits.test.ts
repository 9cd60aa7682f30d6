/**
 * Every per-address limit counts an IPv6 client by its /64: a client picks any address of its
 * /64 at will, so counting each address apart would give it 2^64 budgets. Each limit is spent
 * from four addresses of one /64, then a neighbouring /64 (same /48) still has its own.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { seedPoll } from '../testing/fixtures.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { testDatabaseKinds } from '../testing/test-database.js';
import { Visitor } from '../testing/visitor.js';

/** Four addresses of one /64, written as clients' addresses come: full, compressed, odd cases. */
const ONE_NETWORK = [
  '2001:db8:5:1::1',
  '2001:db8:5:1:8a2e:370:7334:1',
  '2001:0db8:0005:0001:ffff::',
  '2001:db8:5:1::9',
];
/** The next /64 of the same /48. */
const NEXT_NETWORK = '2001:db8:5:2::1';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const post = (app: TestApp, url: string, remoteAddress: string, payload: object) =>
  app.app.inject({ method: 'POST', url, remoteAddress, payload });

describe.each(testDatabaseKinds())('per-address limits on IPv6 (%s)', (kind) => {
  it('counts failed sign-ins of one /64 as one client, and another /64 apart', async () => {
    t = await createTestApp(kind, { env: { ADMIN_LOGIN_ATTEMPTS: '3' } });
    const app = t;
    const guess = (address: string) =>
      post(app, '/api/admin/login', address, { email: 'owner@school.example', password: 'a wrong guess' });
    const answers = [];
    for (const address of ONE_NETWORK) answers.push((await guess(address)).statusCode);
    expect(answers).toEqual([401, 401, 401, 429]);
    expect((await guess(NEXT_NETWORK)).statusCode).toBe(401);
  });

  it('counts subscriptions of one /64 as one client, and another /64 apart', async () => {
    t = await createTestApp(kind, { env: { SUBSCRIBE_LIMIT_PER_HOUR: '3' } });
    const app = t;
    const subscribe = (address: string, n: number) =>
      post(app, '/api/subscribe', address, { email: `teacher${n}@example.org` });
    const answers = [];
    for (const [n, address] of ONE_NETWORK.entries()) answers.push((await subscribe(address, n)).statusCode);
    expect(answers).toEqual([200, 200, 200, 429]);
    expect((await subscribe(NEXT_NETWORK, 9)).statusCode).toBe(200);
  });

  it('counts poll suggestions of one /64 as one client, and another /64 apart', async () => {
    t = await createTestApp(kind, { env: { SUGGEST_LIMIT_PER_HOUR: '3' } });
    const app = t;
    const suggest = (address: string, n: number) =>
      post(app, '/api/poll-suggestions', address, { question: `Question ${n}?`, options: ['Yes', 'No'] });
    const answers = [];
    for (const [n, address] of ONE_NETWORK.entries()) answers.push((await suggest(address, n)).statusCode);
    expect(answers).toEqual([201, 201, 201, 429]);
    expect((await suggest(NEXT_NETWORK, 9)).statusCode).toBe(201);
  });

  it('counts e-mail tries of one /64 as one client, each from a new browser, and another /64 apart', async () => {
    t = await createTestApp(kind, { env: { SUBSCRIBE_LIMIT_PER_HOUR: '3' } });
    const poll = await seedPoll(t.db, { options: ['Yes', 'No'] });
    const app = t;
    /** A new browser votes, then attaches an e-mail, both from `address`. */
    const attachFrom = async (address: string, n: number) => {
      const browser = new Visitor(app.app);
      const voted = await browser.request({
        method: 'POST',
        url: `/api/polls/${poll.id}/vote`,
        remoteAddress: address,
        payload: { optionIndex: 0, voterEmail: '' },
      });
      expect(voted.statusCode).toBe(201);
      return browser.request({
        method: 'POST',
        url: `/api/polls/${poll.id}/update-vote`,
        remoteAddress: address,
        payload: { email: `teacher${n}@example.org` },
      });
    };
    const answers = [];
    for (const [n, address] of ONE_NETWORK.entries()) answers.push((await attachFrom(address, n)).statusCode);
    expect(answers).toEqual([200, 200, 200, 429]);
    expect((await attachFrom(NEXT_NETWORK, 9)).statusCode).toBe(200);
  });
});

describe('the write limit on IPv6', () => {
  it('counts the writes of one /64 as one client, and another /64 apart', async () => {
    t = await createTestApp('sqlite', { env: { RATE_LIMIT_WRITES_PER_MINUTE: '3' } });
    const app = t;
    const suggest = (address: string, n: number) =>
      post(app, '/api/poll-suggestions', address, { question: `Question ${n}?`, options: ['Yes', 'No'] });
    const answers = [];
    for (const [n, address] of ONE_NETWORK.entries()) answers.push((await suggest(address, n)).statusCode);
    expect(answers).toEqual([201, 201, 201, 429]);
    expect((await suggest(NEXT_NETWORK, 9)).statusCode).toBe(201);
  });

  it('counts an IPv4 client reaching a dual-stack socket (::ffff:a.b.c.d) as that IPv4 address', async () => {
    t = await createTestApp('sqlite', { env: { RATE_LIMIT_WRITES_PER_MINUTE: '2' } });
    const app = t;
    const suggest = (address: string, n: number) =>
      post(app, '/api/poll-suggestions', address, { question: `Question ${n}?`, options: ['Yes', 'No'] });
    expect((await suggest('203.0.113.7', 1)).statusCode).toBe(201);
    expect((await suggest('::ffff:203.0.113.7', 2)).statusCode).toBe(201);
    expect((await suggest('::ffff:203.0.113.7', 3)).statusCode).toBe(429);
    expect((await suggest('203.0.113.8', 4)).statusCode).toBe(201);
  });
});

/** The first address of the n-th /64 of one /48: a client rotating its /64s inside its /48. */
const ROTATING = (n: number) => `2001:db8:7:${n.toString(16)}::1`;
/** Another /48. */
const OTHER_48 = '2001:db8:8:1::1';
/** A P-256 public key's shape (the limit is counted before anything is sent to it). */
const PUBLIC_KEY = `B${'A'.repeat(86)}`;

/**
 * A /48 is one client too (issue 34, item 7): each limit, at 2 per network, lets a /48 rotating
 * through its /64s 4 times that (WIDE_TIER_FACTOR), then refuses it; another /48 is apart.
 */
/** A poll suggestion from `address`: its answer's status. */
const suggestion = async (app: TestApp, address: string, n: number) =>
  (await post(app, '/api/poll-suggestions', address, { question: `Question ${n}?`, options: ['Yes', 'No'] }))
    .statusCode;

describe.each(testDatabaseKinds())('the /48 tier of every per-address limit (%s)', (kind) => {
  const cases: {
    name: string;
    env: Record<string, string>;
    ok: number;
    send: (app: TestApp, address: string, n: number) => Promise<number>;
  }[] = [
    {
      name: 'password sign-ins',
      env: { ADMIN_LOGIN_ATTEMPTS: '2' },
      ok: 401,
      send: async (app, address, n) =>
        (await post(app, '/api/admin/login', address, { email: `guess${n}@school.example`, password: 'wrong one' }))
          .statusCode,
    },
    {
      name: 'subscriptions',
      env: { SUBSCRIBE_LIMIT_PER_HOUR: '2' },
      ok: 200,
      send: async (app, address, n) =>
        (await post(app, '/api/subscribe', address, { email: `t${n}@example.org` })).statusCode,
    },
    {
      name: 'suggestions',
      env: { SUGGEST_LIMIT_PER_HOUR: '2' },
      ok: 201,
      send: suggestion,
    },
    {
      name: 'writes (the write limit)',
      env: { RATE_LIMIT_WRITES_PER_MINUTE: '2' },
      ok: 201,
      send: suggestion,
    },
    {
      name: 'push reminders',
      env: { PUSH_SUBSCRIBE_LIMIT_PER_HOUR: '2', PUSH_SERVICE_HOSTS: 'push.example' },
      ok: 201,
      send: async (app, address, n) =>
        (
          await post(app, '/api/reminders', address, {
            timeZone: 'UTC',
            subscription: {
              endpoint: `https://push.example/p/${n}`,
              keys: { p256dh: PUBLIC_KEY, auth: 'AAAAAAAAAAAAAAAAAAAAAA' },
            },
          })
        ).statusCode,
    },
    {
      name: "votes' e-mail tries",
      env: { SUBSCRIBE_LIMIT_PER_HOUR: '2' },
      ok: 200,
      send: async (app, address, n) => {
        const poll = (await app.db.selectFrom('polls').select('id').executeTakeFirst()) ?? (await seedPoll(app.db));
        const browser = new Visitor(app.app);
        const url = `/api/polls/${poll.id}`;
        const voted = await browser.request({
          method: 'POST',
          url: `${url}/vote`,
          remoteAddress: address,
          payload: { optionIndex: 0, voterEmail: '' },
        });
        expect(voted.statusCode).toBe(201);
        const attached = await browser.request({
          method: 'POST',
          url: `${url}/update-vote`,
          remoteAddress: address,
          payload: { email: `t${n}@example.org` },
        });
        return attached.statusCode;
      },
    },
  ];

  it.each(cases)('counts $name of a /48 together, at 4 times a network', async ({ env, ok, send }) => {
    t = await createTestApp(kind, { env });
    const app = t;
    const answers = [];
    for (let n = 1; n <= 9; n += 1) answers.push(await send(app, ROTATING(n), n));
    expect(answers).toEqual([...Array<number>(8).fill(ok), 429]);
    expect(await send(app, OTHER_48, 10)).toBe(ok);
  });
});
