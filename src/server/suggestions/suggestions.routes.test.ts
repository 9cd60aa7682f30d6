import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { snapshotDatabase } from '../testing/snapshot.js';
import { createTestApp, createTestAppOn, type TestApp } from '../testing/test-app.js';
import { createTestDatabase, testDatabaseKinds } from '../testing/test-database.js';
import { Visitor } from '../testing/visitor.js';
import { HOUR_MS } from '../../shared/time.js';

/** One suggestion sent from `remoteAddress` (a school's public address, say). */
const suggestFrom = (t: TestApp, remoteAddress: string, question = 'Is cursive worth teaching?') =>
  t.app.inject({
    method: 'POST',
    url: '/api/poll-suggestions',
    remoteAddress,
    payload: { question, options: ['Yes', 'No'] },
  });

describe.each(testDatabaseKinds())('POST /api/poll-suggestions (%s)', (kind) => {
  let t: TestApp;

  beforeEach(async () => {
    t = await createTestApp(kind);
  });
  afterEach(() => t.close());

  const suggest = (payload: unknown) =>
    new Visitor(t.app).request({
      method: 'POST',
      url: '/api/poll-suggestions',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(payload),
    });

  it('stores the suggestion for review: trimmed, blank options dropped, optional fields left out', async () => {
    const response = await suggest({
      question: '  Should recess be guaranteed for every elementary student?  ',
      options: [' Yes ', '', 'No', '   ', 'Only in K-2'],
      suggestedBy: '',
      email: '',
    });

    expect(response.statusCode).toBe(201);
    const { id, message } = response.json();
    expect(message).toBe('Suggestion submitted!');
    const row = await t.db.selectFrom('poll_suggestions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      question: 'Should recess be guaranteed for every elementary student?',
      status: 'pending',
      suggested_by: null,
      email: null,
      reviewed_at: null,
    });
    expect(JSON.parse(row.options)).toEqual(['Yes', 'No', 'Only in K-2']);
  });

  it('keeps the optional name and e-mail when given', async () => {
    const response = await suggest({
      question: 'Cursive?',
      options: ['Yes', 'No'],
      suggestedBy: ' Ms. Rivera ',
      email: 'Rivera@Example.org',
    });
    expect(response.statusCode).toBe(201);
    expect(response.body).not.toContain('rivera@');
    const row = await t.db.selectFrom('poll_suggestions').selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ suggested_by: 'Ms. Rivera', email: 'rivera@example.org' });
  });

  it('refuses incomplete, oversized and malformed suggestions with the messages the form shows', async () => {
    const before = await snapshotDatabase(t.db);
    const cases: [unknown, string][] = [
      [{ question: '   ', options: ['A', 'B'] }, 'Please enter a poll question.'],
      [{ options: ['A', 'B'] }, 'The question must be text.'],
      [{ question: 'Q?', options: ['A', '  '] }, 'Please provide at least 2 poll options.'],
      [{ question: 'Q?' }, 'Options must be a list of answers.'],
      [{ question: 'Q?', options: 'A, B' }, 'Options must be a list of answers.'],
      [{ question: 'Q?', options: ['A', 2] }, 'Each option must be text.'],
      [{ question: 'Q?', options: ['1', '2', '3', '4', '5', '6', '7'] }, 'A poll can have at most 6 options.'],
      [{ question: 'Q?', options: ['Yes', ' yes '] }, 'The option "yes" is listed twice.'],
      [{ question: 'Q?', options: ['A', 'x'.repeat(101)] }, 'Each option can be at most 100 characters.'],
      [{ question: 'Q'.repeat(281), options: ['A', 'B'] }, 'A question can be at most 280 characters.'],
      [
        { question: 'Q?', options: ['A', 'B'], suggestedBy: 'n'.repeat(101) },
        'The name can be at most 100 characters.',
      ],
      [{ question: 'Q?', options: ['A', 'B'], email: 'nope' }, 'Please enter a valid email address.'],
      ['just text', 'The request body must be a JSON object.'],
    ];
    for (const [payload, message] of cases) {
      const response = await suggest(payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().message).toBe(message);
    }
    expect(await snapshotDatabase(t.db)).toEqual(before);
  });

  it('accepts the longest allowed question and options', async () => {
    const response = await suggest({
      question: 'Q'.repeat(280),
      options: Array.from({ length: 6 }, (_, i) => `${i}`.repeat(100)),
    });
    expect(response.statusCode).toBe(201);
  });
});

describe.each(testDatabaseKinds())('the limit on new suggestions per address and hour (%s)', (kind) => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('refuses a suggestion over the limit with 429 and its reason, storing nothing; other addresses and the next hour pass', async () => {
    t = await createTestApp(kind, { env: { SUGGEST_LIMIT_PER_HOUR: '3' } });
    for (const n of [1, 2, 3]) expect((await suggestFrom(t, '203.0.113.7', `Q${n}?`)).statusCode).toBe(201);
    const before = await snapshotDatabase(t.db);

    const refused = await suggestFrom(t, '203.0.113.7', 'Q4?');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      message: 'Too many suggestions from your network in the last hour. Please try again later.',
      code: 'rate-limited',
    });
    expect(refused.headers['retry-after']).toBe('3600');
    expect(await snapshotDatabase(t.db)).toEqual(before);

    expect((await suggestFrom(t, '198.51.100.2', 'From another school?')).statusCode).toBe(201);
    t.clock.advance(HOUR_MS);
    expect((await suggestFrom(t, '203.0.113.7', 'Q5?')).statusCode).toBe(201);
    const stored = await t.db.selectFrom('poll_suggestions').select('question').orderBy('id').execute();
    expect(stored.map((row) => row.question)).toEqual(['Q1?', 'Q2?', 'Q3?', 'From another school?', 'Q5?']);
    // The count is kept under a keyed hash: no address is stored.
    const counts = await t.db.selectFrom('rate_limits').selectAll().execute();
    expect(JSON.stringify(counts)).not.toMatch(/203\.0\.113|198\.51\.100/);
  });

  it('takes a whole staff behind one school address suggesting in the same hour, and holds a flood from it to the limit', async () => {
    t = await createTestApp(kind);
    // A staff meeting: 100 teachers each send one idea within the hour, all through the school's address.
    for (let teacher = 1; teacher <= 100; teacher += 1) {
      const response = await suggestFrom(t, '203.0.113.7', `Idea from teacher ${teacher}?`);
      expect(response.statusCode, `teacher ${teacher}`).toBe(201);
      t.clock.advance(30_000);
    }
    // A script on the same address, all at once: nothing more gets in this hour.
    const flood = await Promise.all(Array.from({ length: 50 }, (_, i) => suggestFrom(t!, '203.0.113.7', `Spam ${i}?`)));
    expect(flood.map((r) => r.statusCode)).toEqual(Array.from({ length: 50 }, () => 429));
    expect(await t.db.selectFrom('poll_suggestions').select('id').execute()).toHaveLength(100);
  });

  it('counts a concurrent burst exactly: as many get in as the limit allows', async () => {
    t = await createTestApp(kind, { env: { SUGGEST_LIMIT_PER_HOUR: '10' } });
    const burst = await Promise.all(Array.from({ length: 40 }, (_, i) => suggestFrom(t!, '203.0.113.7', `Q${i}?`)));
    expect(burst.filter((r) => r.statusCode === 201)).toHaveLength(10);
    expect(burst.filter((r) => r.statusCode === 429)).toHaveLength(30);
    expect(await t.db.selectFrom('poll_suggestions').select('id').execute()).toHaveLength(10);
  });

  it('is off with 0', async () => {
    t = await createTestApp(kind, { env: { SUGGEST_LIMIT_PER_HOUR: '0' } });
    for (let i = 0; i < 120; i += 1) expect((await suggestFrom(t, '203.0.113.7', `Q${i}?`)).statusCode).toBe(201);
    expect(await t.db.selectFrom('rate_limits').selectAll().execute()).toEqual([]);
  });
});

// Instances share the count through the database. (Two SQLite connections in one process
// cannot stand in for two servers: see email.test.ts.)
if (testDatabaseKinds().includes('postgres')) {
  it('counts new suggestions per address across two instances on one PostgreSQL database', async () => {
    const database = await createTestDatabase('postgres');
    const env = { SUGGEST_LIMIT_PER_HOUR: '10' };
    const first = await createTestAppOn(database, { env, keepDatabase: true });
    const second = await createTestAppOn(database, { env });
    try {
      const responses = await Promise.all(
        Array.from({ length: 30 }, (_, i) => suggestFrom(i % 2 === 0 ? first : second, '203.0.113.9', `Q${i}?`)),
      );
      expect(responses.filter((r) => r.statusCode === 201)).toHaveLength(10);
      expect(responses.filter((r) => r.statusCode === 429)).toHaveLength(20);
      expect(await first.db.selectFrom('poll_suggestions').select('id').execute()).toHaveLength(10);
    } finally {
      await first.close();
      await second.close();
    }
  });
}
