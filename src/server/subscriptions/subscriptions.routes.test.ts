import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seedPoll } from '../testing/fixtures.js';
import { snapshotDatabase } from '../testing/snapshot.js';
import { createTestApp, createTestAppOn, type TestApp } from '../testing/test-app.js';
import { createTestDatabase, testDatabaseKinds } from '../testing/test-database.js';
import { Visitor } from '../testing/visitor.js';

describe.each(testDatabaseKinds())('POST /api/subscribe (%s)', (kind) => {
  let t: TestApp;

  beforeEach(async () => {
    t = await createTestApp(kind);
  });
  afterEach(() => t.close());

  const subscribers = () => t.db.selectFrom('subscribers').selectAll().orderBy('id').execute();

  it('stores the address once, trimmed and lowercased, with the poll it came from', async () => {
    const poll = await seedPoll(t.db);
    const response = await new Visitor(t.app).post('/api/subscribe', {
      email: '  Jo.Teacher@Example.ORG ',
      pollId: poll.id,
    });

    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      message: 'Check your inbox and confirm your subscription to start receiving poll results.',
    });
    expect(response.body).not.toContain('jo.teacher');
    const [row] = await subscribers();
    expect(row).toMatchObject({
      email: 'jo.teacher@example.org',
      source_poll_id: poll.id,
      unsubscribed_at: null,
      confirmed_at: null,
    });
  });

  it('records the consent label word for word, naming the parent brand when one is set', async () => {
    await new Visitor(t.app).post('/api/subscribe', { email: 'plain@example.org' });
    const branded = await createTestApp(kind, { env: { BRAND_NAME: 'Acme Learning' } });
    try {
      await new Visitor(branded.app).post('/api/subscribe', { email: 'brand@example.org' });
      const [row] = await branded.db.selectFrom('subscribers').select('consent_text').execute();
      expect(row?.consent_text).toBe(
        'I agree to receive emails from Teacher Hot Take, Acme Learning and its affiliates.',
      );
    } finally {
      await branded.close();
    }
    const [plain] = await subscribers();
    expect(plain?.consent_text).toBe('I agree to receive emails from Teacher Hot Take and its affiliates.');
  });

  it('answers the same the second time and keeps one subscription', async () => {
    const poll = await seedPoll(t.db);
    const first = await new Visitor(t.app).post('/api/subscribe', { email: 'jo@example.org', pollId: poll.id });
    const second = await new Visitor(t.app).post('/api/subscribe', { email: 'JO@example.org', pollId: poll.id });
    expect(second.statusCode).toBe(first.statusCode);
    expect(second.body).toBe(first.body);
    expect(await subscribers()).toHaveLength(1);
  });

  it('takes concurrent subscriptions of one address as one, with one confirmation e-mail', async () => {
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => new Visitor(t.app).post('/api/subscribe', { email: 'race@example.org' })),
    );
    expect(responses.every((r) => r.statusCode === 200)).toBe(true);
    expect(await subscribers()).toHaveLength(1);
    const queued = await t.db.selectFrom('email_outbox').select(['kind', 'status']).execute();
    expect(queued).toEqual([{ kind: 'confirm', status: 'queued' }]);
  });

  it('limits subscription requests per client address and hour, storing nothing it refuses', async () => {
    const limited = await createTestApp(kind, { env: { SUBSCRIBE_LIMIT_PER_HOUR: '3' } });
    const subscribeFrom = (remoteAddress: string, email: string) =>
      limited.app.inject({ method: 'POST', url: '/api/subscribe', remoteAddress, payload: { email } });
    try {
      for (const n of [1, 2, 3]) expect((await subscribeFrom('203.0.113.7', `t${n}@example.org`)).statusCode).toBe(200);
      const before = await snapshotDatabase(limited.db);
      const refused = await subscribeFrom('203.0.113.7', 't4@example.org');
      expect(refused.statusCode).toBe(429);
      expect(refused.json().message).toBe(
        'Too many new subscriptions from your network in the last hour. Please try again later.',
      );
      expect(await snapshotDatabase(limited.db)).toEqual(before);

      // Another address was never limited by it, and the hour passes.
      expect((await subscribeFrom('198.51.100.2', 't4@example.org')).statusCode).toBe(200);
      limited.clock.advance(3_600_000);
      expect((await subscribeFrom('203.0.113.7', 't5@example.org')).statusCode).toBe(200);
      const stored = await limited.db.selectFrom('subscribers').select('email').orderBy('id').execute();
      expect(stored.map((row) => row.email)).toEqual([
        't1@example.org',
        't2@example.org',
        't3@example.org',
        't4@example.org',
        't5@example.org',
      ]);
      const rateRows = await limited.db.selectFrom('rate_limits').select('key').execute();
      expect(JSON.stringify(rateRows)).not.toContain('203.0.113.7');
    } finally {
      await limited.close();
    }
  });

  it('refuses a known address exactly as an unknown one once the limit is spent, so the list cannot be probed', async () => {
    const limited = await createTestApp(kind, { env: { SUBSCRIBE_LIMIT_PER_HOUR: '3' } });
    const subscribeFrom = (remoteAddress: string, email: string) =>
      limited.app.inject({ method: 'POST', url: '/api/subscribe', remoteAddress, payload: { email } });
    try {
      // From elsewhere: one pending address, one confirmed subscriber.
      expect((await subscribeFrom('198.51.100.2', 'pending@example.org')).statusCode).toBe(200);
      expect((await subscribeFrom('198.51.100.2', 'member@example.org')).statusCode).toBe(200);
      await limited.db
        .updateTable('subscribers')
        .set({ confirmed_at: limited.clock.now().toISOString() })
        .where('email', '=', 'member@example.org')
        .execute();

      // Asking about addresses already on the list spends the limit as new ones do.
      for (const email of ['member@example.org', 'pending@example.org', 'new@example.org']) {
        expect((await subscribeFrom('203.0.113.7', email)).statusCode).toBe(200);
      }
      const before = await snapshotDatabase(limited.db);
      const answers = [];
      for (const email of ['member@example.org', 'pending@example.org', 'stranger@example.org']) {
        const answer = await subscribeFrom('203.0.113.7', email);
        answers.push({ status: answer.statusCode, body: answer.body });
      }
      expect(answers[0]?.status).toBe(429);
      expect(answers[1]).toEqual(answers[0]);
      expect(answers[2]).toEqual(answers[0]);
      expect(await snapshotDatabase(limited.db)).toEqual(before);
    } finally {
      await limited.close();
    }
  });

  it('refuses a missing or malformed address and an unknown poll, changing nothing', async () => {
    const poll = await seedPoll(t.db);
    const before = await snapshotDatabase(t.db);
    const cases: [unknown, number, string][] = [
      [{ pollId: poll.id }, 400, 'The email address must be text.'],
      [{ email: '', pollId: poll.id }, 400, 'Please enter your email address to subscribe.'],
      [{ email: 'jo@example', pollId: poll.id }, 400, 'Please enter a valid email address.'],
      [{ email: 'jo@example.org', pollId: 'one' }, 400, 'The poll id must be a number.'],
      [{ email: 'jo@example.org', pollId: -4 }, 400, 'The poll id must be a positive number.'],
      [{ email: 'jo@example.org', pollId: poll.id + 9 }, 404, 'Poll not found'],
    ];
    for (const [payload, status, message] of cases) {
      const response = await new Visitor(t.app).post('/api/subscribe', payload as object);
      expect(response.statusCode, JSON.stringify(payload)).toBe(status);
      expect(response.json().message).toBe(message);
    }
    expect(await snapshotDatabase(t.db)).toEqual(before);
  });
});

// Instances share the count through the database. (Two SQLite connections in one process
// cannot stand in for two servers: see email.test.ts.)
if (testDatabaseKinds().includes('postgres')) {
  it('counts new subscriptions per address across two instances on one PostgreSQL database', async () => {
    const database = await createTestDatabase('postgres');
    const env = { SUBSCRIBE_LIMIT_PER_HOUR: '10' };
    const first = await createTestAppOn(database, { env, keepDatabase: true });
    const second = await createTestAppOn(database, { env });
    try {
      const responses = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          (i % 2 === 0 ? first : second).app.inject({
            method: 'POST',
            url: '/api/subscribe',
            remoteAddress: '203.0.113.9',
            payload: { email: `s${i}@example.org` },
          }),
        ),
      );
      expect(responses.filter((r) => r.statusCode === 200)).toHaveLength(10);
      expect(responses.filter((r) => r.statusCode === 429)).toHaveLength(20);
      expect(await first.db.selectFrom('subscribers').select('id').execute()).toHaveLength(10);
      expect(await first.db.selectFrom('email_outbox').select('id').execute()).toHaveLength(10);
    } finally {
      await first.close();
      await second.close();
    }
  });
}
