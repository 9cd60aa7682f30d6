/**
 * The weekly digest's sender killed mid-batch, then another instance later: every subscriber
 * gets the week's e-mail exactly once. The killed process had the first message accepted and
 * was waiting for the mail server's answer to the second; its claimed rows' lease runs out and
 * the next instance sends the rest, the second included (never accepted the first time).
 */
import { afterEach, expect, it } from 'vitest';
import { OutboxCrash } from '../testing/outbox-crash.js';
import { seedPoll } from '../testing/fixtures.js';
import { queueWeek } from './digest.repository.js';

let crash: OutboxCrash | undefined;
afterEach(() => crash?.close());

it('a digest sender killed mid-batch and another instance later send each subscriber one e-mail', async () => {
  crash = await OutboxCrash.start();
  const { t, smtp } = crash;
  await seedPoll(t.db, { question: 'Phones locked away?', liveDate: '2026-11-16', status: 'past', votes: [3, 1, 0] });
  const at = new Date().toISOString();
  const emails = ['a@example.org', 'b@example.org', 'c@example.org', 'd@example.org'];
  await t.db
    .insertInto('subscribers')
    .values(emails.map((email) => ({ email, created_at: at, confirmed_at: at, wants_daily: 0, wants_weekly: 1 })))
    .execute();
  expect(await queueWeek(t.db, '2026-W47', new Date())).toBe(true);
  expect(await queueWeek(t.db, '2026-W47', new Date())).toBe(false); // a second instance's tick

  // The first instance sends one, then is killed while the server has not answered the second.
  await crash.killMidSend(1);
  expect(smtp.delivered.map((mail) => mail.to[0])).toEqual(['a@example.org']);
  const rows = () =>
    t.db.selectFrom('email_outbox').select(['status']).where('kind', '=', 'weekly').orderBy('id').execute();
  expect((await rows()).map((row) => row.status)).toEqual(['sent', 'sending', 'sending', 'sending']);

  // Another instance, after the lease has run out, sends the rest: each exactly once.
  expect(await crash.sendLater()).toMatchObject({ sent: 3 });
  expect(await crash.sendLater()).toMatchObject({ sent: 0 });
  for (const email of emails) {
    const mails = smtp.to(email);
    expect(mails, email).toHaveLength(1);
    expect(mails[0]?.parsed.text).toContain('Phones locked away?\nYes: 75% of 4 votes');
  }
  expect((await rows()).map((row) => row.status)).toEqual(['sent', 'sent', 'sent', 'sent']);
  // Three Node processes started through tsx: a few seconds on a quiet machine, 20 on a busy one.
}, 120_000);
