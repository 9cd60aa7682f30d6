/**
 * Push reminders end to end on a real database: a browser turns its reminder on through the
 * API, the scheduler runs on the test clock, and each message crosses the wire to a fake push
 * service (https, a certificate made for the test) that checks the VAPID signature and
 * decrypts the message with keys the test generated.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { instantAt, parseTimeOfDay } from '../../shared/time.js';
import { insertVoteRow, seedPoll } from '../testing/fixtures.js';
import { FakePushService, type TestSubscription } from '../testing/fake-push-service.js';
import { createTestApp, createTestAppOn, type TestApp, type TestAppOptions } from '../testing/test-app.js';
import { createTestDatabase, testDatabaseKinds, type DatabaseKind } from '../testing/test-database.js';
import { Visitor } from '../testing/visitor.js';
import { endpointHash } from './endpoints.js';

/** The instant a wall clock in `zone` shows `time` on `date`. */
const at = (zone: string, date: string, time: string) => instantAt(date, parseTimeOfDay(time)!, zone);

let push: FakePushService;
beforeAll(async () => {
  push = new FakePushService();
  await push.start();
});
afterAll(() => push.stop());

describe.each(testDatabaseKinds())('push reminders (%s)', (kind: DatabaseKind) => {
  let t: TestApp;
  let lines: string[];
  const options = (): TestAppOptions => ({
    env: { PUSH_SERVICE_HOSTS: push.host, PUSH_SUBSCRIBE_LIMIT_PER_HOUR: '5', LOG_LEVEL: 'info' },
    pushAgent: push.agent(),
    logStream: { write: (line: string) => void lines.push(line) },
  });

  beforeEach(async () => {
    lines = [];
    push.received.length = 0;
    push.scripts.clear();
    t = await createTestApp(kind, options());
    push.expectedKey = (await new Visitor(t.app).get('/api/reminders')).json<{
      applicationServerKey: string;
    }>().applicationServerKey;
  });
  afterEach(() => t.close());

  /** A browser that voted on nothing yet and turned its reminder on with `settings`. */
  async function browserWithReminder(
    settings: Record<string, unknown>,
  ): Promise<{ visitor: Visitor; subscription: TestSubscription }> {
    const visitor = new Visitor(t.app);
    const subscription = push.subscribe();
    const response = await visitor.post('/api/reminders', { subscription: subscription.json, ...settings });
    expect(response.statusCode, response.body).toBe(201);
    return { visitor, subscription };
  }

  const run = () => t.app.jobs.sendReminders();

  describe('the API', () => {
    it('turns a reminder on with the defaults, reads it back, changes it and turns it off', async () => {
      const visitor = new Visitor(t.app);
      const subscription = push.subscribe();
      const created = await visitor.post('/api/reminders', {
        subscription: subscription.json,
        timeZone: 'Europe/London',
      });
      expect(created.statusCode).toBe(201);
      expect(created.json()).toEqual({
        reminder: { timeOfDay: '15:30', timeZone: 'Europe/London', days: [1, 2, 3, 4, 5], pausedUntil: null },
      });
      expect((await visitor.get('/api/reminders')).json()).toMatchObject({
        applicationServerKey: push.expectedKey,
        reminder: { timeOfDay: '15:30', timeZone: 'Europe/London' },
      });
      const changed = await visitor.put('/api/reminders', {
        timeOfDay: '07:45',
        timeZone: 'America/Chicago',
        days: [6, 1, 1],
        pausedUntil: '2026-12-01',
      });
      expect(changed.json()).toEqual({
        reminder: { timeOfDay: '07:45', timeZone: 'America/Chicago', days: [1, 6], pausedUntil: '2026-12-01' },
      });
      expect((await visitor.delete('/api/reminders')).statusCode).toBe(204);
      expect((await visitor.get('/api/reminders')).json()).toMatchObject({ reminder: null });
      expect(await t.db.selectFrom('push_subscriptions').selectAll().execute()).toEqual([]);
      // Another browser cannot change what it does not have.
      expect((await new Visitor(t.app).put('/api/reminders', { timeZone: 'UTC' })).statusCode).toBe(404);
    });

    it.each([
      ['http://localhost/push/x', 'https'],
      ['https://push.example.org/push/x', 'push service'],
      ['https://evil.localhost.example/push/x', 'push service'],
      ['https://user:pw@localhost/push/x', 'push service'],
      ['not a url', 'https'],
    ])('refuses the endpoint %s with 400 and stores nothing', async (endpoint, words) => {
      const subscription = push.subscribe();
      const response = await new Visitor(t.app).post('/api/reminders', {
        subscription: { ...subscription.json, endpoint },
        timeZone: 'UTC',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toContain(words);
      expect(await t.db.selectFrom('push_subscriptions').selectAll().execute()).toEqual([]);
    });

    it.each([
      [{ timeZone: 'Mars/Olympus' }, 'time zone'],
      [{ timeZone: 'UTC', timeOfDay: '24:00' }, 'time'],
      [{ timeZone: 'UTC', days: [] }, 'at least one day'],
      [{ timeZone: 'UTC', days: [0] }, ''],
      [{ timeZone: 'UTC', pausedUntil: '2026-02-30' }, 'real date'],
      [
        { timeZone: 'UTC', subscription: { endpoint: 'https://localhost/x', keys: { p256dh: 'short', auth: 'x' } } },
        'key',
      ],
    ])('refuses bad settings %j with 400', async (body, words) => {
      const subscription = push.subscribe();
      const response = await new Visitor(t.app).post('/api/reminders', { subscription: subscription.json, ...body });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toContain(words);
    });

    it('keeps at most three subscriptions per browser, and limits new ones per address (PUSH_SUBSCRIBE_LIMIT_PER_HOUR)', async () => {
      const visitor = new Visitor(t.app);
      for (let i = 0; i < 5; i++) {
        t.clock.advance(1000);
        const response = await visitor.post('/api/reminders', { subscription: push.subscribe().json, timeZone: 'UTC' });
        expect(response.statusCode).toBe(201);
      }
      expect(await t.db.selectFrom('push_subscriptions').selectAll().execute()).toHaveLength(3);
      const refused = await new Visitor(t.app).post('/api/reminders', {
        subscription: push.subscribe().json,
        timeZone: 'UTC',
      });
      expect(refused.statusCode).toBe(429);
      expect(refused.json().code).toBe('rate-limited');
    });

    it("turns reminders on for 300 browsers behind one school address: push has its own limit, not e-mail's 30", async () => {
      const school = await createTestApp(kind, {
        ...options(),
        env: { PUSH_SERVICE_HOSTS: push.host, SUBSCRIBE_LIMIT_PER_HOUR: '30' },
      });
      try {
        const statuses = new Map<number, number>();
        for (let i = 0; i < 300; i++) {
          const response = await new Visitor(school.app).request({
            method: 'POST',
            url: '/api/reminders',
            remoteAddress: '198.51.100.20',
            payload: { subscription: push.subscribe().json, timeZone: 'America/New_York' },
          });
          statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
        }
        expect(Object.fromEntries(statuses)).toEqual({ 201: 300 });
        expect(await school.db.selectFrom('push_subscriptions').selectAll().execute()).toHaveLength(300);
      } finally {
        await school.close();
      }
    });

    it('"Forget this browser" deletes its subscriptions', async () => {
      const { visitor } = await browserWithReminder({ timeZone: 'UTC' });
      await browserWithReminder({ timeZone: 'UTC' });
      expect((await visitor.delete('/api/me')).statusCode).toBe(204);
      expect(await t.db.selectFrom('push_subscriptions').selectAll().execute()).toHaveLength(1);
    });

    it('sends a test notification on request, with the question of the day', async () => {
      await seedPoll(t.db, { question: 'Is marking on paper faster?' });
      const { visitor, subscription } = await browserWithReminder({ timeZone: 'UTC' });
      expect((await visitor.post('/api/reminders/test')).statusCode).toBe(202);
      expect(push.messagesFor(subscription.id)).toMatchObject([
        { vapid: { ok: true }, payload: { body: 'Is marking on paper faster?', tag: 'reminder-test' } },
      ]);
      expect((await new Visitor(t.app).post('/api/reminders/test')).statusCode).toBe(404);
    });
  });

  describe('scheduling on the test clock', () => {
    it('sends a New York teacher one reminder at 15:30 their time, with the question, TTL until close, topic and tag', async () => {
      const poll = await seedPoll(t.db, { question: 'Should phones be banned in class?' });
      const { subscription } = await browserWithReminder({ timeZone: 'America/New_York' });
      t.clock.set(at('America/New_York', '2026-11-23', '15:29'));
      expect(await run()).toMatchObject({ queued: 0, sent: 0 });
      t.clock.set(at('America/New_York', '2026-11-23', '15:30'));
      expect(await run()).toMatchObject({ queued: 1, sent: 1 });
      t.clock.advance(60_000);
      expect(await run()).toMatchObject({ queued: 0, sent: 0 });
      const [message, ...more] = push.messagesFor(subscription.id);
      expect(more).toEqual([]);
      expect(message).toMatchObject({
        vapid: { ok: true, subject: 'mailto:no-reply@localhost' },
        topic: 'reminder-2026-11-23',
        ttl: 4.5 * 3600,
        status: 201,
      });
      // The site name, today's question and today's page: nothing else.
      expect(message?.payload).toEqual({
        title: 'Teacher Hot Take',
        body: 'Should phones be banned in class?',
        url: 'http://localhost:3000/',
        tag: 'reminder-2026-11-23',
      });
      expect(await t.db.selectFrom('push_reminders').select(['status', 'poll_id']).execute()).toEqual([
        { status: 'sent', poll_id: poll.id },
      ]);
    });

    it('reminds London at 15:30 London time, across the clocks going back (London first, then New York)', async () => {
      await seedPoll(t.db);
      t.clock.set(new Date('2026-10-23T12:00:00Z'));
      const { subscription } = await browserWithReminder({ timeZone: 'Europe/London' });
      // Friday 23 October: both on summer time, London 5 hours ahead.
      t.clock.set(new Date('2026-10-23T14:29:00Z'));
      await run();
      t.clock.set(new Date('2026-10-23T14:30:00Z'));
      expect(await run()).toMatchObject({ sent: 1 });
      // Monday 26 October: London is back on GMT, New York not yet: 15:30 London is 15:30 UTC.
      t.clock.set(new Date('2026-10-26T14:30:00Z'));
      expect(await run()).toMatchObject({ sent: 0 });
      t.clock.set(new Date('2026-10-26T15:30:00Z'));
      expect(await run()).toMatchObject({ sent: 1 });
      // Monday 2 November: New York has gone back too.
      t.clock.set(new Date('2026-11-02T15:30:00Z'));
      expect(await run()).toMatchObject({ sent: 1 });
      expect(push.messagesFor(subscription.id).map((m) => m.topic)).toEqual([
        'reminder-2026-10-23',
        'reminder-2026-10-26',
        'reminder-2026-11-02',
      ]);
    });

    it('reminds Sydney on its own weekdays while New York voting is open, never when it has closed', async () => {
      await seedPoll(t.db);
      // 09:00 in Sydney on Tuesday 24 November is 17:00 on Monday in New York: voting is open.
      const morning = await browserWithReminder({ timeZone: 'Australia/Sydney', timeOfDay: '09:00' });
      // 15:30 in Sydney is 23:30 the evening before in New York: voting has closed.
      const afternoon = await browserWithReminder({ timeZone: 'Australia/Sydney' });
      // Monday 09:00 Sydney is Sunday 17:00 New York: a Monday for the teacher, so it is sent.
      for (let hour = 0; hour < 72; hour++) {
        t.clock.set(new Date(Date.parse('2026-11-22T00:00:00Z') + hour * 3_600_000));
        await run();
      }
      expect(push.messagesFor(morning.subscription.id).map((m) => m.topic)).toEqual([
        'reminder-2026-11-22',
        'reminder-2026-11-23',
        'reminder-2026-11-24',
      ]);
      expect(push.messagesFor(afternoon.subscription.id)).toEqual([]);
    });

    it('sends nothing at weekends, while paused, or to a browser that has voted today', async () => {
      const poll = await seedPoll(t.db);
      const weekdays = await browserWithReminder({ timeZone: 'America/New_York' });
      const paused = await browserWithReminder({ timeZone: 'America/New_York', pausedUntil: '2026-11-25' });
      const voter = await browserWithReminder({ timeZone: 'America/New_York', days: [1, 2, 3, 4, 5, 6, 7] });
      await insertVoteRow(t.db, { pollId: poll.id, voterId: voter.visitor.voterId!, votedOn: '2026-11-21' });
      for (const date of ['2026-11-21', '2026-11-22', '2026-11-23', '2026-11-24', '2026-11-25']) {
        t.clock.set(at('America/New_York', date, '15:30'));
        await run();
      }
      expect(push.messagesFor(weekdays.subscription.id).map((m) => m.topic)).toEqual([
        'reminder-2026-11-23',
        'reminder-2026-11-24',
        'reminder-2026-11-25',
      ]);
      expect(push.messagesFor(paused.subscription.id).map((m) => m.topic)).toEqual(['reminder-2026-11-25']);
      expect(push.messagesFor(voter.subscription.id)).toEqual([]);
    });

    it('sends nothing when no poll is live', async () => {
      const { subscription } = await browserWithReminder({ timeZone: 'America/New_York' });
      t.clock.set(at('America/New_York', '2026-11-23', '15:30'));
      expect(await run()).toMatchObject({ queued: 0 });
      expect(push.messagesFor(subscription.id)).toEqual([]);
    });
  });

  describe('what push services answer', () => {
    beforeEach(async () => {
      await seedPoll(t.db);
    });
    const teaTime = () => t.clock.set(at('America/New_York', '2026-11-23', '15:30'));
    const reminders = () => t.db.selectFrom('push_reminders').select(['status', 'last_status']).execute();
    const subscriptions = () => t.db.selectFrom('push_subscriptions').select('endpoint').execute();

    it.each([404, 410])('%i deletes the subscription', async (status) => {
      const { subscription } = await browserWithReminder({ timeZone: 'America/New_York' });
      push.scripts.set(subscription.id, [{ status }]);
      teaTime();
      expect(await run()).toMatchObject({ gone: 1 });
      expect(await subscriptions()).toEqual([]);
      // Logs hold a hash of the endpoint, never the endpoint.
      const log = lines.join('');
      expect(log).toContain(endpointHash(subscription.json.endpoint));
      expect(log).not.toContain(subscription.id);
    });

    it('429 with Retry-After is tried again after that long, and then sent', async () => {
      const { subscription } = await browserWithReminder({ timeZone: 'America/New_York' });
      push.scripts.set(subscription.id, [{ status: 429, headers: { 'retry-after': '120' } }]);
      teaTime();
      expect(await run()).toMatchObject({ retried: 1, sent: 0 });
      t.clock.advance(119_000);
      expect(await run()).toMatchObject({ retried: 0, sent: 0 });
      t.clock.advance(1_000);
      expect(await run()).toMatchObject({ sent: 1 });
      expect(push.messagesFor(subscription.id).map((m) => m.status)).toEqual([429, 201]);
      expect(await reminders()).toEqual([{ status: 'sent', last_status: 201 }]);
    });

    it.each([500, 503])('%i is tried again after a growing wait', async (status) => {
      const { subscription } = await browserWithReminder({ timeZone: 'America/New_York' });
      push.scripts.set(subscription.id, [{ status }, { status }]);
      teaTime();
      expect(await run()).toMatchObject({ retried: 1 });
      t.clock.advance(30_000);
      expect(await run()).toMatchObject({ retried: 1 });
      t.clock.advance(30_000);
      expect(await run()).toMatchObject({ sent: 0 }); // the second wait is a minute
      t.clock.advance(30_000);
      expect(await run()).toMatchObject({ sent: 1 });
      expect(push.messagesFor(subscription.id)).toHaveLength(3);
    });

    it('a retry finds the teacher has voted meanwhile: nothing is sent', async () => {
      const { visitor, subscription } = await browserWithReminder({ timeZone: 'America/New_York' });
      push.scripts.set(subscription.id, [{ status: 503 }]);
      teaTime();
      expect(await run()).toMatchObject({ retried: 1 });
      const [poll] = await t.db.selectFrom('polls').select('id').execute();
      await insertVoteRow(t.db, { pollId: poll!.id, voterId: visitor.voterId!, votedOn: '2026-11-23' });
      t.clock.advance(30_000);
      expect(await run()).toMatchObject({ skipped: 1, sent: 0 });
      expect(push.messagesFor(subscription.id)).toHaveLength(1);
    });

    it('a retry that would land after voting closes is given up', async () => {
      const { subscription } = await browserWithReminder({ timeZone: 'America/New_York', timeOfDay: '19:59' });
      push.scripts.set(subscription.id, [{ status: 429, headers: { 'retry-after': '3600' } }]);
      t.clock.set(at('America/New_York', '2026-11-23', '19:59'));
      expect(await run()).toMatchObject({ expired: 1 });
      t.clock.advance(3_600_000);
      await run();
      expect(push.messagesFor(subscription.id)).toHaveLength(1);
    });

    it.each([401, 413])('%i keeps the subscription and logs our bug', async (status) => {
      const { subscription } = await browserWithReminder({ timeZone: 'America/New_York' });
      push.scripts.set(subscription.id, [{ status }]);
      teaTime();
      expect(await run()).toMatchObject({ failed: 1 });
      expect(await subscriptions()).toHaveLength(1);
      expect(await reminders()).toEqual([{ status: 'failed', last_status: status }]);
      expect(lines.join('')).toContain('a bug in how we send');
      t.clock.advance(3_600_000);
      await run();
      expect(push.messagesFor(subscription.id)).toHaveLength(1);
    });

    it('a message signed with another key is refused by the push service (401): the site’s key is checked', async () => {
      const { subscription } = await browserWithReminder({ timeZone: 'America/New_York' });
      const siteKey = push.expectedKey;
      push.expectedKey = push.subscribe().json.keys.p256dh; // some other P-256 key
      try {
        teaTime();
        expect(await run()).toMatchObject({ failed: 1 });
        expect(push.messagesFor(subscription.id)).toMatchObject([{ status: 401, vapid: { ok: false } }]);
      } finally {
        push.expectedKey = siteKey;
      }
    });
  });

  it('housekeeping drops browsers not seen nor voting for 60 days, and keeps the others', async () => {
    const poll = await seedPoll(t.db);
    const idle = await browserWithReminder({ timeZone: 'UTC' });
    const voting = await browserWithReminder({ timeZone: 'UTC' });
    const visiting = await browserWithReminder({ timeZone: 'UTC' });
    t.clock.advance(59 * 86_400_000);
    expect((await visiting.visitor.get('/api/reminders')).json()).toMatchObject({ reminder: { timeZone: 'UTC' } });
    await insertVoteRow(t.db, {
      pollId: poll.id,
      voterId: voting.visitor.voterId!,
      createdAt: t.clock.now().toISOString(),
    });
    t.clock.advance(2 * 86_400_000);
    await t.app.jobs.housekeeping();
    const left = await t.db.selectFrom('push_subscriptions').select('endpoint').orderBy('id').execute();
    expect(left.map((row) => row.endpoint)).toEqual([
      voting.subscription.json.endpoint,
      visiting.subscription.json.endpoint,
    ]);
    expect(idle.subscription.json.endpoint).not.toBe(voting.subscription.json.endpoint);
  });

  it('two instances on one database send each reminder once', async () => {
    const database = await createTestDatabase(kind);
    const unlimited = { ...options(), env: { ...options().env, PUSH_SUBSCRIBE_LIMIT_PER_HOUR: '0' } };
    const first = await createTestAppOn(database, { ...unlimited, keepDatabase: true });
    const second = await createTestAppOn(database, unlimited);
    try {
      push.expectedKey = (await new Visitor(first.app).get('/api/reminders')).json<{
        applicationServerKey: string;
      }>().applicationServerKey;
      await seedPoll(first.db);
      const ids: string[] = [];
      for (let i = 0; i < 40; i++) {
        const subscription = push.subscribe();
        ids.push(subscription.id);
        const response = await new Visitor(i % 2 ? first.app : second.app).post('/api/reminders', {
          subscription: subscription.json,
          timeZone: 'America/New_York',
        });
        expect(response.statusCode).toBe(201);
      }
      for (const app of [first, second]) app.clock.set(at('America/New_York', '2026-11-23', '15:30'));
      // PostgreSQL: at once. SQLite has one writer at a time (README), so one after the other.
      const both = [() => first.app.jobs.sendReminders(), () => second.app.jobs.sendReminders()];
      const rounds =
        kind === 'postgres' ? await Promise.all(both.map((send) => send())) : [await both[0]!(), await both[1]!()];
      expect(rounds.reduce((sum, round) => sum + round.queued, 0)).toBe(40);
      expect(rounds.reduce((sum, round) => sum + round.sent, 0)).toBe(40);
      for (const id of ids) expect(push.messagesFor(id)).toHaveLength(1);
    } finally {
      await first.close();
      await second.close();
    }
  });
});
