import { consentText } from '../../shared/consent.js';
import { enqueueWelcome } from '../email/outbox.repository.js';
import { findPollById } from '../polls/polls.repository.js';
import type { ServiceDeps } from '../service-deps.js';
import { upsertSubscriber } from './subscriptions.repository.js';

export type SubscribeOutcome = 'subscribed' | 'poll-not-found';

export function createSubscriptionsService({ db, clock, siteName, brandName, mailQueued }: ServiceDeps) {
  return {
    /**
     * Idempotent: subscribing twice is one subscription, and the answer does not tell which.
     * A new subscription stores the consent given and queues the welcome e-mail, in one
     * transaction: no welcome without the subscription, no subscription without its welcome.
     */
    async subscribe(email: string, pollId: number | undefined): Promise<SubscribeOutcome> {
      if (pollId !== undefined && !(await findPollById(db, pollId))) return 'poll-not-found';
      const now = clock.now();
      const welcomed = await db.transaction().execute(async (trx) => {
        const subscriberId = await upsertSubscriber(trx, {
          email,
          sourcePollId: pollId ?? null,
          consentText: consentText(siteName, brandName),
          now: now.toISOString(),
        });
        if (subscriberId !== undefined) await enqueueWelcome(trx, subscriberId, now);
        return subscriberId !== undefined;
      });
      if (welcomed) mailQueued();
      return 'subscribed';
    },
  };
}

export type SubscriptionsService = ReturnType<typeof createSubscriptionsService>;
