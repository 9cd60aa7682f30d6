/**
 * The site left alone for a week: every midnight the day's poll goes live, voting closes at
 * 20:00, and every subscriber gets exactly one correct e-mail a day until they unsubscribe.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ActivePoll } from '../../shared/api.js';
import { addDays } from '../../shared/time.js';
import { seedPoll } from '../testing/fixtures.js';
import { confirmationPath, unsubscribePath, type SmtpTestServer } from '../testing/smtp-test-server.js';
import { createTestAppWithMail, type MailTestApp } from '../testing/test-app.js';
import { newYorkTime } from '../testing/test-clock.js';
import { testDatabaseKinds } from '../testing/test-database.js';
import { Visitor } from '../testing/visitor.js';

describe.each(testDatabaseKinds())('a week left alone (%s)', (kind) => {
  let smtp: SmtpTestServer;
  let t: MailTestApp;

  beforeEach(async () => {
    t = await createTestAppWithMail(kind, { now: newYorkTime('2026-11-21', '09:00') });
    smtp = t.smtp;
  });
  afterEach(() => t.close());

  it('switches polls every midnight, closes voting at 20:00, and mails each subscriber once a day', async () => {
    const start = '2026-11-21';
    await seedPoll(t.db, { question: 'Day 0?', options: ['Yes', 'No'], liveDate: start });
    // Scheduled in the admin API's way, one a day; the week crosses no DST change but a month end.
    for (let day = 1; day <= 7; day += 1) {
      await seedPoll(t.db, {
        question: `Day ${day}?`,
        options: ['Yes', 'No'],
        status: 'scheduled',
        liveDate: addDays(start, day),
      });
    }
    const subscribers = ['a@example.org', 'b@example.org', 'leaves@example.org'];
    for (const email of subscribers) await new Visitor(t.app).post('/api/subscribe', { email });
    await t.app.jobs.tick();
    for (const email of subscribers) await new Visitor(t.app).post(confirmationPath(smtp.to(email)[0]));
    smtp.delivered.length = 0; // the confirmations

    const teacher = new Visitor(t.app);
    for (let day = 1; day <= 7; day += 1) {
      const date = addDays(start, day);
      t.clock.set(newYorkTime(date, '00:00:20'));
      await t.app.jobs.tick();
      await t.app.jobs.tick(); // ticks every half minute: the second changes nothing

      const active = (await teacher.get('/api/polls/active')).json<ActivePoll>();
      expect(active.question, date).toBe(`Day ${day}?`);
      const today = smtp.delivered.filter((m) => m.parsed.subject === `Today's hot take: Day ${day}?`);
      const expected = day <= 3 ? subscribers : subscribers.filter((s) => s !== 'leaves@example.org');
      expect(today.map((m) => m.to[0]).sort(), date).toEqual([...expected].sort());
      expect(today[0]?.parsed.text, date).toContain(`Yesterday's results: Day ${day - 1}?`);

      t.clock.set(newYorkTime(date, '19:59'));
      expect((await teacher.vote(active.id, day % 2)).statusCode, date).toBe(201);
      t.clock.set(newYorkTime(date, '20:00'));
      expect((await new Visitor(t.app).vote(active.id, 0)).statusCode, date).toBe(409);
      expect((await new Visitor(t.app).get('/api/polls/active')).json<ActivePoll>().results, date).not.toBeNull();

      if (day === 3) {
        // From today's e-mail, as a mail client's unsubscribe button would.
        const [leaving] = today.filter((m) => m.to[0] === 'leaves@example.org');
        expect((await new Visitor(t.app).post(unsubscribePath(leaving))).statusCode).toBe(200);
      }
    }
    // Seven days: three each for all, then four more for the two who stayed.
    expect(smtp.delivered).toHaveLength(3 * 3 + 4 * 2);
    expect((await teacher.get('/api/stats')).json()).toMatchObject({ totalVotes: 7, streak: 7, totalPolls: 8 });
  });
});
