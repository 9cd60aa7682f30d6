/**
 * Search over past polls (issue 39, item 2): the words of a query (shared/topics.ts,
 * searchTerms), a topic and a year to filter by, a page of results ranked by the database
 * (search.repository.ts), each with its topics. On a SQLite file the search runs in a worker
 * thread on a read-only connection of its own (search-thread.ts), so the site's connection and
 * main thread stay free for /healthz and the pages; on PostgreSQL (asynchronous, a pool) and
 * SQLite in memory, here. Searches run in turns, the rest waiting in a short line (503 when it
 * is full), like drawing pages: a flood of distinct queries, none of which any cache can
 * answer, then holds up only itself.
 */
import type { SearchResults, TopicRef } from '../../shared/api.js';
import { SEARCH_PAGE_SIZE } from '../../shared/limits.js';
import { searchTerms, type SearchQuery } from '../../shared/topics.js';
import { DrawingTurns } from '../pages/drawing-turns.js';
import type { ServiceDeps } from '../service-deps.js';
import { findTopicBySlug, listTopics } from '../topics/topics.repository.js';
import { sqliteFileOf } from '../db/connection.js';
import { findPastPolls, pastPollYears, type SearchFilter } from './search.repository.js';
import { SearchThread } from './search-thread.js';

/**
 * Searches run at once (in the thread, one: it runs one at a time anyway), and waiting for their
 * turn before more are refused.
 */
export const SEARCHES_AT_ONCE = 2;
export const SEARCHES_MAX_WAITING = 32;

/** How long the search form's choices (topics, years) are kept: the longest a new topic waits to be offered. */
export const CHOICES_MAX_AGE_MS = 1000;

type Choices = { topics: (TopicRef & { pastPolls: number })[]; years: number[] };

export function createSearchService({ db, clock }: Pick<ServiceDeps, 'db' | 'clock'>) {
  const file = sqliteFileOf(db);
  const thread = file === undefined ? undefined : new SearchThread(file);
  const turns = new DrawingTurns(thread ? 1 : SEARCHES_AT_ONCE, SEARCHES_MAX_WAITING);
  const find = (filter: SearchFilter) => (thread ? thread.search(filter) : findPastPolls(db, filter));
  let kept: { at: number; choices: Promise<Choices> } | undefined;

  async function readChoices(): Promise<Choices> {
    const [topics, years] = await Promise.all([listTopics(db), pastPollYears(db)]);
    return { topics: topics.map(({ slug, name, pastPolls }) => ({ slug, name, pastPolls })), years };
  }

  return {
    /** A page of results; undefined when the topic asked for is no topic. */
    async search(query: SearchQuery): Promise<SearchResults | undefined> {
      const terms = searchTerms(query.q);
      let topic: (TopicRef & { id: number }) | undefined;
      if (query.topic !== undefined) {
        topic = await findTopicBySlug(db, query.topic);
        if (!topic) return undefined;
      }
      const answer: SearchResults = {
        terms,
        topic: topic ? { slug: topic.slug, name: topic.name } : null,
        year: query.year ?? null,
        page: query.page,
        total: 0,
        results: [],
      };
      if (terms.length === 0) return answer;
      const { total, hits } = await turns.take(() =>
        find({
          terms,
          topicId: topic?.id,
          year: query.year,
          limit: SEARCH_PAGE_SIZE,
          offset: (query.page - 1) * SEARCH_PAGE_SIZE,
        }),
      );
      return { ...answer, total, results: hits };
    },

    /**
     * What the search form offers: the topics and the years with past polls, read at most once
     * a second, so every search page does not read them again.
     */
    choices(): Promise<Choices> {
      const now = clock.now().getTime();
      if (!kept || now - kept.at >= CHOICES_MAX_AGE_MS || now < kept.at) {
        const reading = { at: now, choices: readChoices() };
        kept = reading;
        reading.choices.catch(() => {
          if (kept === reading) kept = undefined;
        });
      }
      return kept.choices;
    },

    /** Stops the search thread, if one started. */
    close: (): Promise<void> => thread?.close() ?? Promise.resolve(),
  };
}

export type SearchService = ReturnType<typeof createSearchService>;
