/**
 * Topics (issue 39, item 1). Public: the list (GET /api/topics), a topic's page
 * (/topics/<slug>, written by the server), its Atom feed (/topics/<slug>/feed.xml) and its open
 * data (/data/topics/<slug>.json). Staff: the owner adds, renames and deletes topics
 * (`topics.manage`), each change audited in its own transaction.
 */
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { Topic, TopicChangeAnswer } from '../../shared/api.js';
import { topic, topicChange } from '../../shared/schemas/topic-answers.js';
import { z } from '../../shared/zod.js';
import { OPEN_DATA_LICENSE } from '../../shared/open-data.js';
import { topicIdParams } from '../../shared/schemas.js';
import { TOPIC_SLUG, topicRequest } from '../../shared/topics.js';
import type { Clock } from '../clock.js';
import { sendBuilt } from '../http/built-document.js';
import { badRequest, conflict, notFound, type HttpError } from '../http/errors.js';
import type { OpenDataService } from '../open-data/open-data.service.js';
import { sendSitePage, type SitePageSite } from '../pages/site-page.js';
import type { AdminAuth } from '../staff/admin-auth.service.js';
import { staffApi } from '../staff/admin-guard.js';
import { auditedChanges } from '../staff/staff-calls.js';
import { noSuchTopicPage, topicPage } from './topic-page.js';
import type { TopicChange, TopicsService } from './topics.service.js';
import { TOPICS_MAX } from '../../shared/limits.js';

/** A slug from the address, or null when it cannot be one (so it is no topic's). */
const slugIn = (value: string) => (value.length <= 60 && TOPIC_SLUG.test(value) ? value : null);

const openToAll = (reply: FastifyReply) =>
  reply
    .header('access-control-allow-origin', '*')
    .header('cross-origin-resource-policy', 'cross-origin')
    .header('link', `<${OPEN_DATA_LICENSE.url}>; rel="license"`);

export const topicsRoutes: FastifyPluginAsync<{
  topics: TopicsService;
  openData: OpenDataService;
  site: SitePageSite;
}> = async (app, { topics, openData, site }) => {
  app.get(
    '/api/topics',
    { schema: { summary: 'The topics polls are filed under', response: { 200: z.array(topic) } } },
    async (_request, reply): Promise<Topic[]> => {
      reply.header('cache-control', 'no-cache');
      return topics.list();
    },
  );

  app.get<{ Params: { slug: string } }>('/topics/:slug', async (request, reply) => {
    const slug = slugIn(request.params.slug);
    const topic = slug === null ? undefined : await topics.bySlug(slug);
    if (!topic) return sendSitePage(reply, { site, ...noSuchTopicPage(slug ?? 'unknown') });
    return sendSitePage(reply, { site, ...topicPage(topic, await openData.topicPolls(topic.slug)) });
  });

  app.get<{ Params: { slug: string } }>('/topics/:slug/feed.xml', async (request, reply) => {
    const slug = slugIn(request.params.slug);
    const topic = slug === null ? undefined : await topics.bySlug(slug);
    if (!topic) throw notFound('There is no such topic.');
    openToAll(reply);
    return sendBuilt(request, reply, await openData.topicDocument(topic, 'feed'));
  });

  app.get<{ Params: { file: string } }>('/data/topics/:file', async (request, reply) => {
    const { file } = request.params;
    const slug = file.endsWith('.json') ? slugIn(file.slice(0, -'.json'.length)) : null;
    const topic = slug === null ? undefined : await topics.bySlug(slug);
    if (!topic) throw notFound('There is no such topic.');
    openToAll(reply);
    return sendBuilt(request, reply, await openData.topicDocument(topic, 'json'));
  });
};

const refusals: Record<Exclude<TopicChange['outcome'], 'done'>, () => HttpError> = {
  'not-found': () => notFound('Topic not found'),
  taken: () => conflict('There is already a topic with that name.'),
  full: () => badRequest(`The list can hold at most ${TOPICS_MAX} topics. Delete one first.`),
};

function answer(change: TopicChange, message: string): TopicChangeAnswer {
  if (change.outcome !== 'done') throw refusals[change.outcome]();
  return { message, topic: change.topic };
}

export const topicsAdminRoutes: FastifyPluginAsync<{
  auth: AdminAuth;
  topics: TopicsService;
  publicUrl: string;
  clock: Clock;
}> = async (app, { auth, topics, publicUrl, clock }) => {
  const change = auditedChanges(staffApi(app, auth, publicUrl), () => clock.now());

  change.post('/api/admin/topics', {
    permission: 'topics.manage',
    summary: 'Add a topic',
    schema: { body: topicRequest, response: { 201: topicChange } },
    audit: ({ body: { name } }) => ['topic.create', `Added the topic "${name}"`, 'topic'],
    handle: async ({ body: { name } }, audit) => answer(await topics.add(name, audit), 'Topic added.'),
  });

  change.put('/api/admin/topics/:id', {
    permission: 'topics.manage',
    summary: 'Rename a topic',
    schema: { params: topicIdParams, body: topicRequest, response: { 200: topicChange } },
    audit: ({ params: { id }, body: { name } }) => ['topic.rename', `Renamed the topic to "${name}"`, `topic ${id}`],
    handle: async ({ params: { id }, body: { name } }, audit) =>
      answer(await topics.rename(id, name, audit), 'Topic renamed.'),
  });

  change.delete('/api/admin/topics/:id', {
    permission: 'topics.manage',
    summary: 'Delete a topic',
    schema: { params: topicIdParams, response: { 200: topicChange } },
    audit: ({ params: { id } }) => ['topic.delete', 'Deleted the topic', `topic ${id}`],
    handle: async ({ params: { id } }, audit) =>
      answer(await topics.remove(id, audit), 'Topic deleted. Its polls keep their other topics.'),
  });
};
