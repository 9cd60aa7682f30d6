/**
 * The topic list the owner keeps (issue 39, item 1): read by everyone, changed by the owner
 * (`topics.manage`), each change written to the audit log in its own transaction. A rename or
 * delete moves what past polls show (their topics), so the open data is built again.
 */
import type { Topic } from '../../shared/api.js';
import { TOPICS_MAX } from '../../shared/limits.js';
import { slugOf } from '../../shared/topics.js';
import type { Db } from '../db/connection.js';
import { markPastPollsChanged } from '../polls/polls.repository.js';
import type { ServiceDeps } from '../service-deps.js';
import type { AuditWrite } from '../staff/audit.js';
import {
  countTopics,
  deleteTopic,
  findTopicById,
  findTopicBySlug,
  insertTopic,
  listTopics,
  renameTopic,
  topicTaken,
} from './topics.repository.js';

export type TopicChange =
  { outcome: 'done'; topic: { id: number; slug: string; name: string } } | { outcome: 'not-found' | 'taken' | 'full' };

export function createTopicsService({ db, clock }: Pick<ServiceDeps, 'db' | 'clock'>) {
  return {
    list: (): Promise<Topic[]> => listTopics(db),

    bySlug: (slug: string) => findTopicBySlug(db, slug),

    /** A new topic at the end of the list; its slug is made from its name, once. */
    add: (name: string, audit?: AuditWrite): Promise<TopicChange> =>
      db.transaction().execute(async (trx): Promise<TopicChange> => {
        const slug = slugOf(name);
        if ((await countTopics(trx)) >= TOPICS_MAX) return { outcome: 'full' };
        if (await topicTaken(trx, slug, name)) return { outcome: 'taken' };
        const id = await insertTopic(trx, slug, name, clock.now());
        await audit?.(trx, `topic ${id}`);
        return { outcome: 'done', topic: { id, slug, name } };
      }),

    rename: (id: number, name: string, audit?: AuditWrite): Promise<TopicChange> =>
      db.transaction().execute(async (trx: Db): Promise<TopicChange> => {
        const topic = await findTopicById(trx, id);
        if (!topic) return { outcome: 'not-found' };
        if (await topicTaken(trx, slugOf(name), name, id)) return { outcome: 'taken' };
        await renameTopic(trx, id, name);
        await markPastPollsChanged(trx);
        await audit?.(trx);
        return { outcome: 'done', topic: { ...topic, name } };
      }),

    remove: (id: number, audit?: AuditWrite): Promise<TopicChange> =>
      db.transaction().execute(async (trx: Db): Promise<TopicChange> => {
        const topic = await findTopicById(trx, id);
        if (!topic || !(await deleteTopic(trx, id))) return { outcome: 'not-found' };
        await markPastPollsChanged(trx);
        await audit?.(trx);
        return { outcome: 'done', topic };
      }),
  };
}

export type TopicsService = ReturnType<typeof createTopicsService>;
