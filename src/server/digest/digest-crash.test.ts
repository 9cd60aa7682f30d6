/**
 * The weekly digest's sender killed mid-batch, then another instance later: every subscriber
 * gets the week's e-mail exactly once. The killed process had the first message accepted and
 * was waiting for the mail server's answer to the second; its claimed rows' lease runs out and
 * the next instance sends the rest, the second included (never accepted the first time).
 */
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, expect, it } from 'vitest';
import { DEFAULT_OUTBOX_SETTINGS } from '../email/outbox.worker.js';
import { seedPoll } from '../testing/fixtures.js';
import { SmtpTestServer } from '../testing/smtp-test-server.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { queueWeek } from './digest.repository.js';

const WORKER = path.resolve(import.meta.dirname, '../testing/outbox-worker-process.ts');
const run = promisify(execFile);

let smtp: SmtpTestServer | undefined;
let dir: string | undefined;
let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  await smtp?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

it('a digest sender killed mid-batch and another instance later send each subscriber one e-mail', async () => {
  smtp = new SmtpTestServer();
  await smtp.start();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hot-take-digest-crash-'));
  const file = path.join(dir, 'site.sqlite');
  t = await createTestApp('sqlite', { env: { DATABASE_URL: file, SMTP_URL: smtp.url, MAIL_POSTAL_ADDRESS: 'x' } });
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
  const held = smtp.holdNext(1);
  const doomed = spawn(process.execPath, ['--import', 'tsx', WORKER, file, smtp.url, '0'], { stdio: 'ignore' });
  const gone = new Promise((resolve) => doomed.once('exit', resolve));
  await held;
  doomed.kill('SIGKILL');
  await gone;
  await smtp.heldSenderGone();
  smtp.release(); // too late: its connection is gone, so this copy was never accepted
  expect(smtp.delivered.map((mail) => mail.to[0])).toEqual(['a@example.org']);
  const rows = () =>
    t!.db.selectFrom('email_outbox').select(['status']).where('kind', '=', 'weekly').orderBy('id').execute();
  expect((await rows()).map((row) => row.status)).toEqual(['sent', 'sending', 'sending', 'sending']);

  // Another instance, after the lease has run out, sends the rest: each exactly once.
  const later = String(DEFAULT_OUTBOX_SETTINGS.leaseMs + 60_000);
  const { stdout } = await run(process.execPath, ['--import', 'tsx', WORKER, file, smtp.url, later]);
  expect(JSON.parse(stdout)).toMatchObject({ sent: 3 });
  const { stdout: again } = await run(process.execPath, ['--import', 'tsx', WORKER, file, smtp.url, later]);
  expect(JSON.parse(again)).toMatchObject({ sent: 0 });
  for (const email of emails) {
    const mails = smtp.to(email);
    expect(mails, email).toHaveLength(1);
    expect(mails[0]?.parsed.text).toContain('Phones locked away?\nYes: 75% of 4 votes');
  }
  expect((await rows()).map((row) => row.status)).toEqual(['sent', 'sent', 'sent', 'sent']);
  // Three Node processes started through tsx: a few seconds on a quiet machine, 20 on a busy one.
}, 120_000);
