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
