/** The only place SQL about the topic list lives (issue 39); which polls have which is polls/poll-topics.repository.ts. */
import { sql } from 'kysely';
import type { Topic } from '../../shared/api.js';
import type { Db } from '../db/connection.js';

/** The list in its order, each with how many past polls it has. */
export async function listTopics(db: Db): Promise<Topic[]> {
  const rows = await db
    .selectFrom('topics')
    .select(['id', 'slug', 'name'])
    .select(
      sql<number | string>`(select count(*) from poll_topics t join polls p on p.id = t.poll_id
        where t.topic_id = topics.id and p.status = 'past')`.as('past_polls'),
    )
    .orderBy('position')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ id: row.id, slug: row.slug, name: row.name, pastPolls: Number(row.past_polls) }));
}

export async function findTopicBySlug(
  db: Db,
  slug: string,
): Promise<{ id: number; slug: string; name: string } | undefined> {
  return db.selectFrom('topics').select(['id', 'slug', 'name']).where('slug', '=', slug).executeTakeFirst();
}

export async function findTopicById(
  db: Db,
  id: number,
): Promise<{ id: number; slug: string; name: string } | undefined> {
  return db.selectFrom('topics').select(['id', 'slug', 'name']).where('id', '=', id).executeTakeFirst();
}

export async function countTopics(db: Db): Promise<number> {
  const row = await db
    .selectFrom('topics')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return row.n;
}

/** Whether a topic other than `exceptId` has this slug or name (names compared without case). */
export async function topicTaken(db: Db, slug: string, name: string, exceptId = 0): Promise<boolean> {
  const row = await db
    .selectFrom('topics')
    .select('id')
    .where((eb) => eb.or([eb('slug', '=', slug), eb(eb.fn('lower', ['name']), '=', name.toLowerCase())]))
    .where('id', '!=', exceptId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Adds a topic at the end of the list. */
export async function insertTopic(db: Db, slug: string, name: string, now: Date): Promise<number> {
  const last = await db
    .selectFrom('topics')
    .select((eb) => eb.fn.max('position').as('position'))
    .executeTakeFirst();
  const row = await db
    .insertInto('topics')
    .values({ slug, name, position: (last?.position ?? -1) + 1, created_at: now.toISOString() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A new name; the slug stays, so every link to the topic keeps working. */
export async function renameTopic(db: Db, id: number, name: string): Promise<boolean> {
  const result = await db.updateTable('topics').set({ name }).where('id', '=', id).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Deletes a topic: polls lose it, suggestions that named it name none. */
export async function deleteTopic(db: Db, id: number): Promise<boolean> {
  await db.deleteFrom('poll_topics').where('topic_id', '=', id).execute();
  await db.updateTable('poll_suggestions').set({ topic_id: null }).where('topic_id', '=', id).execute();
  const result = await db.deleteFrom('topics').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}
