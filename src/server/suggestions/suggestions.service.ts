/**
 * Suggestions from visitors, and staff's review of them. Anyone may suggest, so new suggestions
 * are limited per client address and hour, counted in the database for every instance; staff
 * read the lists a page at a time, so a flood that got through still opens in the panel.
 */
import type { Db } from '../db/connection.js';
import { suggestionPlaceText, type SuggestionPlace, type SuggestionRequest } from '../../shared/schemas.js';
import type { AdminSuggestion, SuggestionsPage } from '../../shared/api.js';
import { addressLimit, hitAddressLimit } from '../http/address-limits.js';
import type { CountReport } from '../http/limit-headers.js';
import type { ServiceDeps } from '../service-deps.js';
import {
  countSuggestions,
  deleteSuggestion,
  insertSuggestion,
  placeIn,
  setSuggestionStatus,
  suggestionsPage,
  type SuggestionList,
} from './suggestions.repository.js';
import { HOUR_MS } from '../../shared/time.js';
import { topicIdsOf } from '../polls/poll-topics.repository.js';

/** Suggestions read per query when the whole list is sent (the answer without `limit`). */
const WHOLE_LIST_PAGE_SIZE = 500;

export interface SuggestionSettings {
  /** New suggestions per client address and hour; 0 turns the limit off. */
  perAddressPerHour: number;
}

export type SubmitOutcome =
  | { outcome: 'submitted'; id: number }
  | { outcome: 'rate-limited'; retryAfterMs: number }
  | { outcome: 'topic-unknown' };

/** The id of the topic with this slug, null for none, undefined when no topic has it. */
async function topicIdOf(db: Db, slug: string | undefined): Promise<number | null | undefined> {
  if (slug === undefined) return null;
  return (await topicIdsOf(db, [slug]))?.[0];
}

export function createSuggestionsService(
  { db, clock, keyedHash }: ServiceDeps,
  { perAddressPerHour }: SuggestionSettings,
) {
  return {
    /**
     * Stores a visitor's suggestion for staff to review, unless its client address has sent
     * its hour's share. The count and the suggestion are written together: a suggestion that
     * fails to be stored is not counted.
     */
    async submit(suggestion: SuggestionRequest, clientAddress: string, report?: CountReport): Promise<SubmitOutcome> {
      const now = clock.now();
      const limit = await addressLimit(keyedHash, {
        kind: 'suggest',
        address: clientAddress,
        max: perAddressPerHour,
        windowMs: HOUR_MS,
      });
      return db.transaction().execute(async (trx): Promise<SubmitOutcome> => {
        if (perAddressPerHour > 0) {
          const hit = await hitAddressLimit(trx, limit, now, report);
          if (!hit.allowed) return { outcome: 'rate-limited', retryAfterMs: hit.retryAfterMs };
        }
        const topicId = await topicIdOf(trx, suggestion.topic);
        if (topicId === undefined) return { outcome: 'topic-unknown' };
        const id = await insertSuggestion(
          trx,
          {
            question: suggestion.question,
            options: suggestion.options,
            suggestedBy: suggestion.suggestedBy ?? null,
            email: suggestion.email ?? null,
            topicId,
          },
          now.toISOString(),
        );
        return { outcome: 'submitted', id };
      });
    },

    /**
     * For staff: one page of a list, newest first, after the page that ended at `after`; with
     * `emails` (the owner), the suggesters' e-mails.
     */
    async page(
      list: SuggestionList,
      {
        after,
        limit,
        emails,
        topic,
      }: { after: SuggestionPlace | undefined; limit: number; emails: boolean; topic?: string | undefined },
    ): Promise<SuggestionsPage | undefined> {
      const topicId = topic === undefined ? undefined : await topicIdOf(db, topic);
      if (topicId === undefined && topic !== undefined) return undefined;
      const byTopic = topicId ?? undefined;
      // One more than asked for says whether another page follows.
      const [found, total] = await Promise.all([
        suggestionsPage(db, { list, after, limit: limit + 1, emails, topicId: byTopic }),
        countSuggestions(db, list, byTopic),
      ]);
      const suggestions = found.slice(0, limit);
      const last = suggestions.at(-1);
      const next = found.length > limit && last ? suggestionPlaceText(placeIn(list, last)) : null;
      return { suggestions, total, next };
    },

    /** For staff: every suggestion, newest first, read a page at a time. */
    async *all(emails: boolean): AsyncGenerator<AdminSuggestion[]> {
      let after: SuggestionPlace | undefined;
      for (;;) {
        const page = await suggestionsPage(db, { list: 'all', after, limit: WHOLE_LIST_PAGE_SIZE, emails });
        if (page.length > 0) yield page;
        const last = page.at(-1);
        if (!last || page.length < WHOLE_LIST_PAGE_SIZE) return;
        after = placeIn('all', last);
      }
    },

    /** Approves or rejects; `audit` writes its row in the same transaction, only when it changed something. */
    review: (id: number, status: 'approved' | 'rejected', audit?: (trx: Db) => Promise<void>) =>
      db.transaction().execute(async (trx) => {
        const done = await setSuggestionStatus(trx, id, status, clock.now().toISOString());
        if (done) await audit?.(trx);
        return done;
      }),

    remove: (id: number, audit?: (trx: Db) => Promise<void>) =>
      db.transaction().execute(async (trx) => {
        const done = await deleteSuggestion(trx, id);
        if (done) await audit?.(trx);
        return done;
      }),
  };
}

export type SuggestionsService = ReturnType<typeof createSuggestionsService>;
