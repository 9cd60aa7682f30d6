/** Topics and the polls given them (issue 39); the search index is read and written as raw SQL (search/). */
import type { Generated } from 'kysely';
import type { Timestamp } from './time.js';

export interface TopicsTable {
  id: Generated<number>;
  /** The topic's address: /topics/<slug>. */
  slug: string;
  name: string;
  /** The order people see the list in. */
  position: number;
  created_at: Timestamp;
}

export interface PollTopicsTable {
  poll_id: number;
  topic_id: number;
}

/**
 * The search index (migration 0023), one row per poll: an FTS5 table on SQLite (its rowid the
 * poll's id), a table keyed by poll_id with a generated tsvector on PostgreSQL. Only these
 * columns are common to both; it is read and written with raw SQL (db/search-index.ts, search/).
 */
export interface PollSearchTable {
  question: string;
  description: string;
  note: string;
}
