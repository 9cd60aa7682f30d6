/**
 * A sender killed between sending a reminder and recording it: the push service got the message,
 * the database still says "sending". When the lease runs out another sender sends it again, with
 * the same Topic (the push service replaces an undelivered first copy) and the same notification
 * tag (a delivered first copy is replaced on the screen): the teacher sees one reminder.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { instantAt } from '../../shared/time.js';
import { seedPoll } from '../testing/fixtures.js';
import { FakePushService, type ReceivedMessage } from '../testing/fake-push-service.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { Visitor } from '../testing/visitor.js';
import { DEFAULT_SENDER_SETTINGS } from './reminder-sender.js';

const SENDER = path.resolve(import.meta.dirname, '../testing/reminder-sender-process.ts');

let push: FakePushService | undefined;
let dir: string | undefined;
let t: TestApp | undefined;
let release: () => void = () => {};
afterEach(async () => {
  release();
  await t?.close();
  await push?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

it('a sender killed before it records a send is followed by one resend with the same topic and tag', async () => {
  push = new FakePushService();
  await push.start();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hot-take-push-crash-'));
  const file = path.join(dir, 'site.sqlite');
  const ca = path.join(dir, 'push-ca.pem');
  fs.writeFileSync(ca, push.certificate.cert);
  const teaTime = instantAt('2026-11-23', { hours: 15, minutes: 30 }, 'America/New_York');
  t = await createTestApp('sqlite', {
    env: { DATABASE_URL: file, PUSH_SERVICE_HOSTS: push.host },
    pushAgent: push.agent(),
    now: new Date(teaTime.getTime() - 3_600_000),
  });
  await seedPoll(t.db);
  const subscription = push.subscribe();
  const visitor = new Visitor(t.app);
  push.expectedKey = (await visitor.get('/api/reminders')).json<{
    applicationServerKey: string;
  }>().applicationServerKey;
  expect(
    (await visitor.post('/api/reminders', { subscription: subscription.json, timeZone: 'America/New_York' }))
      .statusCode,
  ).toBe(201);

  // The first sender's message arrives; its answer is held back, and the sender is killed.
  let arrived: (message: ReceivedMessage) => void = () => {};
  const first = new Promise<ReceivedMessage>((resolve) => (arrived = resolve));
  push.hold = (message) => {
    arrived(message);
    return new Promise<void>((resolve) => (release = resolve));
  };
  const doomed = spawn(process.execPath, ['--import', 'tsx', SENDER, file, teaTime.toISOString()], {
    stdio: 'ignore',
    env: { ...process.env, NODE_EXTRA_CA_CERTS: ca },
  });
  const exited = new Promise((resolve) => doomed.once('exit', resolve));
  await first;
  doomed.kill('SIGKILL');
  await exited;
  push.hold = undefined;
  const row = () => t!.db.selectFrom('push_reminders').select(['status', 'attempts']).executeTakeFirstOrThrow();
  expect(await row()).toEqual({ status: 'sending', attempts: 1 });

  // Before the lease runs out nobody sends it again; after, one sender does, and records it.
  t.clock.set(new Date(teaTime.getTime() + DEFAULT_SENDER_SETTINGS.leaseMs - 1000));
  expect(await t.app.jobs.sendReminders()).toMatchObject({ sent: 0 });
  t.clock.set(new Date(teaTime.getTime() + DEFAULT_SENDER_SETTINGS.leaseMs));
  expect(await t.app.jobs.sendReminders()).toMatchObject({ sent: 1 });
  expect(await row()).toEqual({ status: 'sent', attempts: 2 });
  expect(await t.app.jobs.sendReminders()).toMatchObject({ sent: 0 });

  const messages = push.messagesFor(subscription.id);
  expect(messages).toHaveLength(2);
  const [a, b] = messages;
  expect(a?.vapid.ok && b?.vapid.ok).toBe(true);
  expect(b?.topic).toBe(a?.topic);
  expect(b?.payload?.tag).toBe(a?.payload?.tag);
  expect(a?.payload?.tag).toBe('reminder-2026-11-23');
});
