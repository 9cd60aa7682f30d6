/** What staff see of e-mail in Utilities: the transport, subscribers by state, the outbox by state. */
import type { Db } from '../db/connection.js';
import type { MailTransport } from '../email/mail-transport.js';
import { outboxCounts } from '../email/outbox.repository.js';
import { subscriberCounts } from '../subscriptions/subscriptions.repository.js';

export function createMailStats(db: Db, transport: MailTransport['kind']) {
  return async () => ({ transport, subscribers: await subscriberCounts(db), outbox: await outboxCounts(db) });
}
