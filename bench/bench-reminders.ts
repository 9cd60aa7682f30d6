/**
 * Push reminders (issue 28): 10,000 subscriptions due at 15:30, sent by one instance of the
 * real sender (src/server/push/reminder-sender.ts: queue, claim in batches, 64 requests in
 * flight, each encrypted and VAPID-signed by web-push) to the fake push service in another
 * process, which checks every signature and decrypts every message. Target: all 10,000 taken
 * within a minute. On SQLite, with the sender's default settings.
 */
import { fork } from 'node:child_process';
import { Agent } from 'node:https';
import path from 'node:path';
import { buildApp } from '../src/server/app.js';
import { loadConfig } from '../src/server/config.js';
import { openDatabase } from '../src/server/db/connection.js';
import { nextDueAfter } from '../src/server/push/next-due.js';
import { upsertSubscription } from '../src/server/push/reminders.repository.js';
import { seedPoll } from '../src/server/testing/fixtures.js';
import { TestClock } from '../src/server/testing/test-clock.js';
import { instantAt } from '../src/shared/time.js';

const COUNT = Number(process.env.BENCH_REMINDERS ?? 10_000);
const TARGET_SECONDS = 60;

type Subscription = { endpoint: string; keys: { p256dh: string; auth: string } };

export async function measureReminders(work: string): Promise<boolean> {
  console.log(`\nPush reminders: ${COUNT.toLocaleString('en-US')} subscriptions due at 15:30 (SQLite, one instance):`);
  const service = fork(path.join(import.meta.dirname, 'bench-push-service.ts'), [String(COUNT)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = <T>() => new Promise<T>((resolve) => service.once('message', (message) => resolve(message as T)));
  const made = performance.now();
  const { cert, subscriptions } = await next<{ origin: string; cert: string; subscriptions: Subscription[] }>();
  console.log(
    `  (the push service made ${COUNT.toLocaleString('en-US')} subscriptions' keys in ${((performance.now() - made) / 1000).toFixed(1)} s)`,
  );

  const file = path.join(work, 'reminders.sqlite');
  const teaTime = instantAt('2026-11-23', { hours: 15, minutes: 30 }, 'America/New_York');
  const clock = new TestClock(new Date(teaTime.getTime() - 3_600_000));
  const config = loadConfig({
    DATABASE_URL: file,
    SITE_TIMEZONE: 'America/New_York',
    PUSH_SERVICE_HOSTS: 'localhost',
    ADMIN_PASSWORD: 'correct horse battery staple',
    LOG_LEVEL: 'silent',
  });
  const db = openDatabase(config.database);
  const app = await buildApp({
    config,
    db,
    clock,
    pushAgent: new Agent({ ca: cert, keepAlive: true, maxSockets: 64 }),
  });
  try {
    await seedPoll(db, { liveDate: '2026-11-23' });
    const settings = { timeOfDay: '15:30', timeZone: 'America/New_York', days: [1, 2, 3, 4, 5], pausedUntil: null };
    const due = nextDueAfter(clock.now(), settings);
    await db.transaction().execute(async (trx) => {
      for (const [i, s] of subscriptions.entries()) {
        await upsertSubscription(
          trx,
          { voterId: `bench-voter-${i}`, endpoint: s.endpoint, ...s.keys, settings },
          due,
          clock.now(),
        );
      }
    });
    const { applicationServerKey } = (await app.inject({ method: 'GET', url: '/api/reminders' })).json<{
      applicationServerKey: string;
    }>();
    service.send({ expectedKey: applicationServerKey });
    await next();

    clock.set(teaTime);
    const started = performance.now();
    const round = await app.jobs.sendReminders();
    const seconds = (performance.now() - started) / 1000;
    service.send({ tally: true });
    const { taken, refused } = await next<{ taken: number; refused: number }>();
    const rate = taken / seconds;
    console.log(
      `  queued ${round.queued}, sent ${round.sent}, retried ${round.retried}, failed ${round.failed}; ` +
        `the service took ${taken} (checked and decrypted), refused ${refused}`,
    );
    console.log(`  all sent in ${seconds.toFixed(1)} s: ${Math.round(rate).toLocaleString('en-US')} reminders/s`);
    const met = taken === COUNT && refused === 0 && seconds < TARGET_SECONDS;
    console.log(
      `  ${'Reminders: seconds to send all'.padEnd(72)} ${seconds.toFixed(2).padStart(6)}   target < ${TARGET_SECONDS}   ${met ? 'met' : 'MISSED'}\n`,
    );
    return met;
  } finally {
    await app.close();
    await db.destroy();
    service.send({ stop: true });
  }
}
