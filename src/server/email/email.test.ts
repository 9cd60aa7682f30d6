import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seedPoll } from '../testing/fixtures.js';
import { SmtpTestServer } from '../testing/smtp-test-server.js';
import { createTestApp, createTestAppOn, TEST_ADMIN_PASSWORD, type TestApp } from '../testing/test-app.js';
import { newYorkTime } from '../testing/test-clock.js';
import { createTestDatabase, testDatabaseKinds } from '../testing/test-database.js';
import { Visitor } from '../testing/visitor.js';

describe.each(testDatabaseKinds())('e-mail (%s)', (kind) => {
  let smtp: SmtpTestServer;
  let t: TestApp;

  beforeEach(async () => {
    smtp = new SmtpTestServer();
    await smtp.start();
    t = await createTestApp(kind, {
      env: { SMTP_URL: smtp.url, MAIL_POSTAL_ADDRESS: '1 School Lane, Springfield, IL 62701', PUBLIC_URL: 'https://hottake.example.org' },
    });
  });
  afterEach(async () => {
    await t.close();
    await smtp.stop();
  });

  const subscribe = (email: string, pollId?: number) =>
    new Visitor(t.app).post('/api/subscribe', { email, ...(pollId === undefined ? {} : { pollId }) });

  const outboxRows = () => t.db.selectFrom('email_outbox').selectAll().orderBy('id').execute();

  describe('the welcome e-mail', () => {
    it('arrives after subscribing, with the consent recorded and working one-click unsubscribe headers', async () => {
      const poll = await seedPoll(t.db);
      await subscribe('Pat.Teacher@Example.org', poll.id);
      expect(await t.app.jobs.sendMail()).toMatchObject({ sent: 1 });

      const [mail] = smtp.to('pat.teacher@example.org');
      expect(smtp.delivered).toHaveLength(1);
      expect(mail?.parsed.subject).toBe('Welcome to Teacher Hot Take!');
      expect(mail?.parsed.from?.text).toBe('"Teacher Hot Take" <no-reply@hottake.example.org>');
      expect(mail?.parsed.text).toContain("You're on the list!");
      expect(mail?.parsed.text).toContain('1 School Lane, Springfield, IL 62701');
      expect(mail?.parsed.html).toContain('<html lang="en">');
      if (!mail) throw new Error('no welcome e-mail');
      expect(SmtpTestServer.header(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
      const unsubscribeUrl = /^<(https:\/\/hottake\.example\.org\/unsubscribe\?token=[A-Za-z0-9_-]+)>$/.exec(
        SmtpTestServer.header(mail, 'List-Unsubscribe') ?? '',
      )?.[1];
      expect(unsubscribeUrl).toBeDefined();
      expect(mail.parsed.text).toContain(unsubscribeUrl);

      const subscriber = await t.db.selectFrom('subscribers').selectAll().executeTakeFirstOrThrow();
      expect(subscriber).toMatchObject({
        email: 'pat.teacher@example.org',
        source_poll_id: poll.id,
        consent_text: 'I agree to receive emails from Teacher Hot Take and its affiliates.',
        unsubscribed_at: null,
      });
      expect(subscriber.consented_at).not.toBeNull();

      // What a mail client does for its unsubscribe button (RFC 8058).
      const { pathname, search } = new URL(unsubscribeUrl ?? '');
      const oneClick = await t.app.inject({
        method: 'POST',
        url: `${pathname}${search}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'List-Unsubscribe=One-Click',
      });
      expect(oneClick.statusCode).toBe(200);
      expect(oneClick.body).toContain('You&#39;re unsubscribed');
      const after = await t.db.selectFrom('subscribers').select('unsubscribed_at').executeTakeFirstOrThrow();
      expect(after.unsubscribed_at).not.toBeNull();
    });

    it('is sent once per subscription: subscribing again changes nothing', async () => {
      await subscribe('pat@example.org');
      await subscribe('PAT@example.org');
      await t.app.jobs.sendMail();
      await t.app.jobs.sendMail();
      expect(smtp.delivered).toHaveLength(1);
      expect(await outboxRows()).toHaveLength(1);
    });

    it('is not sent to someone who unsubscribed before it went out', async () => {
      await subscribe('pat@example.org');
      await t.db.updateTable('subscribers').set({ unsubscribed_at: new Date().toISOString() }).execute();
      expect(await t.app.jobs.sendMail()).toMatchObject({ sent: 0, cancelled: 1 });
      expect(smtp.delivered).toEqual([]);
    });
  });

  describe('the daily e-mail', () => {
    it('goes out when the new day’s poll goes live at midnight: one per subscriber, with yesterday’s results', async () => {
      await seedPoll(t.db, { question: 'Should homework be banned?', options: ['Yes', 'No'], votes: [3, 1], liveDate: '2026-11-21' });
      await seedPoll(t.db, { question: 'Is a four-day week better?', options: ['Yes', 'No'], status: 'scheduled', liveDate: '2026-11-22' });
      for (const email of ['a@example.org', 'b@example.org', 'c@example.org']) await subscribe(email);
      await t.app.jobs.sendMail(); // the welcomes
      smtp.delivered.length = 0;

      t.clock.set(newYorkTime('2026-11-21', '23:59'));
      expect((await t.app.jobs.tick()).activatedPollId).toBeNull();
      expect(smtp.delivered).toEqual([]);

      t.clock.set(newYorkTime('2026-11-22', '00:00:10'));
      expect((await t.app.jobs.tick()).activatedPollId).not.toBeNull();
      expect((await new Visitor(t.app).get('/api/polls/active')).json().question).toBe('Is a four-day week better?');
      expect(smtp.delivered.map((m) => m.to[0]).sort()).toEqual(['a@example.org', 'b@example.org', 'c@example.org']);
      const [mail] = smtp.delivered;
      expect(mail?.parsed.subject).toBe("Today's hot take: Is a four-day week better?");
      expect(mail?.parsed.text).toContain('Vote now: https://hottake.example.org/');
      expect(mail?.parsed.text).toContain("Yesterday's results: Should homework be banned?");
      expect(mail?.parsed.text).toContain('- Yes: 75% (3 votes)');
      expect(mail?.parsed.text).toContain('- No: 25% (1 vote)');
      expect(mail?.parsed.text).toContain('Full results: https://hottake.example.org/poll-1');

      // Later ticks that day send nothing more.
      await t.app.jobs.tick();
      t.clock.set(newYorkTime('2026-11-22', '12:00'));
      await t.app.jobs.tick();
      expect(smtp.delivered).toHaveLength(3);
    });

    it('is one per subscriber and day, even when staff put another poll live the same day', async () => {
      await seedPoll(t.db, { question: 'Today?', liveDate: '2026-11-21' });
      const later = await seedPoll(t.db, { question: 'Later?', status: 'scheduled', liveDate: '2026-11-25' });
      await subscribe('a@example.org');
      await t.app.jobs.sendMail();
      const staff = new Visitor(t.app);
      await staff.post('/api/admin/login', { password: TEST_ADMIN_PASSWORD });
      await staff.request({ method: 'PUT', url: `/api/admin/polls/${later.id}/activate` });
      await t.app.jobs.sendMail();
      expect(smtp.delivered.map((m) => m.parsed.subject)).toEqual(['Welcome to Teacher Hot Take!', "Today's hot take: Later?"]);
    });
  });

  describe('when the mail server is away', () => {
    it('keeps messages queued, and sends each exactly once when it is back', async () => {
      await subscribe('a@example.org');
      await subscribe('b@example.org');
      await smtp.stop();

      expect(await t.app.jobs.sendMail()).toMatchObject({ sent: 0, retried: 2 });
      const queued = await outboxRows();
      expect(queued.map((row) => [row.status, row.attempts])).toEqual([
        ['queued', 1],
        ['queued', 1],
      ]);
      expect(queued[0]?.last_error).toMatch(/ECONNREFUSED|connect/i);
      // Not due yet: nothing is tried before the back-off has passed.
      expect(await t.app.jobs.sendMail()).toMatchObject({ retried: 0 });

      await smtp.start();
      t.clock.advance(31_000);
      expect(await t.app.jobs.sendMail()).toMatchObject({ sent: 2 });
      t.clock.advance(3_600_000);
      expect(await t.app.jobs.sendMail()).toMatchObject({ sent: 0 });
      expect(smtp.delivered.map((m) => m.to[0]).sort()).toEqual(['a@example.org', 'b@example.org']);
    });

    it('marks a message failed, with its error, after repeated failures', async () => {
      await t.close();
      t = await createTestApp(kind, {
        env: { SMTP_URL: smtp.url, MAIL_POSTAL_ADDRESS: '1 School Lane' },
        outbox: { maxAttempts: 3 },
      });
      await subscribe('a@example.org');
      await smtp.stop();
      for (let i = 0; i < 3; i += 1) {
        await t.app.jobs.sendMail();
        t.clock.advance(3_600_000);
      }
      const [row] = await outboxRows();
      expect(row).toMatchObject({ status: 'failed', attempts: 3 });
      expect(row?.last_error).toBeTruthy();
      expect(row?.last_error).not.toContain('a@example.org');
      await smtp.start();
      await t.app.jobs.sendMail();
      expect(smtp.delivered).toEqual([]);
    });
  });

  describe('unsubscribing', () => {
    async function tokenFor(email: string) {
      await subscribe(email);
      const row = await t.db.selectFrom('subscribers').select('unsubscribe_token').where('email', '=', email).executeTakeFirstOrThrow();
      return row.unsubscribe_token ?? '';
    }

    it('shows a page with a button, then unsubscribes; doing it again is fine', async () => {
      const token = await tokenFor('pat.teacher@example.org');
      const page = await new Visitor(t.app).get(`/unsubscribe?token=${token}`);
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toContain('text/html');
      expect(page.body).toContain('p***@example.org');
      expect(page.body).not.toContain('pat.teacher@');
      expect(page.body).toContain(`<form method="post" action="/unsubscribe?token=${token}">`);
      const nonce = /<style nonce="([^"]+)">/.exec(page.body)?.[1];
      expect(String(page.headers['content-security-policy'])).toContain(`'nonce-${nonce}'`);

      const submitted = await new Visitor(t.app).request({
        method: 'POST',
        url: `/unsubscribe?token=${token}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: '',
      });
      expect(submitted.statusCode).toBe(200);
      expect(submitted.body).toContain('You&#39;re unsubscribed');
      const first = await t.db.selectFrom('subscribers').select('unsubscribed_at').executeTakeFirstOrThrow();

      const again = await new Visitor(t.app).post(`/unsubscribe?token=${token}`);
      expect(again.statusCode).toBe(200);
      expect((await new Visitor(t.app).get(`/unsubscribe?token=${token}`)).body).toContain('You&#39;re unsubscribed');
      const second = await t.db.selectFrom('subscribers').select('unsubscribed_at').executeTakeFirstOrThrow();
      expect(second.unsubscribed_at).toEqual(first.unsubscribed_at);
    });

    it('answers an unknown or malformed token with a clear page, not an error trace', async () => {
      for (const url of ['/unsubscribe?token=AAAAAAAAAAAAAAAAAAAAAAAA', '/unsubscribe', '/unsubscribe?token=<script>']) {
        for (const method of ['GET', 'POST'] as const) {
          const response = await new Visitor(t.app).request({ method, url });
          expect(response.statusCode, `${method} ${url}`).toBe(404);
          expect(response.body).toContain('This unsubscribe link is not valid');
          expect(response.body).not.toContain('<script>');
        }
      }
    });

    it('sends nothing more to an unsubscribed address', async () => {
      await seedPoll(t.db, { liveDate: '2026-11-21' });
      await seedPoll(t.db, { status: 'scheduled', liveDate: '2026-11-22' });
      const token = await tokenFor('gone@example.org');
      await subscribe('stays@example.org');
      await t.app.jobs.sendMail();
      await new Visitor(t.app).post(`/unsubscribe?token=${token}`);
      t.clock.set(newYorkTime('2026-11-22', '00:01'));
      await t.app.jobs.tick();
      expect(smtp.to('gone@example.org')).toHaveLength(1); // the welcome only
      expect(smtp.to('stays@example.org')).toHaveLength(2);
    });
  });

  it('reports the subscriber list and the outbox to staff', async () => {
    await subscribe('a@example.org');
    await subscribe('b@example.org');
    await t.app.jobs.sendMail();
    await t.db.updateTable('subscribers').set({ unsubscribed_at: new Date().toISOString() }).where('email', '=', 'b@example.org').execute();
    const staff = new Visitor(t.app);
    await staff.post('/api/admin/login', { password: TEST_ADMIN_PASSWORD });
    expect((await staff.get('/api/admin/mail-stats')).json()).toEqual({
      transport: 'smtp',
      subscribers: { subscribed: 1, unsubscribed: 1 },
      outbox: { queued: 0, sending: 0, sent: 2, failed: 0, cancelled: 0 },
    });
    expect((await new Visitor(t.app).get('/api/admin/mail-stats')).statusCode).toBe(401);
  });
});

describe('without a mail server', () => {
  it('writes each e-mail as an .eml file and logs where, without the address', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hot-take-mail-'));
    const lines: string[] = [];
    const t = await createTestApp('sqlite', { env: { MAIL_OUTBOX_DIR: dir }, logStream: { write: (l) => void lines.push(l) } });
    try {
      await new Visitor(t.app).post('/api/subscribe', { email: 'files@example.org' });
      expect(await t.app.jobs.sendMail()).toMatchObject({ sent: 1 });
      const files = fs.readdirSync(dir);
      expect(files).toHaveLength(1);
      const eml = fs.readFileSync(path.join(dir, files[0] ?? ''), 'utf8');
      expect(eml).toContain('To: files@example.org');
      expect(eml).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
      expect(eml).toContain('Subject: Welcome to Teacher Hot Take!');
      const log = lines.map((l) => JSON.parse(l) as { msg: string; file?: string }).find((l) => l.msg.startsWith('e-mail written'));
      expect(log?.file).toContain('.eml');
      expect(lines.join('')).not.toContain('files@example.org');
    } finally {
      await t.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

// Several instances share a database on PostgreSQL (README). Two SQLite connections in one
// process cannot stand in for two servers: the synchronous driver blocks the event loop while
// it waits for the other connection's lock, which the other connection then can never release.
if (testDatabaseKinds().includes('postgres')) {
  describe('two instances on one PostgreSQL database', () => {
    it('switch once at midnight and send one e-mail per subscriber between them', async () => {
      const smtp = new SmtpTestServer();
      await smtp.start();
      const database = await createTestDatabase('postgres');
      const env = { SMTP_URL: smtp.url, MAIL_POSTAL_ADDRESS: '1 School Lane' };
      const first = await createTestAppOn(database, { env, keepDatabase: true });
      const second = await createTestAppOn(database, { env });
      try {
        await seedPoll(first.db, { question: 'Yesterday?', liveDate: '2026-11-21' });
        await seedPoll(first.db, { question: 'Today?', status: 'scheduled', liveDate: '2026-11-22' });
        const emails = Array.from({ length: 30 }, (_, i) => `teacher${i}@example.org`);
        for (const email of emails) await new Visitor(first.app).post('/api/subscribe', { email });
        await Promise.all([first.app.jobs.sendMail(), second.app.jobs.sendMail()]);
        expect(smtp.delivered).toHaveLength(30);
        smtp.delivered.length = 0;

        for (const app of [first, second]) app.clock.set(newYorkTime('2026-11-22', '00:00:05'));
        const transitions = await Promise.all([first.app.jobs.tick(), second.app.jobs.tick()]);
        const later = await Promise.all([first.app.jobs.tick(), second.app.jobs.tick()]);
        await Promise.all([first.app.jobs.sendMail(), second.app.jobs.sendMail()]);

        expect(transitions.filter((t) => t.activatedPollId !== null)).toHaveLength(1);
        expect(later.filter((t) => t.activatedPollId !== null)).toHaveLength(0);
        expect(smtp.delivered.map((m) => m.to[0]).sort()).toEqual([...emails].sort());
        const active = await first.db.selectFrom('polls').select('question').where('status', '=', 'active').execute();
        expect(active).toEqual([{ question: 'Today?' }]);
      } finally {
        await first.close();
        await second.close();
        await smtp.stop();
      }
    });
  });
}
