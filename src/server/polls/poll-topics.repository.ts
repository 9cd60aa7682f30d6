/** The only place SQL about which topics polls have lives (issue 39); the list itself is topics/. */
import type { TopicRef } from '../../shared/api.js';
import type { Db } from '../db/connection.js';
import { markPastPollsChanged } from './polls.repository.js';

/** Each poll's topics, in the list's order; a poll without any maps to []. */
export async function topicsOfPolls(db: Db, pollIds: readonly number[]): Promise<Map<number, TopicRef[]>> {
  const byPoll = new Map<number, TopicRef[]>(pollIds.map((id) => [id, []]));
  if (pollIds.length === 0) return byPoll;
  // In slices, so a listing of 10,000 polls stays under every database's parameter limit.
  for (let start = 0; start < pollIds.length; start += 500) {
    const rows = await db
      .selectFrom('poll_topics')
      .innerJoin('topics', 'topics.id', 'poll_topics.topic_id')
      .select(['poll_topics.poll_id', 'topics.slug', 'topics.name'])
      .where('poll_topics.poll_id', 'in', pollIds.slice(start, start + 500))
      .orderBy('topics.position')
      .orderBy('topics.id')
      .execute();
    for (const row of rows) byPoll.get(row.poll_id)?.push({ slug: row.slug, name: row.name });
  }
  return byPoll;
}

/** The ids of the topics with these slugs; undefined when any slug is no topic's. */
export async function topicIdsOf(db: Db, slugs: readonly string[]): Promise<number[] | undefined> {
  const unique = [...new Set(slugs)];
  if (unique.length === 0) return [];
  const rows = await db.selectFrom('topics').select('id').where('slug', 'in', unique).execute();
  return rows.length === unique.length ? rows.map((row) => row.id) : undefined;
}

/** Gives a poll exactly these topics. Run it in the change's transaction: what past polls show moves with it. */
export async function setPollTopics(db: Db, pollId: number, topicIds: readonly number[]): Promise<void> {
  await markPastPollsChanged(db);
  await db.deleteFrom('poll_topics').where('poll_id', '=', pollId).execute();
  if (topicIds.length === 0) return;
  await db
    .insertInto('poll_topics')
    .values(topicIds.map((topic_id) => ({ poll_id: pollId, topic_id })))
    .execute();
}
