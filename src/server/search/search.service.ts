/**
 * Search over past polls (issue 39, item 2): the words of a query (shared/topics.ts,
 * searchTerms), a topic and a year to filter by, a page of results ranked by the database
 * (search.repository.ts), each with its topics. Searches run in turns, a few at once and the
 * rest waiting in line (503 when the line is full), like drawing pages: a flood of distinct
 * queries, none of which any cache can answer, then holds up only itself, never /healthz or the
 * pages people read.
 */
import type { SearchResults, TopicRef } from '../../shared/api.js';
import { SEARCH_PAGE_SIZE } from '../../shared/limits.js';
import { searchTerms, type SearchQuery } from '../../shared/topics.js';
import { DrawingTurns } from '../pages/drawing-turns.js';
import { topicsOfPolls } from '../polls/poll-topics.repository.js';
import type { ServiceDeps } from '../service-deps.js';
import { findTopicBySlug, listTopics } from '../topics/topics.repository.js';
import { pastPollYears, searchPastPolls } from './search.repository.js';

/** Searches run at once, and waiting for their turn before more are refused. */
export const SEARCHES_AT_ONCE = 2;
export const SEARCHES_MAX_WAITING = 50;

/** How long the search form's choices (topics, years) are kept: the longest a new topic waits to be offered. */
export const CHOICES_MAX_AGE_MS = 1000;

type Choices = { topics: (TopicRef & { pastPolls: number })[]; years: number[] };

export function createSearchService({ db, clock }: Pick<ServiceDeps, 'db' | 'clock'>) {
  const turns = new DrawingTurns(SEARCHES_AT_ONCE, SEARCHES_MAX_WAITING);
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
      const { total, rows } = await turns.take(() =>
        searchPastPolls(db, {
          terms,
          topicId: topic?.id,
          year: query.year,
          limit: SEARCH_PAGE_SIZE,
          offset: (query.page - 1) * SEARCH_PAGE_SIZE,
        }),
      );
      const topics = await topicsOfPolls(
        db,
        rows.map((row) => row.id),
      );
      return {
        ...answer,
        total,
        results: rows.map((row) => ({ ...row, topics: topics.get(row.id) ?? [] })),
      };
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
  };
}

export type SearchService = ReturnType<typeof createSearchService>;
