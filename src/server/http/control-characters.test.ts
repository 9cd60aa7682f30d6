/**
 * Text with control characters is refused wherever the API takes text, with a 400 and nothing
 * stored (PostgreSQL rejects NUL outright, which used to answer 500). A line break is kept in
 * the multi-line fields, the same on both databases.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seedPoll } from '../testing/fixtures.js';
import { snapshotDatabase } from '../testing/snapshot.js';
import { createTestApp, TEST_SIGN_IN, type TestApp } from '../testing/test-app.js';
import { testDatabaseKinds } from '../testing/test-database.js';
import { Visitor } from '../testing/visitor.js';

const CONTROLS = ['\u0000', '\u0007', '\u001b', '\t', '\r', '\u0085', '\ud800'];

describe.each(testDatabaseKinds())('control characters (%s)', (kind) => {
  let t: TestApp;
  let staff: Visitor;

  beforeEach(async () => {
    t = await createTestApp(kind);
    staff = new Visitor(t.app);
    await staff.post('/api/admin/login', TEST_SIGN_IN);
  });
  afterEach(() => t.close());

  it('are refused in every text field with a 400 that names the field, and nothing changes', async () => {
    const poll = await seedPoll(t.db, { status: 'scheduled', liveDate: '2026-11-25' });
    const voter = new Visitor(t.app);
    const before = await snapshotDatabase(t.db);
    const draft = { question: 'Q?', description: 'D', options: ['A', 'B'], liveDate: '2026-11-26' };
    const suggestion = { question: 'Q?', options: ['A', 'B'], suggestedBy: 'Jo', email: 'jo@example.org' };
    for (const c of CONTROLS) {
      const calls: [string, () => Promise<{ statusCode: number; json: () => { message: string } }>][] = [
        ['question', () => staff.post('/api/admin/polls', { ...draft, question: `Is${c}it?` })],
        [
          'description',
          () =>
            staff.request({
              method: 'PUT',
              url: `/api/admin/polls/${poll.id}`,
              payload: { ...draft, description: `a${c}b` },
            }),
        ],
        ['option', () => staff.post('/api/admin/polls', { ...draft, options: ['A', `B${c}C`] })],
        ['suggestion', () => voter.post('/api/poll-suggestions', { ...suggestion, question: `Why${c}not?` })],
        ['suggestion option', () => voter.post('/api/poll-suggestions', { ...suggestion, options: [`A${c}Z`, 'B'] })],
        ['name', () => voter.post('/api/poll-suggestions', { ...suggestion, suggestedBy: `J${c}o` })],
        ['e-mail', () => voter.post('/api/subscribe', { email: `j${c}o@example.org` })],
      ];
      // A lone carriage return is a line break in a multi-line field (old Mac text): it is kept there.
      const multiLine = new Set(['question', 'description', 'suggestion']);
      for (const [field, call] of calls.filter(([name]) => c !== '\r' || !multiLine.has(name))) {
        const response = await call();
        expect(response.statusCode, `${field} with U+${c.charCodeAt(0).toString(16)}`).toBe(400);
        expect(response.json().message).toMatch(/control character|valid email/);
      }
    }
    expect(await snapshotDatabase(t.db)).toEqual(before);
  });

  it('keeps line breaks in a question and a description, stored as \\n on either database', async () => {
    const response = await staff.post('/api/admin/polls', {
      question: 'First line\r\nsecond line?',
      description: 'One\rtwo\nthree',
      options: ['A', 'B'],
      liveDate: '2026-11-26',
    });
    expect(response.statusCode).toBe(201);
    const row = await t.db.selectFrom('polls').select(['question', 'description']).executeTakeFirstOrThrow();
    expect(row).toEqual({ question: 'First line\nsecond line?', description: 'One\ntwo\nthree' });
    const option = await staff.post('/api/admin/polls', {
      question: 'Q?',
      options: ['A\nB', 'C'],
      liveDate: '2026-11-27',
    });
    expect(option.statusCode).toBe(400);
  });
});
