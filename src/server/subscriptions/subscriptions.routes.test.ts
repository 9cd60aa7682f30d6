import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seedPoll } from '../testing/fixtures.js';
import { snapshotDatabase } from '../testing/snapshot.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { testDatabaseKinds } from '../testing/test-database.js';
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
    const response = await new Visitor(t.app).post('/api/subscribe', { email: '  Jo.Teacher@Example.ORG ', pollId: poll.id });

    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      message: "Subscribed! You'll receive poll results and notifications about new polls.",
    });
    expect(response.body).not.toContain('jo.teacher');
    const [row] = await subscribers();
    expect(row).toMatchObject({ email: 'jo.teacher@example.org', source_poll_id: poll.id, unsubscribed_at: null });
  });

  it('records the consent label word for word, naming the parent brand when one is set', async () => {
    await new Visitor(t.app).post('/api/subscribe', { email: 'plain@example.org' });
    const branded = await createTestApp(kind, { env: { BRAND_NAME: 'Acme Learning' } });
    try {
      await new Visitor(branded.app).post('/api/subscribe', { email: 'brand@example.org' });
      const [row] = await branded.db.selectFrom('subscribers').select('consent_text').execute();
      expect(row?.consent_text).toBe('I agree to receive emails from Teacher Hot Take, Acme Learning and its affiliates.');
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

  it('takes concurrent subscriptions of one address as one', async () => {
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => new Visitor(t.app).post('/api/subscribe', { email: 'race@example.org' })),
    );
    expect(responses.every((r) => r.statusCode === 200)).toBe(true);
    expect(await subscribers()).toHaveLength(1);
  });

  it('subscribes again someone who had unsubscribed', async () => {
    await new Visitor(t.app).post('/api/subscribe', { email: 'back@example.org' });
    await t.db.updateTable('subscribers').set({ unsubscribed_at: new Date().toISOString() }).execute();
    await new Visitor(t.app).post('/api/subscribe', { email: 'back@example.org' });
    const [row] = await subscribers();
    expect(row?.unsubscribed_at).toBeNull();
  });

  it('refuses a missing or malformed address and an unknown poll, changing nothing', async () => {
    const poll = await seedPoll(t.db);
    const before = await snapshotDatabase(t.db);
    const cases: [unknown, number, string][] = [
      [{ pollId: poll.id }, 400, 'The email address must be text.'],
      [{ email: '', pollId: poll.id }, 400, 'Please enter your email address.'],
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
