/**
 * A process killed while sending, then restarted: the message arrives once. A message counts as
 * delivered when the mail server accepts it; the killed process had not got that answer, so
 * its lease runs out and the next instance sends it, and only that copy is accepted.
 */
import { afterEach, expect, it } from 'vitest';
import { OutboxCrash } from '../testing/outbox-crash.js';
import { Visitor } from '../testing/visitor.js';

let crash: OutboxCrash | undefined;
afterEach(() => crash?.close());

it('a process killed mid-send and restarted sends no duplicate', async () => {
  crash = await OutboxCrash.start();
  const { t, smtp } = crash;
  await new Visitor(t.app).post('/api/subscribe', { email: 'once@example.org' });

  // The first instance sends, and is killed while the mail server has not answered yet.
  await crash.killMidSend();
  expect(smtp.delivered).toEqual([]);
  const claimed = await t.db.selectFrom('email_outbox').select(['status', 'attempts']).executeTakeFirstOrThrow();
  expect(claimed).toEqual({ status: 'sending', attempts: 1 });

  // Another instance, after the lease has run out, sends it: exactly once.
  expect(await crash.sendLater()).toMatchObject({ sent: 1 });
  expect(await crash.sendLater()).toMatchObject({ sent: 0 });
  expect(smtp.to('once@example.org')).toHaveLength(1);
  const sent = await t.db.selectFrom('email_outbox').select(['status', 'attempts']).executeTakeFirstOrThrow();
  expect(sent).toEqual({ status: 'sent', attempts: 2 });
  // Three Node processes started through tsx: a few seconds on a quiet machine, 20 on a busy one.
}, 60_000);
