/**
 * A process killed while sending, then restarted: the message arrives once. A message counts as
 * delivered when the mail server accepts it; the killed process had not got that answer, so
 * its lease runs out and the next instance sends it, and only that copy is accepted.
 */
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, expect, it } from 'vitest';
import { DEFAULT_OUTBOX_SETTINGS } from './outbox.worker.js';
import { SmtpTestServer } from '../testing/smtp-test-server.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { Visitor } from '../testing/visitor.js';

const WORKER = path.resolve(import.meta.dirname, '../testing/outbox-worker-process.ts');

let smtp: SmtpTestServer | undefined;
let dir: string | undefined;
let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  await smtp?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

it('a process killed mid-send and restarted sends no duplicate', async () => {
  smtp = new SmtpTestServer();
  await smtp.start();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hot-take-crash-'));
  const file = path.join(dir, 'site.sqlite');
  t = await createTestApp('sqlite', { env: { DATABASE_URL: file, SMTP_URL: smtp.url, MAIL_POSTAL_ADDRESS: 'x' } });
  await new Visitor(t.app).post('/api/subscribe', { email: 'once@example.org' });

  // The first instance sends, and is killed while the mail server has not answered yet.
  const held = smtp.holdNext();
  const doomed = spawn(process.execPath, ['--import', 'tsx', WORKER, file, smtp.url, '0'], { stdio: 'ignore' });
  const gone = new Promise((resolve) => doomed.once('exit', resolve));
  await held;
  doomed.kill('SIGKILL');
  await gone;
  await smtp.heldSenderGone();
  smtp.release(); // too late: its connection is gone, so this copy was never accepted
  expect(smtp.delivered).toEqual([]);
  const claimed = await t.db.selectFrom('email_outbox').select(['status', 'attempts']).executeTakeFirstOrThrow();
  expect(claimed).toEqual({ status: 'sending', attempts: 1 });

  // Another instance, after the lease has run out, sends it: exactly once.
  const later = String(DEFAULT_OUTBOX_SETTINGS.leaseMs + 60_000);
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', WORKER, file, smtp.url, later]);
  expect(JSON.parse(stdout)).toMatchObject({ sent: 1 });
  const { stdout: again } = await promisify(execFile)(process.execPath, [
    '--import',
    'tsx',
    WORKER,
    file,
    smtp.url,
    later,
  ]);
  expect(JSON.parse(again)).toMatchObject({ sent: 0 });
  expect(smtp.to('once@example.org')).toHaveLength(1);
  const sent = await t.db.selectFrom('email_outbox').select(['status', 'attempts']).executeTakeFirstOrThrow();
  expect(sent).toEqual({ status: 'sent', attempts: 2 });
  // Three Node processes started through tsx: a few seconds on a quiet machine, 20 on a busy one.
}, 60_000);
