import { findPollById } from '../polls/polls.repository.js';
import type { ServiceDeps } from '../service-deps.js';
import { upsertSubscriber } from './subscriptions.repository.js';

export type SubscribeOutcome = 'subscribed' | 'poll-not-found';

export function createSubscriptionsService({ db, clock }: ServiceDeps) {
  return {
    /** Idempotent: subscribing twice is one subscription, and the answer does not tell which. */
    async subscribe(email: string, pollId: number | undefined): Promise<SubscribeOutcome> {
      if (pollId !== undefined && !(await findPollById(db, pollId))) return 'poll-not-found';
      await upsertSubscriber(db, { email, sourcePollId: pollId ?? null, now: clock.now().toISOString() });
      return 'subscribed';
    },
  };
}

export type SubscriptionsService = ReturnType<typeof createSubscriptionsService>;
