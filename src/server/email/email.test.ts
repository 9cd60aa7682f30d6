import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AUDIT_HOSTILE_ADDRESSES } from '../../shared/testing/hostile-addresses.js';
import { seedPoll } from '../testing/fixtures.js';
import { createMailTransport } from './mail-transport.js';
import { snapshotDatabase } from '../testing/snapshot.js';
import { confirmationPath, SmtpTestServer, unsubscribePath } from '../testing/smtp-test-server.js';
import {
  createTestApp,
  createTestAppOn,
  createTestAppWithMail,
  TEST_SIGN_IN,
  type MailTestApp,
} from '../testing/test-app.js';
import { newYorkTime } from '../testing/test-clock.js';
import { createTestDatabase, testDatabaseKinds } from '../testing/test-database.js';
import { Visitor } from '../testing/visitor.js';

describe.each(testDatabaseKinds())('e-mail (%s)', (kind) => {
  let smtp: SmtpTestServer;
  let t: MailTestApp;

  beforeEach(async () => {
    t = await createTestAppWithMail(kind, { env: { PUBLIC_URL: 'https://hottake.example.org' } });
    smtp = t.smtp;
  });
  afterEach(() => t.close());

  const subscribe = (email: string, pollId?: number) =>
    new Visitor(t.app).post('/api/subscribe', { email, ...(pollId === undefined ? {} : { pollId }) });

  const outboxRows = () => t.db.selectFrom('email_outbox').selectAll().orderBy('id').execute();
  const subscriberRow = (email: string) =>
    t.db.selectFrom('subscribers').selectAll().where('email', '=', email).executeTakeFirstOrThrow();

  /**
   * Subscribes each address and follows the link each one receives, as people would; returns
   * the unsubscribe link of each one's confirmation e-mail.
   */
  async function subscribeAndConfirm(...emails: string[]) {
    for (const email of emails) await subscribe(email);
    await t.app.jobs.sendMail();
    const unsubscribeLinks = new Map<string, string>();
    for (const email of emails) {
      const [confirmation] = smtp.to(email).slice(-1);
      expect((await new Visitor(t.app).post(confirmationPath(confirmation))).statusCode).toBe(200);
      unsubscribeLinks.set(email, unsubscribePath(confirmation));
    }
    smtp.delivered.length = 0;
    return unsubscribeLinks;
  }

  /**
   * A link that is unknown or malformed, followed (GET) or posted by a mail client's one-click
   * (POST): a 404 page that says `sentence`, never an error trace, never the link's markup.
   */
  async function expectInvalidLinkPages(urls: string[], sentence: string) {
    for (const url of urls) {
      for (const method of ['GET', 'POST'] as const) {
        const response = await new Visitor(t.app).request({ method, url });
        expect(response.statusCode, `${method} ${url}`).toBe(404);
        expect(response.body).toContain(sentence);
        expect(response.body).not.toContain('<script>');
      }
    }
  }

  describe('the confirmation e-mail', () => {
    it('arrives after subscribing, with the consent recorded; its link confirms, and one-click unsubscribe works', async () => {
      const poll = await seedPoll(t.db);
      await subscribe('Pat.Teacher@Example.org', poll.id);
      expect(await t.app.jobs.sendMail()).toMatchObject({ sent: 1 });

      const [mail] = smtp.to('pat.teacher@example.org');
      expect(smtp.delivered).toHaveLength(1);
      expect(mail?.to).toEqual(['pat.teacher@example.org']);
      expect(mail?.parsed.subject).toBe('Confirm your subscription to Teacher Hot Take');
      expect(mail?.parsed.from?.text).toBe('"Teacher Hot Take" <no-reply@hottake.example.org>');
      expect(mail?.parsed.text).toContain('Confirm your subscription');
      expect(mail?.parsed.text).toContain('1 School Lane, Springfield, IL 62701');
      expect(mail?.parsed.html).toContain('<html lang="en">');
      if (!mail) throw new Error('no confirmation e-mail');
      expect(SmtpTestServer.header(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
      const unsubscribeUrl = /^<(https:\/\/hottake\.example\.org\/unsubscribe\?token=[A-Za-z0-9_-]+)>$/.exec(
        SmtpTestServer.header(mail, 'List-Unsubscribe') ?? '',
      )?.[1];
      expect(unsubscribeUrl).toBeDefined();
      expect(mail.parsed.text).toContain(unsubscribeUrl);

      const pending = await subscriberRow('pat.teacher@example.org');
      expect(pending).toMatchObject({
        source_poll_id: poll.id,
        consent_text: 'I agree to receive emails from Teacher Hot Take and its affiliates.',
        unsubscribed_at: null,
        confirmed_at: null,
      });
      expect(pending.consented_at).not.toBeNull();

      // Opening the link (as a mail scanner would) shows a button and changes nothing.
      const link = confirmationPath(mail);
      const page = await new Visitor(t.app).get(link);
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('p***@example.org');
      expect(page.body).not.toContain('pat.teacher@');
      expect(page.body).toContain(`<form method="post" action="${link}">`);
      expect((await subscriberRow('pat.teacher@example.org')).confirmed_at).toBeNull();

      const confirmed = await new Visitor(t.app).request({
        method: 'POST',
        url: link,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: '',
      });
      expect(confirmed.statusCode).toBe(200);
      expect(confirmed.body).toContain('You&#39;re subscribed!');
      expect((await subscriberRow('pat.teacher@example.org')).confirmed_at).not.toBeNull();
      expect((await new Visitor(t.app).post(link)).body).toContain('You&#39;re subscribed!');
      expect((await new Visitor(t.app).get(link)).body).toContain('You&#39;re subscribed!');

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
      expect((await subscriberRow('pat.teacher@example.org')).unsubscribed_at).not.toBeNull();
      // The old confirmation link cannot subscribe the address again.
      expect((await new Visitor(t.app).post(link)).statusCode).toBe(404);
    });

    it('goes to an address at most once a day, however often it is submitted, and every link sent works', async () => {
      for (const email of [
        'pat@example.org',
        'PAT@example.org',
        ' pat@example.org ',
        'Pat@Example.Org',
        'pat@example.org',
      ]) {
        expect((await subscribe(email)).statusCode).toBe(200);
      }
      await t.app.jobs.sendMail();
      t.clock.advance(24 * 3_600_000 - 60_000);
      await subscribe('pat@example.org');
      await t.app.jobs.sendMail();
      expect(smtp.delivered).toHaveLength(1);
      expect(await outboxRows()).toHaveLength(1);

      t.clock.advance(60_000);
      await subscribe('pat@example.org');
      await t.app.jobs.sendMail();
      expect(smtp.delivered).toHaveLength(2);
      const [first, second] = smtp.delivered;
      expect((await new Visitor(t.app).post(confirmationPath(first))).body).toContain('You&#39;re subscribed!');
      expect((await new Visitor(t.app).post(confirmationPath(second))).body).toContain('You&#39;re subscribed!');

      // Confirmed: asking again sends nothing at all.
      t.clock.advance(2 * 24 * 3_600_000);
      await subscribe('pat@example.org');
      await t.app.jobs.sendMail();
      expect(smtp.delivered).toHaveLength(2);
    });

    it('is not sent to someone who refused before it went out', async () => {
      await subscribe('pat@example.org');
      await t.app.jobs.sendMail();
      t.clock.advance(24 * 3_600_000);
      await subscribe('pat@example.org'); // a day later, a second request: another confirmation
      await new Visitor(t.app).post(unsubscribePath(smtp.to('pat@example.org')[0])); // refused in the first
      expect(await t.app.jobs.sendMail()).toMatchObject({ sent: 0, cancelled: 1 });
      expect(smtp.delivered).toHaveLength(1);
    });

    it('asks someone who had unsubscribed to confirm again before any daily e-mail', async () => {
      await seedPoll(t.db, { liveDate: '2026-11-21' });
      await seedPoll(t.db, { question: 'Tomorrow?', status: 'scheduled', liveDate: '2026-11-22' });
      await seedPoll(t.db, { question: 'Day after?', status: 'scheduled', liveDate: '2026-11-23' });
      const unsubscribeLinks = await subscribeAndConfirm('back@example.org');
      await new Visitor(t.app).post(unsubscribeLinks.get('back@example.org') ?? '');
      t.clock.advance(60_000);
      await subscribe('back@example.org'); // within a day of the last confirmation e-mail: none
      t.clock.set(newYorkTime('2026-11-22', '10:00'));
      await subscribe('back@example.org');
      await t.app.jobs.tick(); // "Tomorrow?" goes live while the request waits for its confirmation
      const [confirmation] = smtp.to('back@example.org');
      expect(confirmation?.parsed.subject).toBe('Confirm your subscription to Teacher Hot Take');
      expect(smtp.to('back@example.org')).toHaveLength(1);
      expect((await subscriberRow('back@example.org')).unsubscribed_at).not.toBeNull();

      await new Visitor(t.app).post(confirmationPath(confirmation));
      expect((await subscriberRow('back@example.org')).unsubscribed_at).toBeNull();
      t.clock.set(newYorkTime('2026-11-23', '00:01'));
      await t.app.jobs.tick();
      expect(smtp.to('back@example.org').map((m) => m.parsed.subject)).toEqual([
        'Confirm your subscription to Teacher Hot Take',
        "Today's hot take: Day after?",
      ]);
    });

    it('forgets an address not confirmed within a week, waiting or refused, and its link stops working', async () => {
      await subscribeAndConfirm('kept@example.org');
      await subscribe('pending@example.org');
      await subscribe('refused@example.org');
      await t.app.jobs.sendMail();
      const link = confirmationPath(smtp.to('pending@example.org')[0]);
      await new Visitor(t.app).post(unsubscribePath(smtp.to('refused@example.org')[0]));
      expect((await subscriberRow('refused@example.org')).unsubscribed_at).not.toBeNull();

      t.clock.advance(7 * 24 * 3_600_000 + 60_000);
      const expired = await new Visitor(t.app).get(link);
      expect(expired.statusCode).toBe(404);
      expect(expired.body).toContain('This confirmation link is not valid');
      expect((await new Visitor(t.app).post(link)).statusCode).toBe(404);

      await t.app.jobs.housekeeping();
      const left = await t.db.selectFrom('subscribers').select('email').execute();
      expect(left).toEqual([{ email: 'kept@example.org' }]);
    });

    it('answers an unknown or malformed confirmation link with a clear page, not an error trace', async () => {
      await expectInvalidLinkPages(
        [
          '/subscribe/confirm?token=AAAAAAAAAAAAAAAAAAAAAAAA',
          '/subscribe/confirm',
          '/subscribe/confirm?token=<script>',
        ],
        'This confirmation link is not valid',
      );
    });
  });

  describe('addresses', () => {
    const HOSTILE = [...AUDIT_HOSTILE_ADDRESSES, 'victim@school'];

    it('refuses, everywhere an e-mail is taken, every address the browser would refuse: nothing stored, nothing sent', async () => {
      const poll = await seedPoll(t.db);
      const voter = new Visitor(t.app);
      await voter.vote(poll.id, 0);
      const before = await snapshotDatabase(t.db);
      for (const email of HOSTILE) {
        const attempts = {
          subscribe: await new Visitor(t.app).post('/api/subscribe', { email, pollId: poll.id }),
          'update-vote': await voter.post(`/api/polls/${poll.id}/update-vote`, { email }),
          vote: await new Visitor(t.app).post(`/api/polls/${poll.id}/vote`, { optionIndex: 0, voterEmail: email }),
          suggestion: await new Visitor(t.app).post('/api/poll-suggestions', {
            question: 'Q?',
            options: ['A', 'B'],
            email,
          }),
        };
        for (const [call, response] of Object.entries(attempts)) {
          expect(response.statusCode, `${call}: ${email}`).toBe(400);
          expect(response.json().message).toBeTruthy();
        }
      }
      expect(await snapshotDatabase(t.db)).toEqual(before);
      await t.app.jobs.sendMail();
      expect(smtp.delivered).toEqual([]);
    });

    it('has the transport take the address it is given as one address, never as a list', async () => {
      const transport = createMailTransport(t.config.mail, t.app.log);
      try {
        const mail = { subject: 'S', html: '<p>H</p>', text: 'T', headers: {}, messageId: '<one@hottake.example.org>' };
        await expect(
          transport.send({ ...mail, to: { name: '', address: 'victim@school.example, stranger@example.org' } }),
        ).rejects.toThrow(/recipient/i);
        await transport.send({ ...mail, to: { name: '', address: 'pat@example.org' } });
      } finally {
        transport.close();
      }
      expect(smtp.delivered.map((delivered) => delivered.to)).toEqual([['pat@example.org']]);
    });

    it('sends nothing to an address stored before addresses were checked, rather than to what a mailer reads in it', async () => {
      await seedPoll(t.db, { liveDate: '2026-11-21' });
      await seedPoll(t.db, { status: 'scheduled', liveDate: '2026-11-22' });
      const legacy = 'victim@school.example, stranger@example.org';
      await t.db
        .insertInto('subscribers')
        .values({
          email: legacy,
          created_at: '2026-01-01T00:00:00.000Z',
          confirmed_at: '2026-01-01T00:00:00.000Z',
        })
        .execute();
      t.clock.set(newYorkTime('2026-11-22', '00:01'));
      await t.app.jobs.tick();
      expect(smtp.delivered).toEqual([]);
      expect((await outboxRows()).map((row) => row.status)).toEqual(['cancelled']);
    });
  });

  describe('the daily e-mail', () => {
    it('goes out when the new day’s poll goes live at midnight: one per subscriber, with yesterday’s results', async () => {
      await seedPoll(t.db, {
        question: 'Should homework be banned?',
        options: ['Yes', 'No'],
        votes: [3, 1],
        liveDate: '2026-11-21',
      });
      await seedPoll(t.db, {
        question: 'Is a four-day week better?',
        options: ['Yes', 'No'],
        status: 'scheduled',
        liveDate: '2026-11-22',
      });
      await subscribeAndConfirm('a@example.org', 'b@example.org', 'c@example.org');
      await subscribe('pending@example.org');
      await t.app.jobs.sendMail();
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
      await subscribeAndConfirm('a@example.org');
      const staff = new Visitor(t.app);
      await staff.post('/api/admin/login', TEST_SIGN_IN);
      await staff.request({ method: 'PUT', url: `/api/admin/polls/${later.id}/activate` });
      await t.app.jobs.sendMail();
      expect(smtp.delivered.map((m) => m.parsed.subject)).toEqual(["Today's hot take: Later?"]);
    });
    it('labels the results by the poll’s own date: yesterday, earlier today, or its date', async () => {
      await seedPoll(t.db, {
        question: 'Still live from last week?',
        options: ['Yes', 'No'],
        votes: [1, 1],
        liveDate: '2026-11-14',
      });
      await seedPoll(t.db, { question: 'Due today?', status: 'scheduled', liveDate: '2026-11-21' });
      await subscribeAndConfirm('early@example.org');
      await t.app.jobs.tick();
      const [early] = smtp.to('early@example.org');
      expect(early?.parsed.text).toContain("Today's hot take (November 21, 2026):");
      expect(early?.parsed.text).toContain('Results of November 14, 2026: Still live from last week?');
      expect(early?.parsed.html).toContain('Results of November 14, 2026');

      t.clock.set(newYorkTime('2026-11-21', '11:00'));
      await subscribeAndConfirm('late@example.org');
      const staff = new Visitor(t.app);
      await staff.post('/api/admin/login', TEST_SIGN_IN);
      await staff.post('/api/admin/polls', {
        question: 'Replaced at noon?',
        options: ['Yes', 'No'],
        liveDate: '2026-11-21',
      });
      await t.app.jobs.sendMail();
      const [late] = smtp.to('late@example.org');
      expect(late?.parsed.subject).toBe("Today's hot take: Replaced at noon?");
      expect(late?.parsed.text).toContain("Results of today's earlier poll: Due today?");
      expect(late?.parsed.text).not.toContain("Yesterday's results");
      expect(smtp.to('early@example.org')).toEqual([]); // one daily e-mail a day
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
      t = await createTestAppWithMail(kind, { outbox: { maxAttempts: 3 } });
      smtp = t.smtp;
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

  describe('the links in e-mails', () => {
    /** The token of each link in an e-mail, as the mail holds them. */
    const tokensIn = (mail: Parameters<typeof unsubscribePath>[0]) =>
      [...(mail?.parsed.text ?? '').matchAll(/\?token=([A-Za-z0-9_-]+)/g)].map((match) => match[1] ?? '');

    it('are stored only as hashes, work the same, and keep working for a year after the e-mail', async () => {
      await seedPoll(t.db, { liveDate: '2026-11-21' });
      await seedPoll(t.db, { status: 'scheduled', liveDate: '2026-11-22' });
      await subscribe('pat@example.org');
      await t.app.jobs.sendMail();
      const [confirmation] = smtp.to('pat@example.org');
      await new Visitor(t.app).post(confirmationPath(confirmation));
      t.clock.set(newYorkTime('2026-11-22', '00:01'));
      await t.app.jobs.tick();
      const [, daily] = smtp.to('pat@example.org');
      expect(daily?.parsed.subject).toMatch(/^Today's hot take/);

      // Two links in the confirmation, one in the daily e-mail; none of them in the database.
      const tokens = [...tokensIn(confirmation), ...tokensIn(daily)];
      expect(new Set(tokens).size).toBe(3);
      const stored = JSON.stringify(await snapshotDatabase(t.db));
      for (const token of tokens) expect(stored).not.toContain(token);

      // Seven months on, the outbox has forgotten both e-mails; the first one's link still works.
      t.clock.set(newYorkTime('2027-06-22', '10:00'));
      await t.app.jobs.housekeeping();
      expect(await outboxRows()).toEqual([]);
      const oneClick = await t.app.inject({
        method: 'POST',
        url: unsubscribePath(confirmation),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'List-Unsubscribe=One-Click',
      });
      expect(oneClick.body).toContain('You&#39;re unsubscribed');
      expect((await subscriberRow('pat@example.org')).unsubscribed_at).not.toBeNull();
      expect((await new Visitor(t.app).get(unsubscribePath(daily))).body).toContain('You&#39;re unsubscribed');

      // A year after the daily e-mail, its link is no longer known.
      t.clock.set(newYorkTime('2027-11-22', '00:02'));
      await t.app.jobs.housekeeping();
      expect((await new Visitor(t.app).get(unsubscribePath(daily))).statusCode).toBe(404);
    });
  });

  describe('unsubscribing', () => {
    it('shows a page with a button, then unsubscribes; doing it again is fine', async () => {
      await subscribe('pat.teacher@example.org');
      await t.app.jobs.sendMail();
      const link = unsubscribePath(smtp.to('pat.teacher@example.org')[0]);
      const page = await new Visitor(t.app).get(link);
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toContain('text/html');
      expect(page.body).toContain('p***@example.org');
      expect(page.body).not.toContain('pat.teacher@');
      expect(page.body).toContain(`<form method="post" action="${link}">`);
      const nonce = /<style nonce="([^"]+)">/.exec(page.body)?.[1];
      expect(String(page.headers['content-security-policy'])).toContain(`'nonce-${nonce}'`);

      const submitted = await new Visitor(t.app).request({
        method: 'POST',
        url: link,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: '',
      });
      expect(submitted.statusCode).toBe(200);
      expect(submitted.body).toContain('You&#39;re unsubscribed');
      const first = await t.db.selectFrom('subscribers').select('unsubscribed_at').executeTakeFirstOrThrow();

      const again = await new Visitor(t.app).post(link);
      expect(again.statusCode).toBe(200);
      expect((await new Visitor(t.app).get(link)).body).toContain('You&#39;re unsubscribed');
      const second = await t.db.selectFrom('subscribers').select('unsubscribed_at').executeTakeFirstOrThrow();
      expect(second.unsubscribed_at).toEqual(first.unsubscribed_at);
    });

    it('answers an unknown or malformed token with a clear page, not an error trace', async () => {
      await expectInvalidLinkPages(
        ['/unsubscribe?token=AAAAAAAAAAAAAAAAAAAAAAAA', '/unsubscribe', '/unsubscribe?token=<script>'],
        'This unsubscribe link is not valid',
      );
    });

    it('sends nothing more to an unsubscribed address', async () => {
      await seedPoll(t.db, { liveDate: '2026-11-21' });
      await seedPoll(t.db, { status: 'scheduled', liveDate: '2026-11-22' });
      const unsubscribeLinks = await subscribeAndConfirm('gone@example.org', 'stays@example.org');
      await new Visitor(t.app).post(unsubscribeLinks.get('gone@example.org') ?? '');
      t.clock.set(newYorkTime('2026-11-22', '00:01'));
      await t.app.jobs.tick();
      expect(smtp.to('gone@example.org')).toHaveLength(0);
      expect(smtp.to('stays@example.org')).toHaveLength(1);
    });
  });

  it('reports the subscriber list and the outbox to staff', async () => {
    await subscribeAndConfirm('a@example.org', 'b@example.org');
    await subscribe('c@example.org');
    await t.app.jobs.sendMail();
    await t.db
      .updateTable('subscribers')
      .set({ unsubscribed_at: new Date().toISOString() })
      .where('email', '=', 'b@example.org')
      .execute();
    const staff = new Visitor(t.app);
    await staff.post('/api/admin/login', TEST_SIGN_IN);
    expect((await staff.get('/api/admin/mail-stats')).json()).toEqual({
      transport: 'smtp',
      subscribers: { confirmed: 1, unconfirmed: 1, unsubscribed: 1 },
      outbox: { queued: 0, sending: 0, sent: 3, failed: 0, cancelled: 0 },
    });
    expect((await new Visitor(t.app).get('/api/admin/mail-stats')).statusCode).toBe(401);
  });
});

describe('without a mail server', () => {
  it('writes each e-mail as an .eml file and logs where, without the address', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hot-take-mail-'));
    const lines: string[] = [];
    const t = await createTestApp('sqlite', {
      env: { MAIL_OUTBOX_DIR: dir },
      logStream: { write: (l) => void lines.push(l) },
    });
    try {
      await new Visitor(t.app).post('/api/subscribe', { email: 'files@example.org' });
      expect(await t.app.jobs.sendMail()).toMatchObject({ sent: 1 });
      const files = fs.readdirSync(dir);
      expect(files).toHaveLength(1);
      const eml = fs.readFileSync(path.join(dir, files[0] ?? ''), 'utf8');
      expect(eml).toContain('To: files@example.org');
      expect(eml).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
      expect(eml).toContain('Subject: Confirm your subscription to Teacher Hot Take');
      const log = lines
        .map((l) => JSON.parse(l) as { msg: string; file?: string })
        .find((l) => l.msg.startsWith('e-mail written'));
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
      const env = { SMTP_URL: smtp.url, MAIL_POSTAL_ADDRESS: '1 School Lane', SUBSCRIBE_LIMIT_PER_HOUR: '100' };
      const first = await createTestAppOn(database, { env, keepDatabase: true });
      const second = await createTestAppOn(database, { env });
      try {
        await seedPoll(first.db, { question: 'Yesterday?', liveDate: '2026-11-21' });
        await seedPoll(first.db, { question: 'Today?', status: 'scheduled', liveDate: '2026-11-22' });
        const emails = Array.from({ length: 30 }, (_, i) => `teacher${i}@example.org`);
        for (const email of emails) await new Visitor(first.app).post('/api/subscribe', { email });
        await Promise.all([first.app.jobs.sendMail(), second.app.jobs.sendMail()]);
        expect(smtp.delivered).toHaveLength(30);
        await first.db.updateTable('subscribers').set({ confirmed_at: new Date().toISOString() }).execute();
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
