import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { snapshotDatabase } from '../testing/snapshot.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { testDatabaseKinds } from '../testing/test-database.js';
import { Visitor } from '../testing/visitor.js';

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
