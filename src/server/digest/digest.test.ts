/**
 * The weekly digest end to end on a real database and a real SMTP server: the choice at sign-up
 * and by the link in every e-mail, the Friday time (site time zone, the owner's setting,
 * audited), one e-mail per subscriber and week however often and from however many instances
 * it is checked, and the same digest as a page and a feed entry.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seedPoll } from '../testing/fixtures.js';
import { signedInStaff } from '../testing/staff.js';
import { confirmationPath, SmtpTestServer } from '../testing/smtp-test-server.js';
import { createTestAppOn, createTestAppWithMail, TEST_SIGN_IN, type MailTestApp } from '../testing/test-app.js';
import { newYorkTime } from '../testing/test-clock.js';
import { createTestDatabase, testDatabaseKinds } from '../testing/test-database.js';
import { Visitor } from '../testing/visitor.js';
import { writeNote } from '../notes/notes.repository.js';

const FREQUENCY_LINK = /https?:\/\/[^/\s]+(\/subscribe\/frequency\?token=[A-Za-z0-9_-]{16,64})\s/;

describe.each(testDatabaseKinds())('the weekly digest (%s)', (kind) => {
  let t: MailTestApp;
  beforeEach(async () => {
    t = await createTestAppWithMail(kind, { now: newYorkTime('2026-11-27', '09:00') });
  });
  afterEach(() => t.close());

  const subscribers = () =>
    t.db.selectFrom('subscribers').select(['email', 'wants_daily', 'wants_weekly']).orderBy('email').execute();
  const weekly = () => t.smtp.delivered.filter((mail) => mail.parsed.subject?.includes('The week of'));

  /** Subscribes with a choice and follows the confirmation link, as a teacher would. */
  async function subscribe(email: string, frequency?: string) {
    const response = await new Visitor(t.app).post('/api/subscribe', { email, ...(frequency ? { frequency } : {}) });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      message: 'Check your inbox and confirm your subscription to start receiving poll results.',
    });
    await t.app.jobs.sendMail();
    const [confirmation] = t.smtp.to(email).slice(-1);
    expect((await new Visitor(t.app).post(confirmationPath(confirmation))).statusCode).toBe(200);
  }

  /** Two closed polls of week 48 (one with a note) and Friday's, open until 20:00. */
  async function week48() {
    const monday = await seedPoll(t.db, {
      question: 'Phones locked away all day?',
      liveDate: '2026-11-23',
      status: 'past',
      votes: [7, 3, 0],
    });
    await seedPoll(t.db, {
      question: 'Homework in elementary?',
      liveDate: '2026-11-24',
      status: 'past',
      votes: [2, 2, 1],
    });
    await seedPoll(t.db, { question: 'Four-day week?', liveDate: '2026-11-27', status: 'active', votes: [1, 4, 0] });
    await writeNote(t.db, {
      pollId: monday.id,
      body: 'Leaders agreed *most*. <script>x</script> [How](/methods)',
      at: t.clock.now(),
      by: null,
    });
  }

  it('takes the choice at sign-up: daily by default, weekly or both; anything else is a 400', async () => {
    await subscribe('d@example.org');
    await subscribe('w@example.org', 'weekly');
    await subscribe('b@example.org', 'both');
    const bad = await new Visitor(t.app).post('/api/subscribe', { email: 'x@example.org', frequency: 'hourly' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ message: 'Please choose daily, weekly or both.' });
    const truthy = (v: boolean | number) => Boolean(v);
    expect((await subscribers()).map((s) => [s.email, truthy(s.wants_daily), truthy(s.wants_weekly)])).toEqual([
      ['b@example.org', true, true],
      ['d@example.org', true, false],
      ['w@example.org', false, true],
    ]);
  });

  it('goes out once per subscriber after Friday 20:30 site time, with each poll, its headline, note and link', async () => {
    await week48();
    await subscribe('d@example.org', 'daily');
    await subscribe('w@example.org', 'weekly');
    await subscribe('b@example.org', 'both');
    t.smtp.delivered.length = 0;

    t.clock.set(newYorkTime('2026-11-27', '20:29'));
    await t.app.jobs.tick();
    expect(weekly()).toEqual([]);

    t.clock.set(newYorkTime('2026-11-27', '20:31'));
    await t.app.jobs.tick();
    await t.app.jobs.tick();
    t.clock.advance(3_600_000);
    await t.app.jobs.tick();
    expect(
      weekly()
        .map((mail) => mail.to[0])
        .sort(),
    ).toEqual(['b@example.org', 'w@example.org']);
    const mail = weekly()[0];
    const text = mail?.parsed.text ?? '';
    expect(text).toContain('Phones locked away all day?\nYes: 70% of 10 votes');
    expect(text).toContain('What we learned: Leaders agreed most. <script>x</script> How');
    expect(text).toContain('Four-day week?\nNo: 80% of 5 votes'); // Friday's, closed at 20:00
    expect(text).toMatch(/Full results: https?:\/\/[^\s]+\/poll-1\n/);
    const html = String(mail?.parsed.html);
    expect(html).toContain('<em>most</em>');
    expect(html).not.toContain('<script>');
    // A link to a page of the site works from a mail client.
    expect(html).toMatch(/<a href="https?:\/\/[^"/]+\/methods" rel="nofollow/);
    expect(SmtpTestServer.header(mail!, 'List-Unsubscribe')).toMatch(/\/unsubscribe\?token=/);

    // The page and the feed say the same.
    const page = await new Visitor(t.app).get('/week/2026-W48');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Phones locked away all day?');
    expect(page.body).toContain('<p>Leaders agreed <em>most</em>. &lt;script&gt;x&lt;/script&gt; <a href="/methods"');
    expect(page.body).toContain('Four-day week?');
    const feed = await new Visitor(t.app).get('/feed.xml');
    expect(feed.body).toContain('/week/2026-W48</id>');
    for (const url of ['/week/2026-W60', '/week/2026-W52', '/week/soon', '/week/2026-W49']) {
      const missing = await new Visitor(t.app).get(url);
      expect(missing.statusCode, url).toBe(404);
      expect(missing.body).toContain('No round-up for this week');
    }
  });

  it('the link in every e-mail changes daily, weekly or both, without scripts', async () => {
    await subscribe('w@example.org', 'weekly');
    const [confirmation] = t.smtp.to('w@example.org');
    const path = FREQUENCY_LINK.exec(confirmation?.parsed.text ?? '')?.[1] ?? '';
    const shown = await new Visitor(t.app).get(path);
    expect(shown.statusCode).toBe(200);
    expect(shown.body).toContain('value="weekly" checked');
    expect(shown.body).toContain('w***@example.org');
    const form = (frequency: string, url = path) =>
      new Visitor(t.app).request({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `frequency=${frequency}`,
      });
    const saved = await form('both');
    expect(saved.statusCode).toBe(200);
    expect(saved.body).toContain('value="both" checked');
    expect((await subscribers())[0]).toMatchObject({ wants_daily: expect.anything(), wants_weekly: expect.anything() });
    expect(Boolean((await subscribers())[0]?.wants_daily)).toBe(true);
    expect((await form('hourly')).statusCode).toBe(400);
    expect((await form('daily', '/subscribe/frequency?token=AAAAAAAAAAAAAAAAAAAAAAAA')).statusCode).toBe(404);
    expect((await new Visitor(t.app).get('/subscribe/frequency?token=<x>')).statusCode).toBe(404);
    expect(Boolean((await subscribers())[0]?.wants_weekly)).toBe(true);
  });

  it('a weekly-only subscriber gets no daily e-mail; a daily one gets no digest', async () => {
    await seedPoll(t.db, { question: 'Tomorrow?', liveDate: '2026-11-28', status: 'scheduled' });
    await subscribe('d@example.org', 'daily');
    await subscribe('w@example.org', 'weekly');
    t.smtp.delivered.length = 0;
    t.clock.set(newYorkTime('2026-11-28', '00:00:05'));
    await t.app.jobs.tick();
    expect(t.smtp.delivered.map((mail) => mail.to[0])).toEqual(['d@example.org']);
  });

  it('the owner sets the Friday time (audited); an editor may not; a bad time is a 400', async () => {
    await week48();
    await subscribe('w@example.org', 'weekly');
    const owner = new Visitor(t.app, { origin: t.config.site.publicUrl });
    expect((await owner.post('/api/admin/login', TEST_SIGN_IN)).statusCode).toBe(200);
    expect((await owner.get('/api/admin/digest')).json()).toEqual({ sendAt: '20:30', timeZone: 'America/New_York' });
    expect((await owner.put('/api/admin/digest', { sendAt: '25:00' })).statusCode).toBe(400);
    const set = await owner.put('/api/admin/digest', { sendAt: '16:00' });
    expect(set.json()).toEqual({ message: 'The weekly digest will go out on Fridays at 16:00.' });
    const audit = await t.db
      .selectFrom('audit_log')
      .select(['action', 'summary'])
      .where('action', '=', 'digest.time')
      .execute();
    expect(audit).toEqual([
      { action: 'digest.time', summary: 'The weekly digest leaves on Fridays at 16:00 (America/New_York)' },
    ]);
    const { visitor: editor } = await signedInStaff(t, 'editor');
    expect((await editor.put('/api/admin/digest', { sendAt: '10:00' })).statusCode).toBe(403);

    t.clock.set(newYorkTime('2026-11-27', '16:01'));
    await t.app.jobs.tick();
    // At 16:00 Friday's poll is still open: the digest has Monday's and Tuesday's.
    const [mail] = weekly();
    expect(mail?.parsed.text).toContain('Homework in elementary?');
    expect(mail?.parsed.text).not.toContain('Four-day week?');
  });
});

// Several instances share a database on PostgreSQL only (see email.test.ts).
if (testDatabaseKinds().includes('postgres')) {
  it('two instances on one PostgreSQL database queue the week once between them', async () => {
    const smtp = new SmtpTestServer();
    await smtp.start();
    const database = await createTestDatabase('postgres');
    const env = { SMTP_URL: smtp.url, MAIL_POSTAL_ADDRESS: '1 School Lane' };
    const now = newYorkTime('2026-11-27', '20:31');
    const first = await createTestAppOn(database, { env, now, keepDatabase: true });
    const second = await createTestAppOn(database, { env, now });
    try {
      await seedPoll(first.db, { liveDate: '2026-11-23', status: 'past', votes: [1, 0, 0] });
      const at = now.toISOString();
      await first.db
        .insertInto('subscribers')
        .values(
          Array.from({ length: 20 }, (_, i) => ({
            email: `t${i}@example.org`,
            created_at: at,
            confirmed_at: at,
            wants_daily: false,
            wants_weekly: true,
          })),
        )
        .execute();
      await Promise.all([first.app.jobs.tick(), second.app.jobs.tick(), first.app.jobs.tick(), second.app.jobs.tick()]);
      await Promise.all([first.app.jobs.sendMail(), second.app.jobs.sendMail()]);
      expect(smtp.delivered).toHaveLength(20);
      expect(new Set(smtp.delivered.map((mail) => mail.to[0])).size).toBe(20);
    } finally {
      await first.close();
      await second.close();
      await smtp.stop();
    }
  }, 60_000);
}
