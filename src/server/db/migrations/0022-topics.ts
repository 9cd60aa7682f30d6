import type { Kysely } from 'kysely';
import { columnTypes } from './column-types.js';

/**
 * Topics (issue 39, items 1 and 5): a short list the owner keeps, each poll given one or more
 * (poll_topics), and a visitor's suggestion may name one. Seeded with the list the issue names;
 * `position` is the order people see them in. Deleting a topic takes it off its polls and
 * suggestions first (topics/topics.repository.ts).
 */
export const SEEDED_TOPICS = [
  ['workload', 'Workload'],
  ['pay-and-conditions', 'Pay and conditions'],
  ['behaviour', 'Behaviour'],
  ['curriculum-and-assessment', 'Curriculum and assessment'],
  ['technology-and-ai', 'Technology and AI'],
  ['leadership', 'Leadership'],
  ['wellbeing', 'Wellbeing'],
  ['policy', 'Policy'],
] as const;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('topics')
    .addColumn('id', t.id, t.idConstraints)
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('poll_topics')
    .addColumn('poll_id', 'integer', (c) => c.notNull().references('polls.id').onDelete('cascade'))
    .addColumn('topic_id', 'integer', (c) => c.notNull().references('topics.id'))
    .addPrimaryKeyConstraint('poll_topics_pk', ['poll_id', 'topic_id'])
    .execute();
  await db.schema.createIndex('poll_topics_topic').on('poll_topics').columns(['topic_id', 'poll_id']).execute();
  await db.schema
    .alterTable('poll_suggestions')
    .addColumn('topic_id', 'integer', (c) => c.references('topics.id'))
    .execute();
  const now = new Date().toISOString();
  await db
    .insertInto('topics')
    .values(SEEDED_TOPICS.map(([slug, name], position) => ({ slug, name, position, created_at: now })))
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('poll_suggestions').dropColumn('topic_id').execute();
  await db.schema.dropTable('poll_topics').execute();
  await db.schema.dropTable('topics').execute();
}
